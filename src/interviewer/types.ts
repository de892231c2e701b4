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

export interface AnswerScore {
	question_id: string;
	skill: string;
	difficulty: Difficulty;
	/** 0-100. */
	score: number;
	/** Each 0-1; see docs/interviewer.md. */
	components: {
		coverage: number;
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
	source: "offline" | "workers-ai";
	feedback: string | null;
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
	readonly kind: "offline" | "workers-ai";
	plan(context: InterviewContext): Awaitable<InterviewPlan>;
	nextQuestion(plan: InterviewPlan, history: HistoryEntry[]): Awaitable<PlannedQuestion | null>;
	scoreAnswer(question: PlannedQuestion, answerText: string, responseSeconds: number): Awaitable<AnswerScore>;
	finalize(plan: InterviewPlan, history: HistoryEntry[]): Awaitable<Assessment>;
}
