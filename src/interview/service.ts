import { admitMany, isLiveCreation } from "../accounts/admission";
import type { AuthContext } from "../accounts/auth";
import { getDb } from "../db/client";
import { revokeAdmission } from "../db/quota-repo";
import type { Env } from "../env";
import { AppError, assertNever, validationError } from "../http/errors";
import { hasIdShape, newId } from "../lib/random";
import { iso, parseIsoDateTime } from "../lib/time";
import { plantInterviews } from "./creation";
import type { CommandResult, Owner } from "./interview-object";
import type { CompletionReason, InterviewState } from "./model";
import type { CreateInterviewBody } from "./schemas";
import type { Command, TransitionError } from "./state-machine";
import type { AdvanceTarget } from "./transitions/test-advance";

/** The interview object's RPC surface, typed plainly (its inferred stub type is too deep for tsc). */
export interface InterviewApi {
	get(): Promise<InterviewState | null>;
	execute(command: Command, now: number, owner?: Owner): Promise<CommandResult>;
	join(token: string, now: number): Promise<CommandResult>;
	answer(questionId: string, response: string, now: number): Promise<CommandResult>;
	finish(reason: CompletionReason, now: number): Promise<CommandResult>;
	startFromWaitingRoom(now: number): Promise<{ status: "started" | "not_waiting" }>;
	testAdvance(to: AdvanceTarget, now: number, owner: Owner): Promise<CommandResult>;
	purge(): Promise<void>;
	wake(): Promise<{ status: "awake" | "absent" }>;
	reserveRecording(bytes: number): Promise<{ ok: boolean }>;
}

export function interviewStub(env: Env, id: string): InterviewApi {
	return env.INTERVIEW.get(env.INTERVIEW.idFromName(id)) as unknown as InterviewApi;
}

export function notFound(id: string): AppError {
	return new AppError("INTERVIEW_NOT_FOUND", `No interview with id '${id}' exists.`, { id });
}

export function owner(auth: AuthContext): Owner {
	return { accountId: auth.accountId, environment: auth.dataEnvironment };
}

/** The interview, if it exists and belongs to the caller's account and environment. */
export async function loadOwnedInterview(
	env: Env,
	auth: AuthContext,
	id: string,
	readAhead?: Promise<InterviewState | null>,
): Promise<InterviewState> {
	if (!hasIdShape(id, "int")) throw notFound(id);
	const state = await (readAhead ?? interviewStub(env, id).get());
	if (!state || state.accountId !== auth.accountId || state.environment !== auth.dataEnvironment) {
		throw notFound(id);
	}
	return state;
}

/** Maps a refused transition to the contract's error (exhaustive over the error union). */
export function transitionError(id: string, error: TransitionError): AppError {
	switch (error.code) {
		case "NOT_FOUND":
			return notFound(id);
		case "INVALID_OPERATION":
			return new AppError(
				"INVALID_OPERATION",
				`The interview is ${error.status}; this operation is not allowed.`,
				error.details,
			);
		case "INTERVIEW_IN_PROGRESS":
			return new AppError("INTERVIEW_IN_PROGRESS", error.message, error.details);
		case "INTERVIEW_ALREADY_CANCELLED":
			return new AppError(
				"INTERVIEW_ALREADY_CANCELLED",
				"The interview is already cancelled.",
				error.details,
			);
		case "VALIDATION_ERROR":
			return validationError(error.fields);
		case "INTERVIEW_NOT_OPEN":
			return new AppError("INTERVIEW_NOT_OPEN", `The interview opens at ${iso(error.opensAt)}.`, {
				opens_at: iso(error.opensAt),
			});
		case "STALE_QUESTION":
			return validationError({ question_id: error.message });
		case "NOT_TEST_MODE":
			return new AppError(
				"INVALID_OPERATION",
				"Test helpers only advance test-mode interviews; this one is live.",
				{ test_mode: false },
			);
		case "ALREADY_EXISTS":
			return new AppError("INTERNAL_ERROR", "The interview could not be created.");
		default:
			return assertNever(error);
	}
}

export interface CreateOptions {
	scheduledAt: number;
	now: number;
	appUrl: string;
	/** The job's description and requirements (setup-guide create), kept for the interviewer. */
	job?: { description: string | null; requirements: string | null };
}

/** What creation holds before the interview exists: its id and whether it was admitted as live. */
export interface Reservation {
	id: string;
	testMode: boolean;
	live: boolean;
	debitId: string;
}

/**
 * The account-wide checks of one creation, taken atomically for one interview: a live interview
 * is counted toward the monthly limit and debited its credit before it exists. Single and bulk
 * creation both come through here (`reserveInterviews`).
 */
export async function reserveInterview(
	env: Env,
	auth: AuthContext,
	body: Pick<CreateInterviewBody, "test_mode">,
	now: number,
): Promise<Reservation> {
	const [reservation] = await reserveInterviews(env, auth, [body], now);
	if (reservation instanceof AppError) throw reservation;
	return reservation as Reservation;
}

/**
 * Reservations for several interviews in request order, the live ones admitted in one D1 batch
 * (each sees those before it, so an over-limit tail is refused while the head is admitted).
 * Each element is the reservation or the refusal (QUOTA_EXCEEDED, INSUFFICIENT_CREDITS).
 */
export async function reserveInterviews(
	env: Env,
	auth: AuthContext,
	bodies: readonly Pick<CreateInterviewBody, "test_mode">[],
	now: number,
): Promise<(Reservation | AppError)[]> {
	const reservations = bodies.map((body): Reservation => {
		const testMode = body.test_mode || auth.keyEnvironment !== "live";
		return { id: newId("int"), testMode, live: isLiveCreation(auth, testMode), debitId: newId("msg") };
	});
	const live = reservations.filter((r) => r.live);
	const refusals = await admitMany(
		getDb(env.DB),
		auth,
		live.map((r) => ({ interviewId: r.id, debitId: r.debitId, now })),
	);
	const refused = new Map(live.map((r, i) => [r.id, refusals[i] ?? null]));
	return reservations.map((r) => refused.get(r.id) ?? r);
}

/** Gives back what a reservation took when its interview was not created. */
export async function releaseReservation(env: Env, reservation: Reservation): Promise<void> {
	if (reservation.live) await revokeAdmission(getDb(env.DB), reservation.id, reservation.debitId);
}

/**
 * Creates one interview: every check of `reserveInterview`, then the interview itself as a seed
 * that its Durable Object adopts on first use (`plantInterviews`, src/interview/creation.ts).
 */
export async function createInterview(
	env: Env,
	auth: AuthContext,
	body: CreateInterviewBody,
	options: CreateOptions,
): Promise<InterviewState> {
	const reservation = await reserveInterview(env, auth, body, options.now);
	const [state] = await plantInterviews(env, auth, [{ body, reservation, options }], options.now, (r) =>
		releaseReservation(env, r),
	);
	return state as InterviewState;
}

/** How far ahead an interview may be scheduled (docs/decisions.md): five years. */
export const MAX_SCHEDULE_AHEAD_MS = 5 * 365 * 24 * 3_600_000;

/**
 * `scheduled_at` as epoch ms: now when omitted; a time before the request, or more than five
 * years after it, is refused.
 */
export function scheduledAtOf(value: string | undefined, now: number): number {
	if (value === undefined) return now;
	const at = parseIsoDateTime(value);
	if (at === null) throw validationError({ scheduled_at: "Must be an ISO 8601 date-time with a time zone" });
	if (at < now) throw validationError({ scheduled_at: "Must not be in the past" });
	if (at > now + MAX_SCHEDULE_AHEAD_MS)
		throw validationError({ scheduled_at: "Must be at most 5 years ahead" });
	return at;
}

/** Runs an API command on the caller's interview and returns what it did. */
export async function commandInterview(
	env: Env,
	auth: AuthContext,
	id: string,
	command: Command,
	now: number,
): Promise<Extract<CommandResult, { status: "ok" }>> {
	if (!hasIdShape(id, "int")) throw notFound(id);
	const result = await interviewStub(env, id).execute(command, now, owner(auth));
	if (result.status !== "ok") throw transitionError(id, result.error);
	return result;
}

/** The test helper on the caller's own interview (routes allow it only for test and dev keys). */
export async function advanceInterview(
	env: Env,
	auth: AuthContext,
	id: string,
	to: AdvanceTarget,
	now: number,
): Promise<InterviewState> {
	if (!hasIdShape(id, "int")) throw notFound(id);
	const result = await interviewStub(env, id).testAdvance(to, now, owner(auth));
	if (result.status !== "ok") throw transitionError(id, result.error);
	return result.interview;
}
