import { type BankQuestion, bankByKey, genericQuestions } from "./bank";
import { DIFFICULTIES, type Difficulty } from "./model";
import { findBank, guessCategory, skillIdentity } from "./skills";
import { findKeyword, hash32 } from "./text";
import type { HistoryEntry, InterviewContext, InterviewPlan, PlannedQuestion, PlanSkill } from "./types";

/** Planning rule (docs/interviewer.md): one question per 5 minutes, 3 to 15, at least one per skill up to 20. */
export const MINUTES_PER_QUESTION = 5;
export const MIN_QUESTIONS = 3;
export const MAX_QUESTIONS = 15;
export const MAX_QUESTIONS_WITH_SKILLS = 20;

/** Adaptive rule: an answer scoring at least this raises the next question's difficulty ... */
export const STRONG_ANSWER = 75;
/** ... and one scoring below this lowers it. */
export const WEAK_ANSWER = 40;

/** Words a complete answer usually needs at each level (drives the depth component). */
export const EXPECTED_WORDS: Record<Difficulty, number> = {
	junior: 40,
	intermediate: 60,
	senior: 80,
	expert: 100,
};

export function questionCount(durationMinutes: number, skillCount: number): number {
	if (!Number.isFinite(durationMinutes))
		return Math.min(MAX_QUESTIONS_WITH_SKILLS, Math.max(MIN_QUESTIONS, skillCount));
	const byTime = Math.min(
		MAX_QUESTIONS,
		Math.max(MIN_QUESTIONS, Math.round(durationMinutes / MINUTES_PER_QUESTION)),
	);
	return Math.min(MAX_QUESTIONS_WITH_SKILLS, Math.max(byTime, skillCount));
}

function uniqueSkills(skills: string[]): PlanSkill[] {
	const seen = new Set<string>();
	const out: PlanSkill[] = [];
	for (const raw of skills) {
		const name = raw.trim();
		const identity = skillIdentity(name);
		if (!name || seen.has(identity)) continue;
		seen.add(identity);
		const bank = findBank(name);
		out.push({ name, bank: bank?.key ?? "generic", category: bank?.category ?? guessCategory(name) });
	}
	return out;
}

/** Skills named (by name or alias of 3+ characters) in the instructions or job text get the extra questions first. */
function focusOrder(skills: PlanSkill[], context: InterviewContext): number[] {
	const text = [context.instructions, context.job?.title, context.job?.description, context.job?.requirements]
		.filter((t): t is string => typeof t === "string")
		.join("\n");
	const named = (s: PlanSkill) => {
		const bank = s.bank === "generic" ? null : bankByKey(s.bank);
		const names = [s.name, ...(bank ? [bank.name, ...bank.aliases] : [])];
		// Two-letter names ("Go", "pg") match ordinary words too often to signal focus.
		return names.some((n) => n.length > 2 && findKeyword(text, n) !== null);
	};
	const indexes = skills.map((_, i) => i);
	return text
		? [
				...indexes.filter((i) => named(skills[i] as PlanSkill)),
				...indexes.filter((i) => !named(skills[i] as PlanSkill)),
			]
		: indexes;
}

export function buildPlan(context: InterviewContext): InterviewPlan {
	const requested = uniqueSkills(context.skills);
	const skills = requested.length > 0 ? requested : uniqueSkills(["General"]);
	const total = questionCount(context.duration_minutes, skills.length);
	const first = skills.map((_, i) => i).slice(0, total);
	const order = focusOrder(skills, context);
	const slots = [...first];
	for (let k = 0; slots.length < total; k++) slots.push(order[k % order.length] as number);
	return {
		version: 1,
		interview_id: context.interview_id,
		seed: hash32(context.interview_id),
		position: context.position,
		company_name: context.company_name ?? null,
		start_difficulty: context.difficulty,
		duration_minutes: context.duration_minutes,
		total,
		seconds_per_question: Math.floor((context.duration_minutes * 60) / total),
		skills,
		slots,
	};
}

function shift(difficulty: Difficulty, by: number): Difficulty {
	const i = DIFFICULTIES.indexOf(difficulty) + by;
	return DIFFICULTIES[Math.min(DIFFICULTIES.length - 1, Math.max(0, i))] as Difficulty;
}

/** Difficulty of the next question: the start level, then up after a strong answer, down after a weak one. */
export function nextDifficulty(plan: InterviewPlan, history: HistoryEntry[]): Difficulty {
	const last = history.at(-1);
	if (!last) return plan.start_difficulty;
	const score = last.score?.score ?? 0;
	if (score >= STRONG_ANSWER) return shift(last.question.difficulty, 1);
	if (score < WEAK_ANSWER) return shift(last.question.difficulty, -1);
	return last.question.difficulty;
}

function bankIdFor(question: BankQuestion, skill: PlanSkill): string {
	return skill.bank === "generic" || question.id.startsWith("generic-")
		? `${question.id}@${skill.name.toLowerCase()}`
		: question.id;
}

/** Levels to try, nearest first, harder before easier at equal distance. */
function levelsByDistance(target: Difficulty): Difficulty[] {
	const t = DIFFICULTIES.indexOf(target);
	return [...DIFFICULTIES].sort((a, b) => {
		const da = Math.abs(DIFFICULTIES.indexOf(a) - t);
		const db = Math.abs(DIFFICULTIES.indexOf(b) - t);
		return da - db || DIFFICULTIES.indexOf(b) - DIFFICULTIES.indexOf(a);
	});
}

/**
 * The question for slot `index`: an unused question of the slot's skill at the target level from
 * the skill's bank, else from the generic templates, else the nearest level; a seeded choice
 * among equals gives different interviews different questions.
 */
export function selectQuestion(plan: InterviewPlan, history: HistoryEntry[]): PlannedQuestion | null {
	const index = history.length;
	if (index >= plan.total) return null;
	const skill = plan.skills[plan.slots[index] ?? 0] as PlanSkill;
	const target = nextDifficulty(plan, history);
	const used = new Set(history.map((h) => h.question.bank_id));
	const own = skill.bank === "generic" ? [] : (bankByKey(skill.bank)?.questions ?? []);
	const generic = genericQuestions(skill.name, skill.category);
	const pick = (pool: BankQuestion[], level: Difficulty) => {
		const options = pool.filter((q) => q.difficulty === level && !used.has(bankIdFor(q, skill)));
		return options.length
			? (options[hash32(`${plan.seed}:${index}`) % options.length] as BankQuestion)
			: null;
	};
	let chosen: BankQuestion | null = null;
	for (const level of levelsByDistance(target)) {
		chosen = pick(own, level) ?? pick(generic, level);
		if (chosen) break;
	}
	const question = chosen ?? (generic.find((q) => q.difficulty === target) as BankQuestion);
	const bankId = chosen ? bankIdFor(question, skill) : `${bankIdFor(question, skill)}#${index}`;
	return {
		id: `q${index + 1}_${hash32(`${plan.seed}:${bankId}`).toString(36)}`,
		text: question.text,
		skill: skill.name,
		difficulty: question.difficulty,
		index,
		total: plan.total,
		bank_id: bankId,
		topic: question.topic,
		category: skill.category,
		concepts: question.concepts,
		follow_ups: question.follow_ups,
		...(question.misconceptions ? { misconceptions: question.misconceptions } : {}),
		...(question.links ? { links: question.links } : {}),
		time_budget_seconds: plan.seconds_per_question,
		expected_words: EXPECTED_WORDS[question.difficulty],
	};
}
