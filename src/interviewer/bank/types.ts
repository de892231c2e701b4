import type { Difficulty } from "../model";
import type { Concept, ExpectedLink, Misconception, SkillCategory } from "../types";

/** One question of the bank. `id` is unique across the whole bank. */
export interface BankQuestion {
	id: string;
	difficulty: Difficulty;
	/** Short label used when citing the question ("transactions"). */
	topic: string;
	text: string;
	concepts: Concept[];
	follow_ups: string[];
	/** Wrong claims a confident answer may state (see Misconception). */
	misconceptions?: Misconception[];
	/** Causes and effects a correct explanation links (see ExpectedLink). */
	links?: ExpectedLink[];
}

/** The questions of one skill, with the names the skill goes by. */
export interface SkillBank {
	key: string;
	name: string;
	category: SkillCategory;
	/** Other spellings, lowercase ("js", "ecmascript"). The name and key match without listing. */
	aliases: string[];
	questions: BankQuestion[];
}

/** A concept: its name, then the keywords and phrases that show it in an answer. */
export function c(name: string, ...keywords: string[]): Concept {
	return { name, keywords };
}

/** A misconception: the claim as named in areas for improvement, then its patterns. */
export function m(claim: string, ...patterns: string[]): Misconception {
	return { claim, patterns };
}

/** An expected link: the concept it shows, the cause phrases, the effect phrases. */
export function l(concept: string, cause: string[], effect: string[], wrong?: string): ExpectedLink {
	return wrong === undefined ? { concept, cause, effect } : { concept, cause, effect, wrong };
}
