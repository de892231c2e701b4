/**
 * How a behavioural answer is told (docs/interviewer.md, "Scoring an answer (offline)"): a story
 * of the candidate's own actions at work, with an outcome and a reflection. Behavioural answers
 * explain in this shape, one step per sentence, rarely with the causal words that make a link, so
 * for questions of interpersonal skills the story's shape is read as their explanation.
 */
import { analyse } from "./language";
import { countPhrases } from "./text";
import type { StoryPart } from "./types";

/** Words that set a story at work (a story told about a hobby or a holiday uses none of them). */
const WORK_WORDS: ReadonlySet<string> = new Set([
	"team",
	"teammate",
	"colleague",
	"engineer",
	"developer",
	"manager",
	"lead",
	"director",
	"stakeholder",
	"customer",
	"client",
	"user",
	"company",
	"org",
	"organisation",
	"organization",
	"department",
	"project",
	"product",
	"feature",
	"release",
	"deploy",
	"deployment",
	"production",
	"incident",
	"outage",
	"on-call",
	"oncall",
	"code",
	"codebase",
	"review",
	"pr",
	"ticket",
	"sprint",
	"standup",
	"retro",
	"roadmap",
	"deadline",
	"pipeline",
	"service",
	"test",
	"bug",
	"alert",
	"runbook",
	"onboarding",
	"hire",
	"hiring",
	"junior",
	"senior",
	"mentee",
	"rfc",
	"design",
	"architecture",
	"migration",
	"system",
	"meeting",
	"process",
	"quarter",
	"okr",
	"metric",
	"escalation",
	"tooling",
	"staff",
	"job",
	"boss",
	"office",
	"workplace",
	"employer",
	"coworker",
	"database",
	"server",
	"repo",
	"repository",
	"backlog",
	"vendor",
	"contractor",
]);

/** A change measured or named in the outcome ("dropped", "from six hours to forty minutes", "30%"). */
const OUTCOME_WORDS: ReadonlySet<string> = new Set([
	"drop",
	"fell",
	"fall",
	"rose",
	"rise",
	"cut",
	"reduce",
	"halve",
	"double",
	"triple",
	"improve",
	"increase",
	"decrease",
	"save",
	"shrink",
	"grow",
	"faster",
	"fewer",
	"less",
	"more",
	"stopped",
	"stop",
	"zero",
	"shipped",
	"ship",
	"launch",
	"adopt",
	"promote",
	"became",
	"become",
	"down",
	"half",
	// Quantities spelled out ("two days", "from five setups to two"); "one" says too little.
	"two",
	"three",
	"four",
	"five",
	"six",
	"seven",
	"eight",
	"nine",
	"ten",
	"twenty",
	"dozen",
	"hundred",
	"thousand",
]);

/** A look back at what the candidate learned or would change. */
const REFLECTION_PHRASES = [
	"learned",
	"learnt",
	"lesson",
	"in hindsight",
	"looking back",
	"next time",
	"would do differently",
	"i'd do differently",
	"i would change",
	"i'd change",
	"what i'd change",
	"what i would change",
	"would have",
	"should have",
	"didn't work",
	"did not work",
	"what worked",
	"mistake",
	"failed",
	"backfired",
	"differently",
	"in retrospect",
	"i underestimated",
	"i under-communicated",
	"taught me",
	"realised",
	"realized",
] as const;

/** Words that tell a habit or a hypothesis rather than something that happened. */
const HABITUAL: ReadonlySet<string> = new Set([
	"usually",
	"generally",
	"typically",
	"normally",
	"whenever",
	"tend",
	"if",
]);

/** Words that join a further step to an action of the same subject ("..., then wrote", "and asked"). */
const STEP_JOINERS: ReadonlySet<string> = new Set(["then", "and"]);

/** A story at least this complete (two of its three parts) explains a behavioural answer. */
export const STORY_EXPLAINS = 2 / 3;

export interface StoryShape {
	/**
	 * The candidate's actions: sentences where "I" or "we" is followed by a verb within three words,
	 * plus each further verb such a sentence joins with "then" or "and" ("then wrote ..., and asked").
	 */
	actions: number;
	/** The first action's sentence or a later one names a change or a number. */
	outcome: boolean;
	/** A sentence looks back (learned, would change, in hindsight, did not work ...). */
	reflection: boolean;
	/** Distinct words that set the story at work. */
	work: number;
	/** 0-1: (min(1, actions / 2) + outcome + reflection) / 3, or 0 when not set at work (fewer than two work words). */
	score: number;
}

/** The shape of a first-person story in the answer (see StoryShape). */
export function storyShape(text: string): StoryShape {
	const sentences = analyse(text);
	let actions = 0;
	let firstAction = -1;
	let outcome = false;
	const work = new Set<string>();
	for (const [i, s] of sentences.entries()) {
		const t = s.tokens;
		let acted = false;
		let steps = 0;
		for (let j = 0; j < t.length; j++) {
			const tok = t[j];
			if (!tok) continue;
			if (WORK_WORDS.has(tok.root) || WORK_WORDS.has(tok.word)) work.add(tok.root);
			if ((tok.word === "i" || tok.word === "we") && t.slice(j + 1, j + 4).some((x) => x.verb && !x.negative))
				acted = true;
			// A further step of the same subject in one sentence: "I kept notes, then wrote a script and asked ...".
			const next = t[j + 1];
			if (acted && STEP_JOINERS.has(tok.word) && next?.verb && !next.negative && !t[j + 2]?.negative) steps++;
		}
		// A habit ("I usually", "if I see", "whenever we") is not a step of a story.
		if (acted && t.some((x) => HABITUAL.has(x.word))) acted = false;
		if (acted) {
			actions += 1 + steps;
			if (firstAction < 0) firstAction = i;
		}
		if (
			firstAction >= 0 &&
			t.some((x) => OUTCOME_WORDS.has(x.root) || OUTCOME_WORDS.has(x.word) || /\d|%/.test(x.word))
		)
			outcome = true;
	}
	const reflection = countPhrases(text, REFLECTION_PHRASES) > 0;
	const atWork = work.size >= 2;
	const score = atWork ? (Math.min(1, actions / 2) + (outcome ? 1 : 0) + (reflection ? 1 : 0)) / 3 : 0;
	return { actions, outcome, reflection, work: work.size, score };
}

/** Whether a story shows one of its parts (see Concept.story): set at work, an action, an outcome, a reflection. */
export function storyShows(shape: StoryShape, part: StoryPart): boolean {
	if (shape.work < 2) return false;
	if (part === "setting") return true;
	if (part === "actions") return shape.actions >= 1;
	if (part === "outcome") return shape.outcome;
	return shape.reflection;
}
