import { type Admission, accountStub } from "../accounts/account-stub";
import {
	admissionRequests,
	admitMany,
	isLiveCreation,
	type LiveAdmission,
	refusals,
} from "../accounts/admission";
import { type AuthContext, assertScope } from "../accounts/auth";
import { revokeAdmission } from "../accounts/quota-repo";
import { getDb } from "../platform/db/client";
import { AppError, assertNever, validationError } from "../platform/http/errors";
import { hasIdShape, newId } from "../platform/lib/random";
import { iso, parseIsoDateTime } from "../platform/lib/time";
import type { CreateInterviewBody } from "./api/schemas";
import type { CompletionReason, InterviewState } from "./core/model";
import type { Command, TransitionError } from "./core/state-machine";
import type { AdvanceTarget } from "./core/transitions/test-advance";
import { type CommitCreation, NothingWritten, plantInterviews } from "./creation/creation";
import { commandSeed } from "./creation/seed-commands";
import type { CommandResult, Owner } from "./object/interview-object";

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
	const reservations = bodies.map((body) => newReservation(auth, body));
	const live = reservations.filter((r) => r.live);
	const refusals = await admitMany(
		getDb(env.DB),
		auth,
		live.map((r) => liveAdmission(r, now)),
	);
	const refused = new Map(live.map((r, i) => [r.id, refusals[i] ?? null]));
	return reservations.map((r) => refused.get(r.id) ?? r);
}

/** A new interview's id and whether it is live (nothing taken yet). */
function newReservation(auth: AuthContext, body: Pick<CreateInterviewBody, "test_mode">): Reservation {
	const testMode = body.test_mode || auth.keyEnvironment !== "live";
	return { id: newId("int"), testMode, live: isLiveCreation(auth, testMode), debitId: newId("msg") };
}

function liveAdmission(reservation: Reservation, now: number): LiveAdmission {
	return { interviewId: reservation.id, debitId: reservation.debitId, now };
}

/** Gives back what a reservation took when its interview was not created. */
export async function releaseReservation(env: Env, reservation: Reservation): Promise<void> {
	if (reservation.live) await revokeAdmission(getDb(env.DB), reservation.id, reservation.debitId);
}

/**
 * The request's rate-limit count, not yet taken: a single create sends it with its write
 * (src/accounts/rate-limit-middleware.ts). `settle` applies the account object's answer (429 when
 * refused; after a stale answer it reads the key again and counts the request with it) and
 * returns the key's authentication as it then stands.
 */
export interface PendingCount {
	limit: number;
	version: number | null;
	settle(answer: Admission): Promise<AuthContext>;
}

/**
 * Creates one interview: every check of `reserveInterview`, then the interview itself as a seed
 * that its Durable Object adopts on first use (`plantInterviews`, src/interviews/creation/creation.ts).
 * With `pendingCount`, the rate-limit count, a live interview's admission and the write are one
 * call to the account's object (`createAtOnce`) instead of three round trips.
 */
export async function createInterview(
	env: Env,
	auth: AuthContext,
	body: CreateInterviewBody,
	options: CreateOptions,
	pendingCount?: PendingCount,
): Promise<InterviewState> {
	const reservation = pendingCount
		? newReservation(auth, body)
		: await reserveInterview(env, auth, body, options.now);
	const commit = pendingCount ? commitAtOnce(env, auth, reservation, options.now, pendingCount) : undefined;
	try {
		const [state] = await plantInterviews(
			env,
			auth,
			[{ body, reservation, options }],
			options.now,
			(r) => releaseReservation(env, r),
			commit,
		);
		return state as InterviewState;
	} catch (error) {
		if (!(error instanceof KeyReread)) throw error;
		// Counted now with the key read again: the usual way, with that key's scopes and account.
		assertScope(error.auth, "interviews:write");
		return createInterview(env, error.auth, body, options);
	}
}

/** The account object found the cached key out of date: nothing was counted, taken or written. */
class KeyReread extends NothingWritten {
	constructor(readonly auth: AuthContext) {
		super("the key was read again");
	}
}

/**
 * The write of a create whose count is pending: one call to the account object counts the
 * request, admits a live interview and writes it; a refusal at any step throws before anything is
 * written. When the object finds the Worker's cached key out of date it does nothing: the request
 * is counted with the key read again (`settle`) and created the usual way with that key.
 */
function commitAtOnce(
	env: Env,
	auth: AuthContext,
	reservation: Reservation,
	now: number,
	pendingCount: PendingCount,
): CommitCreation {
	return async (write) => {
		const admissions = reservation.live ? [liveAdmission(reservation, now)] : [];
		const outcome = await accountStub(env, auth.accountId).createAtOnce({
			limit: pendingCount.limit,
			version: pendingCount.version,
			admissions: admissionRequests(auth, admissions),
			write,
		});
		const current = await pendingCount.settle(outcome.admission);
		if (outcome.admission.status === "stale") throw new KeyReread(current);
		const [refusal] = outcome.quota ? refusals(auth, admissions, outcome.quota) : [];
		if (refusal) throw refusal;
		if (outcome.commit?.status !== "committed") {
			throw new Error(outcome.commit?.error ?? "the account object did not write the interview");
		}
		return outcome.commit.result;
	};
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
	// A cancel or update of an interview whose object was never opened is decided against its
	// seed row in D1 (null: no seed to decide against; the object decides, as before).
	const seeded =
		command.type === "cancel" || command.type === "update"
			? await commandSeed(env, id, command, now, owner(auth))
			: null;
	const result = seeded ?? (await interviewStub(env, id).execute(command, now, owner(auth)));
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
