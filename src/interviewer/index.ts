/**
 * The AI interviewer: plan -> nextQuestion -> scoreAnswer (per answer) -> finalize.
 * Pure data in and out (JSON-serialisable); see docs/interviewer.md.
 */
export { LEVEL_BANDS, type SkillLevel } from "./assessment";
export { BANKS } from "./bank";
export { createInterviewer, type InterviewerEnv } from "./factory";
export { OfflineInterviewer } from "./offline";
export { OpenAiInterviewer, type OpenAiSettings } from "./openai";
export { questionCount } from "./plan";
export { publicQuestion } from "./public";
export { analyticsSchema, difficultyStepSchema, resultsSchema } from "./schemas";
export { findBank } from "./skills";
export type {
	AnswerScore,
	Assessment,
	HistoryEntry,
	InterviewContext,
	Interviewer,
	InterviewPlan,
	PlannedQuestion,
	Question,
} from "./types";
export { type AiTextModel, WorkersAiInterviewer } from "./workers-ai";
