import type { Difficulty } from "../model";
import type { Concept, SkillCategory } from "../types";

/** One question of the bank. `id` is unique across the whole bank. */
export interface BankQuestion {
	id: string;
	difficulty: Difficulty;
	/** Short label used when citing the question ("transactions"). */
	topic: string;
	text: string;
	concepts: Concept[];
	follow_ups: string[];
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
