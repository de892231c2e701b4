import { BANKS, type SkillBank } from "./bank";
import { compact } from "./text";
import type { SkillCategory } from "./types";

const INDEX: ReadonlyMap<string, SkillBank> = (() => {
	const index = new Map<string, SkillBank>();
	for (const bank of BANKS) {
		for (const name of [bank.key, bank.name, ...bank.aliases]) {
			const key = compact(name);
			const existing = index.get(key);
			if (existing && existing !== bank) throw new Error(`alias ${name} names two banks`);
			index.set(key, bank);
		}
	}
	return index;
})();

/** Lookup spellings of a skill: as written, without a parenthesis, without a trailing version. */
function spellings(skill: string): string[] {
	const plain = skill.trim().toLowerCase();
	const noParen = plain.replace(/\s*\(.*\)\s*$/, "");
	const noVersion = noParen.replace(/\s+v?\d+(\.\d+)*\+?$/, "");
	const noSuffix = noVersion.replace(/\s+(programming|language|development|framework|skills?)$/, "");
	return [...new Set([plain, noParen, noVersion, noSuffix])].filter(Boolean);
}

/** The bank that knows this skill ("JS", "Postgres", "k8s", "Node" ...), or null. */
export function findBank(skill: string): SkillBank | null {
	for (const spelling of spellings(skill)) {
		const bank = INDEX.get(compact(spelling));
		if (bank) return bank;
	}
	return null;
}

const INTERPERSONAL_WORDS = [
	"communicat",
	"leader",
	"team",
	"collaborat",
	"negotiat",
	"mentor",
	"management",
	"presentation",
	"empathy",
	"customer",
	"conflict",
	"stakeholder",
	"ownership",
	"adaptab",
	"interpersonal",
	"coaching",
	"listening",
	"motivation",
];

/** Category of a skill no bank knows: interpersonal when its name says so, else technical. */
export function guessCategory(skill: string): SkillCategory {
	const lower = skill.toLowerCase();
	return INTERPERSONAL_WORDS.some((w) => lower.includes(w)) ? "interpersonal" : "technical";
}

/** Identity used to drop duplicate skills from a request ("JS" and "JavaScript" are one). */
export function skillIdentity(skill: string): string {
	return findBank(skill)?.key ?? `generic:${compact(skill)}`;
}
