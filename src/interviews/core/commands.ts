import type { DataEnvironment } from "../../accounts/keys";
import type { AnswerScore, InterviewPlan, PlannedQuestion } from "../../interviewer/types";
import type {
	Analytics,
	CompletionReason,
	Difficulty,
	InterviewState,
	InterviewStatus,
	Json,
	Question,
	Results,
} from "./model";

/**
 * The state machine's vocabulary: its commands, effects and errors, and the helpers every
 * transition uses. The transitions (./transitions/) and the machine that dispatches to them
 * (./state-machine.ts) both import this file.
 */

/** No-show window and the delay between completion and the published analysis. */
export const NO_SHOW_AFTER_MS = 15 * 60_000;
export const JOIN_OPENS_BEFORE_MS = 15 * 60_000;
export const ANALYSIS_DELAY_MS = 3_000;

export type TimerName = "no_show" | "completion" | "analysis";
export type NotificationTemplate = "invitation" | "update" | "cancellation";

/** What a committed transition asks the world to do; the Durable Object carries these out. */
export type Effect =
	| { kind: "event"; type: string; data: { [key: string]: Json } }
	/**
	 * A notice to the candidate; `replaced` sends it instead to the address an update replaced,
	 * about the interview as it was booked for that address (its time, its name, its own now
	 * withdrawn link), never the new one.
	 */
	| {
			kind: "notify";
			template: NotificationTemplate;
			reason: string | null;
			replaced?: InterviewState;
	  }
	| { kind: "refund"; credits: number; reason: string }
	| { kind: "timer"; name: TimerName; dueAt: number | null }
	/** Takes a cancelled scheduled interview out of its month's count. */
	| { kind: "release_quota" }
	/** Gives back the account's concurrent slot, or the place in its waiting line. */
	| { kind: "release_slot" };

export interface CreateCommand {
	type: "create";
	id: string;
	accountId: string;
	environment: DataEnvironment;
	testMode: boolean;
	candidateEmail: string;
	candidateName: string | null;
	position: string;
	skills: string[];
	difficulty: Difficulty;
	durationMinutes: number;
	companyName: string | null;
	instructions: string | null;
	jobDescription?: string | null;
	jobRequirements?: string | null;
	/** Epoch ms; the route has already applied "now" when the caller omitted it. */
	scheduledAt: number;
	joinToken: string;
	appUrl: string;
	sendInvitation: boolean;
	creditsCharged: number;
}

export const UPDATABLE_FIELDS = [
	"scheduled_at",
	"candidate_email",
	"position",
	"skills",
	"duration_minutes",
	"difficulty",
	"instructions",
	"company_name",
] as const;
export type UpdatableField = (typeof UPDATABLE_FIELDS)[number];

export interface UpdateChanges {
	scheduled_at?: number;
	candidate_email?: string;
	position?: string;
	skills?: string[];
	duration_minutes?: number;
	difficulty?: Difficulty;
	instructions?: string;
	company_name?: string;
}

export interface UpdateCommand {
	type: "update";
	changes: UpdateChanges;
	sendNotification: boolean;
	rescheduleReason: string | null;
	/** A fresh join token, used when the candidate's e-mail changes. */
	newJoinToken: string;
}

export interface CancelCommand {
	type: "cancel";
	reason: string | null;
	sendNotification: boolean;
	refundCredits: boolean;
}

export type Command =
	| CreateCommand
	| UpdateCommand
	| CancelCommand
	/** `early`: the test helper joins before the join window opens. */
	| { type: "join"; early?: boolean }
	| { type: "start" }
	| { type: "ask"; question: Question; planned: PlannedQuestion | null; plan?: InterviewPlan }
	| {
			type: "answer";
			questionId: string;
			response: string;
			/** The `timestamp` the client sent the answer with (null when it came without one). */
			sentAt: string | null;
			score: number | null;
			assessment: AnswerScore | null;
	  }
	| { type: "finish"; reason: CompletionReason; results: Results; analytics: Analytics }
	/** `early`: the test helper declares the no-show before its time. */
	| { type: "no_show_timer"; early?: boolean }
	| { type: "analysis_timer" };

export type TransitionError =
	| { code: "ALREADY_EXISTS" }
	| { code: "NOT_FOUND" }
	| { code: "INVALID_OPERATION"; status: InterviewStatus; details: { [key: string]: Json } }
	| { code: "INTERVIEW_IN_PROGRESS"; details: { [key: string]: Json }; message: string }
	| { code: "INTERVIEW_ALREADY_CANCELLED"; details: { [key: string]: Json } }
	| { code: "INTERVIEW_NOT_OPEN"; opensAt: number }
	| { code: "VALIDATION_ERROR"; fields: { [key: string]: string } }
	| { code: "STALE_QUESTION"; message: string }
	/** A test helper was asked to advance an interview that is not in test mode. */
	| { code: "NOT_TEST_MODE" };

export type Transition =
	| { ok: true; state: InterviewState; effects: Effect[] }
	| { ok: false; error: TransitionError };

/**
 * Live interviews (not test mode, not the dev sandbox) count toward the monthly limit and take
 * the account's concurrent slots.
 */
export function isLive(state: Pick<InterviewState, "testMode" | "environment">): boolean {
	return !state.testMode && state.environment === "production";
}

/** A transition that changes nothing and asks nothing: idempotent commands end here. */
export function unchanged(state: InterviewState): Transition {
	return { ok: true, state, effects: [] };
}

export function fail(error: TransitionError): Transition {
	return { ok: false, error };
}

/** The next version of a state, stamped with the time of the change. */
export function bump(state: InterviewState, now: number, changes: Partial<InterviewState>): InterviewState {
	return { ...state, ...changes, updatedAt: now, version: state.version + 1 };
}

export function event(type: string, data: { [key: string]: Json }): Effect {
	return { kind: "event", type, data };
}
