import type { Analytics, Difficulty, Results } from "./model";

/**
 * Everything here is plain JSON (no Dates, Maps or undefined values) so it can be stored in the
 * interview's Durable Object SQLite and passed over RPC unchanged.
 */

/** What the room knows about the interview when it asks for a plan. */
export interface InterviewContext {
	interview_id: string;
	position: string;
	skills: string[];
	difficulty: Difficulty;
	duration_minutes: number;
	company_name?: string | null;
	instructions?: string | null;
	job?: { title?: string | null; description?: string | null; requirements?: string | null } | null;
}

export type SkillCategory = "technical" | "interpersonal";

/** A skill of the plan: the caller's spelling and the bank it was resolved to. */
export interface PlanSkill {
	/** As the caller wrote it; used in questions and results. */
	name: string;
	/** Canonical bank key (`postgresql`) or `generic` when no bank knows the skill. */
	bank: string;
	category: SkillCategory;
}

export interface InterviewPlan {
	version: 1;
	interview_id: string;
	/** uint32 derived from the interview id; drives every choice that needs variety. */
	seed: number;
	position: string;
	company_name: string | null;
	start_difficulty: Difficulty;
	duration_minutes: number;
	/** Number of questions that will be asked (fixed for the interview). */
	total: number;
	/** Time budget for one answer: the duration shared evenly by the questions. */
	seconds_per_question: number;
	skills: PlanSkill[];
	/** For each question index, the index into `skills` it assesses. */
	slots: number[];
}

/** One concept a good answer covers, with the words that show it. */
export interface Concept {
	name: string;
	keywords: string[];
	/**
	 * The part of a well-told story this concept is (behavioural questions): the offline scorer also
	 * credits it when a story set at work shows that part in the candidate's own words (story.ts).
	 */
	story?: StoryPart;
}

/** Parts of a behavioural answer's story: where it happened, what the candidate did, what changed, what they learned. */
export type StoryPart = "setting" | "actions" | "outcome" | "reflection";

/**
 * A wrong claim a confident answer may state. Each pattern is a set of groups joined by `&`, each
 * group alternatives joined by `|` (words and phrases, matched by lemma): the claim is found when
 * every group occurs in one clause that is neither negated ("indexes do not make writes faster")
 * nor reported as someone else's mistake ("a common myth is that ...").
 */
export interface Misconception {
	claim: string;
	patterns: string[];
}

/**
 * A cause and effect a correct explanation links: some `cause` phrase and some `effect` phrase
 * in the same sentence (or a sentence and the next) joined by a causal word (because, so, which
 * means, makes, prevents ...). A linked pair also shows `concept`, even in words the concept's
 * keywords do not list (a paraphrase).
 */
export interface ExpectedLink {
	concept: string;
	cause: string[];
	effect: string[];
	/** The claim named when the answer states the link the wrong way round (default: "<concept>: stated the wrong way round"). */
	wrong?: string;
}

/** The question as the candidate and observers see it (the real-time channel's shape). */
export interface Question {
	id: string;
	text: string;
	skill: string;
	difficulty: Difficulty;
	/** 0-based position in the interview. */
	index: number;
	total: number;
}

/** A question with the fields kept server-side (rubric, follow-ups, time budget). */
export interface PlannedQuestion extends Question {
	bank_id: string;
	topic: string;
	category: SkillCategory;
	concepts: Concept[];
	follow_ups: string[];
	/** Wrong claims the rubric recognises (optional: not every question lists them). */
	misconceptions?: Misconception[];
	/** Causes and effects a correct explanation links (optional). */
	links?: ExpectedLink[];
	time_budget_seconds: number;
	expected_words: number;
}

export interface ConceptMatch {
	concept: string;
	/** Keywords found in the answer (empty when a model judged the concept). */
	keywords: string[];
	/** Verbatim excerpt of the answer that shows the concept. */
	snippet: string;
}

/** Why an answer or an interview needs a person's closer look (docs/interviewer.md). */
export const REVIEW_FLAGS = [
	"keyword_list",
	"misconception",
	"contradiction",
	"off_topic",
	"no_answer",
	"low_evidence",
	"paraphrase_uncertain",
	"scorer_fallback",
	"signals_disagree",
	"overclaim",
	"unsupported",
] as const;
export type ReviewFlag = (typeof REVIEW_FLAGS)[number];

export interface FoundMisconception {
	claim: string;
	/** The answer's sentence that states it. */
	quote: string;
}

export type ScorerSource = "offline" | "workers-ai" | "openai";

export interface AnswerScore {
	question_id: string;
	skill: string;
	difficulty: Difficulty;
	/** 0-100. */
	score: number;
	/** Each 0-1; see docs/interviewer.md. */
	components: {
		coverage: number;
		/** Share of the expected cause-and-effect links the answer made (0-1). */
		explanation: number;
		/** What the answer earned on content before style and timing adjust it (0-1). */
		content: number;
		depth: number;
		structure: number;
		timing: number;
		relevance: number;
		communication: number;
	};
	matched: ConceptMatch[];
	missed: string[];
	word_count: number;
	response_seconds: number;
	/** What to probe next: the first missed concept, or the bank's first follow-up when none was missed. */
	follow_up: string | null;
	/** Short excerpt of the answer's opening, for citing weak answers. */
	excerpt: string;
	/** Which scorer decided this score (a model's failure falls back to `offline`). */
	source: ScorerSource;
	feedback: string | null;
	/** Wrong claims the answer states (judged by the rubric's misconceptions). */
	misconceptions?: FoundMisconception[];
	/** Expected links the answer made, by concept. */
	explained?: string[];
	review_flags?: ReviewFlag[];
	/** How sure the scorer is of this score (0-1). */
	confidence?: number;
	/** Set when a model was asked but the offline scorer decided: why. */
	fallback?: string | null;
}

/** One asked question and, once answered, its score (null: asked but never answered). */
export interface HistoryEntry {
	question: PlannedQuestion;
	score: AnswerScore | null;
}

export interface Assessment {
	results: Results;
	analytics: Analytics;
}

type Awaitable<T> = T | Promise<T>;

/** The AI interviewer the interview room talks to. Implementations may be sync or async. */
export interface Interviewer {
	readonly kind: ScorerSource;
	plan(context: InterviewContext): Awaitable<InterviewPlan>;
	nextQuestion(plan: InterviewPlan, history: HistoryEntry[]): Awaitable<PlannedQuestion | null>;
	scoreAnswer(question: PlannedQuestion, answerText: string, responseSeconds: number): Awaitable<AnswerScore>;
	finalize(plan: InterviewPlan, history: HistoryEntry[]): Awaitable<Assessment>;
}
