import type { DataEnvironment } from "../../accounts/keys";

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export const STATUSES = ["scheduled", "in_progress", "completed", "cancelled"] as const;
export type InterviewStatus = (typeof STATUSES)[number];

export {
	type Analytics,
	DIFFICULTIES,
	type Difficulty,
	type DifficultyStep,
	RECOMMENDATIONS,
	type Recommendation,
	type Results,
	type SkillAssessment,
} from "../../interviewer/model";

import type { Analytics, Difficulty, Results } from "../../interviewer/model";
import type { AnswerScore, InterviewPlan, PlannedQuestion } from "../../interviewer/types";

/** A question as the candidate sees it (decisions.md, real-time channel). */
export interface Question {
	id: string;
	text: string;
	skill: string;
	difficulty: Difficulty;
	index: number;
	total: number;
}

/** One asked question and, once given, its answer with the interviewer's assessment. */
export interface TranscriptEntry {
	question: Question;
	asked_at: number;
	answer: string | null;
	answered_at: number | null;
	score: number | null;
	/** The interviewer's full question (rubric, follow-ups): never sent to the candidate. */
	planned: PlannedQuestion | null;
	/** The interviewer's evidence for the score (concepts covered and missed, and so on). */
	assessment: AnswerScore | null;
}

export type CompletionReason = "questions_answered" | "candidate_ended" | "duration_elapsed" | "test_helper";

/** The authoritative state of one interview, held by its Durable Object. Times are epoch ms. */
export interface InterviewState {
	id: string;
	accountId: string;
	environment: DataEnvironment;
	testMode: boolean;
	status: InterviewStatus;
	candidateEmail: string;
	candidateName: string | null;
	joinedAt: number | null;
	position: string;
	skills: string[];
	difficulty: Difficulty;
	durationMinutes: number;
	companyName: string | null;
	instructions: string | null;
	/** The job's description and requirements (setup-guide create), for the interviewer's context. */
	jobDescription?: string | null;
	jobRequirements?: string | null;
	scheduledAt: number;
	startedAt: number | null;
	completedAt: number | null;
	cancelledAt: number | null;
	cancellationReason: string | null;
	joinToken: string;
	/** `{app_url}` when the interview was created, for links sent to the candidate. */
	appUrl: string;
	noShowEmitted: boolean;
	/** Credits debited at creation (1 for a live interview, 0 for test and dev); refunded at most once. */
	creditsCharged: number;
	creditsRefunded: number;
	/** The interviewer's plan, kept for the interviewer (the state machine does not read it). */
	plan: InterviewPlan | null;
	currentQuestion: Question | null;
	transcript: TranscriptEntry[];
	/**
	 * The `timestamp` the client sent the last recorded answer with: the same answer sent again
	 * (a Socket.IO client's retry after a reconnect, which may name no question) is recognised by
	 * it and its text, and is not recorded against the next question (`isRepeatedAnswer`).
	 */
	lastAnswerSentAt?: string | null;
	/**
	 * How many times the candidate's address was changed (absent: never). Each address's calendar
	 * entry has a UID of its own (`calendarUid`), so the old address's withdrawal and the new
	 * address's invitation are two events, whatever order a calendar that receives both reads them in.
	 */
	addressChanges?: number;
	completionReason: CompletionReason | null;
	/** Results are computed at completion and published when the analysis timer fires. */
	results: Results | null;
	analytics: Analytics | null;
	analyzedAt: number | null;
	createdAt: number;
	updatedAt: number;
	/** Increases with every committed change; guards the D1 projection against stale writes. */
	version: number;
}
