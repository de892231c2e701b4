import { admissionRequests, admitMany, type LiveAdmission, refusals } from "../accounts/admission";
import { assertScope } from "../accounts/auth";
import type { AuthContext } from "../accounts/auth-context";
import type { DataEnvironment } from "../accounts/keys";
import { revokeAdmission, revokeAdmissions } from "../accounts/quota-repo";
import type { RequestCount } from "../accounts/rate-limit-middleware";
import { getDb } from "../platform/db/client";
import { AppError, assertNever, validationError } from "../platform/http/errors";
import { errorText } from "../platform/lib/error-text";
import { hasIdShape, newId } from "../platform/lib/random";
import { iso, parseIsoDateTime } from "../platform/lib/time";
import type { CreateInterviewBody } from "./api/schemas";
import type { InterviewState } from "./core/model";
import { type Command, isLive, type TransitionError } from "./core/state-machine";
import type { AdvanceTarget } from "./core/transitions/test-advance";
import {
	type CommitCreation,
	type CreateOptions,
	type NewInterview,
	NothingWritten,
	plantInterviews,
} from "./creation/creation";
import { commandSeed, settleSeedChange } from "./creation/seed-commands";
import type { CommandResult, Owner } from "./object/command-result";
import { interviewStub, isKnownInterview, readInterview, readInterviewWithRecordings } from "./stub";

export function notFound(id: string): AppError {
	return new AppError("INTERVIEW_NOT_FOUND", `No interview with id '${id}' exists.`, { id });
}

export function owner(auth: AuthContext): Owner {
	return {
		accountId: auth.accountId,
		environment: auth.dataEnvironment,
		testKey: auth.keyEnvironment === "test",
	};
}

/** The interview, if it exists and belongs to the caller's account and environment. */
export async function loadOwnedInterview(
	env: Env,
	auth: AuthContext,
	id: string,
	readAhead?: Promise<InterviewState | null>,
	environments: readonly DataEnvironment[] = [auth.dataEnvironment],
): Promise<InterviewState> {
	if (!hasIdShape(id, "int")) throw notFound(id);
	const state = await (readAhead ?? readInterview(env, id));
	return ownedOrNotFound(state, auth, id, environments);
}

/**
 * The interview as `loadOwnedInterview` gives it, and whether its recording may have chunks in R2
 * (`InterviewObject.getWithRecordings`), read in the same call to its object.
 */
export async function loadOwnedInterviewWithRecordings(
	env: Env,
	auth: AuthContext,
	id: string,
	environments: readonly DataEnvironment[] = [auth.dataEnvironment],
): Promise<{ state: InterviewState; recordings: boolean }> {
	if (!hasIdShape(id, "int")) throw notFound(id);
	const read = await readInterviewWithRecordings(env, id);
	return {
		state: ownedOrNotFound(read?.state ?? null, auth, id, environments),
		recordings: read?.recordings ?? false,
	};
}

/**
 * Another account's interview, or one of a data environment the caller does not see (an API key
 * sees its own; the dashboard both of its account's), does not exist for the caller (404, not 403).
 */
function ownedOrNotFound(
	state: InterviewState | null,
	auth: AuthContext,
	id: string,
	environments: readonly DataEnvironment[],
): InterviewState {
	if (!state || state.accountId !== auth.accountId || !environments.includes(state.environment)) {
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
				"A test key changes only test-mode interviews; this one is live.",
				{ test_mode: false },
			);
		case "ALREADY_EXISTS":
			return new AppError("INTERNAL_ERROR", "The interview could not be created.");
		default:
			return assertNever(error);
	}
}

/**
 * The account-wide checks of one creation, taken atomically for one interview: a live interview
 * is admitted (counted toward the monthly limit and debited its credit) before it exists. Single
 * and bulk creation both come through here (`admitInterviews`).
 */
export async function admitInterview(
	env: Env,
	auth: AuthContext,
	body: Pick<CreateInterviewBody, "test_mode">,
	now: number,
): Promise<NewInterview> {
	const [admitted] = await admitInterviews(env, auth, [body], now);
	if (admitted instanceof AppError) throw admitted;
	return admitted as NewInterview;
}

/**
 * New interviews in request order, the live ones admitted in one D1 batch (each sees those
 * before it, so an over-limit tail is refused while the head is admitted). Each element is the
 * new interview or the refusal (QUOTA_EXCEEDED, INSUFFICIENT_CREDITS).
 */
export async function admitInterviews(
	env: Env,
	auth: AuthContext,
	bodies: readonly Pick<CreateInterviewBody, "test_mode">[],
	now: number,
): Promise<(NewInterview | AppError)[]> {
	const interviews = bodies.map((body) => newInterview(auth, body));
	const live = interviews.filter((i) => i.live);
	const db = getDb(env.DB);
	let refusals: (AppError | null)[];
	try {
		refusals = await admitMany(
			db,
			auth,
			live.map((i) => liveAdmission(i, now)),
		);
	} catch (error) {
		// A batch can fail after it committed (its answer lost on the way back): what it may have
		// taken is given back before the failure is reported, or a retry would be refused for it.
		// Should that fail too, the orphan sweep gives it back later.
		await revokeAdmissions(
			db,
			live.map((i) => ({ interviewId: i.id, debitId: i.debitId })),
		).catch((failure: unknown) =>
			console.error(JSON.stringify({ message: "admission not given back", error: errorText(failure) })),
		);
		throw error;
	}
	const refused = new Map(live.map((i, n) => [i.id, refusals[n] ?? null]));
	return interviews.map((i) => refused.get(i.id) ?? i);
}

/** A new interview's id and whether it is live (nothing admitted yet). */
function newInterview(auth: AuthContext, body: Pick<CreateInterviewBody, "test_mode">): NewInterview {
	const testMode = body.test_mode || auth.keyEnvironment !== "live";
	return {
		id: newId("int"),
		testMode,
		live: isLive({ testMode, environment: auth.dataEnvironment }),
		debitId: newId("msg"),
	};
}

function liveAdmission(interview: NewInterview, now: number): LiveAdmission {
	return { interviewId: interview.id, debitId: interview.debitId, now };
}

/** Gives back a live interview's admission when the interview was not created. */
export async function releaseAdmission(env: Env, interview: NewInterview): Promise<void> {
	if (interview.live) await revokeAdmission(getDb(env.DB), interview.id, interview.debitId);
}

/**
 * Creates one interview: every check of `admitInterview`, then the interview itself as a seed
 * that its Durable Object adopts on first use (`plantInterviews`, src/interviews/creation/creation.ts).
 * With the request's `count` still pending, the rate-limit count, a live interview's admission
 * and the write are one call to the account's object (`RequestCount.withCreate`) instead of
 * three round trips.
 */
export async function createInterview(
	env: Env,
	auth: AuthContext,
	body: CreateInterviewBody,
	options: CreateOptions,
	count?: RequestCount,
): Promise<InterviewState> {
	const interview = count ? newInterview(auth, body) : await admitInterview(env, auth, body, options.now);
	const commit = count ? commitAtOnce(auth, interview, options.now, count) : undefined;
	try {
		const [state] = await plantInterviews(
			env,
			auth,
			[{ body, interview, options }],
			options.now,
			(i) => releaseAdmission(env, i),
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
 * is counted with the key read again and created the usual way with that key.
 */
function commitAtOnce(
	auth: AuthContext,
	interview: NewInterview,
	now: number,
	count: RequestCount,
): CommitCreation {
	return async (write) => {
		const admissions = interview.live ? [liveAdmission(interview, now)] : [];
		const outcome = await count.withCreate({ admissions: admissionRequests(auth, admissions), write });
		if (outcome.count.status === "stale") throw new KeyReread(outcome.auth);
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
	const at = parsedScheduledAt(value, now);
	checkScheduledAt(at, now);
	return at;
}

/** `scheduled_at` read, not yet judged against the time (absent: `now`). */
export function parsedScheduledAt(value: string | undefined, now: number): number {
	if (value === undefined) return now;
	const at = parseIsoDateTime(value);
	if (at === null) throw validationError({ scheduled_at: "Must be an ISO 8601 date-time with a time zone" });
	return at;
}

/** `scheduled_at` judged against the request's time: not past, at most 5 years ahead. */
export function checkScheduledAt(at: number, now: number): void {
	if (at < now) throw validationError({ scheduled_at: "Must not be in the past" });
	if (at > now + MAX_SCHEDULE_AHEAD_MS)
		throw validationError({ scheduled_at: "Must be at most 5 years ahead" });
}

/**
 * Runs an API command on the caller's interview and returns what it did. With the request's
 * `count` still pending, a cancel or update is counted, decided against the interview's seed and
 * written in one call to the account's object (`RequestCount.withChange`); a command the
 * interview's object runs is counted before it.
 */
export async function commandInterview(
	env: Env,
	auth: AuthContext,
	id: string,
	command: Command,
	now: number,
	count?: RequestCount,
): Promise<Extract<CommandResult, { status: "ok" }>> {
	// A cancel or update of an interview whose object was never opened is decided against its
	// seed row in D1 (null: no seed to decide against; the object decides, as before). A seed
	// exists only for a created interview, so finding one is the check that the id is known.
	let seeded: CommandResult | null = null;
	if (command.type === "cancel" || command.type === "update") {
		if (count?.pending) {
			const outcome = await count.withChange({ id, command, now, owner: owner(auth) });
			if (outcome.count.status === "stale") {
				// Counted now with the key read again: decided again with that key's scopes and account.
				assertScope(outcome.auth, command.type === "cancel" ? "interviews:delete" : "interviews:write");
				return commandInterview(env, outcome.auth, id, command, now);
			}
			if (outcome.error !== undefined) throw new Error(outcome.error);
			if (outcome.decided?.settlement) await settleSeedChange(env, outcome.decided.settlement);
			seeded = outcome.decided?.result ?? null;
		} else {
			seeded = await commandSeed(env, id, command, now, owner(auth));
		}
	}
	if (!seeded && !(await isKnownInterview(env, id))) throw notFound(id);
	if (!seeded) await count?.counted();
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
	if (!(await isKnownInterview(env, id))) throw notFound(id);
	const result = await interviewStub(env, id).testAdvance(to, now, owner(auth));
	if (result.status !== "ok") throw transitionError(id, result.error);
	return result.interview;
}
