import type { SkillCategory } from "../types";
import { GENERIC_INTERPERSONAL } from "./generic-interpersonal";
import { GENERIC_TECHNICAL } from "./generic-technical";
import type { BankQuestion } from "./types";

/**
 * Generic questions for a skill no bank knows, instantiated with the caller's spelling of it.
 * Their concepts are skill-neutral: they reward examples, reasoning, trade-offs and well-told stories.
 */
export function genericQuestions(skill: string, category: SkillCategory): BankQuestion[] {
	const fill = (s: string) => s.replaceAll("{skill}", skill);
	const set = category === "interpersonal" ? GENERIC_INTERPERSONAL : GENERIC_TECHNICAL;
	return set.map((t) => ({
		id: `generic-${category}-${t.key}`,
		difficulty: t.difficulty,
		topic: t.topic,
		text: fill(t.text),
		concepts: t.concepts,
		follow_ups: t.follow_ups.map(fill),
	}));
}

export const GENERIC_TEMPLATE_COUNT = {
	technical: GENERIC_TECHNICAL.length,
	interpersonal: GENERIC_INTERPERSONAL.length,
};
