import { admitOrRefuse, CREDITS_PER_INTERVIEW, isLiveCreation } from "../accounts/admission";
import type { AuthContext } from "../accounts/auth";
import { getDb } from "../db/client";
import { revokeAdmission } from "../db/quota-repo";
import type { Env } from "../env";
import { AppError, assertNever, validationError } from "../http/errors";
import { hasIdShape, newId, randomBase62 } from "../lib/random";
import { iso, parseIsoDateTime } from "../lib/time";
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
export async function loadOwnedInterview(env: Env, auth: AuthContext, id: string): Promise<InterviewState> {
	if (!hasIdShape(id, "int")) throw notFound(id);
	const state = await interviewStub(env, id).get();
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
 * creation both come through here (bulk item by item, in request order).
 */
export async function reserveInterview(
	env: Env,
	auth: AuthContext,
	body: Pick<CreateInterviewBody, "test_mode">,
	now: number,
): Promise<Reservation> {
	const id = newId("int");
	const testMode = body.test_mode || auth.keyEnvironment !== "live";
	const live = isLiveCreation(auth, testMode);
	const debitId = newId("msg");
	if (live) await admitOrRefuse(getDb(env.DB), auth, { interviewId: id, debitId, now });
	return { id, testMode, live, debitId };
}

/** Gives back what a reservation took when its interview was not created. */
export async function releaseReservation(env: Env, reservation: Reservation): Promise<void> {
	if (reservation.live) await revokeAdmission(getDb(env.DB), reservation.id, reservation.debitId);
}

/** Creates the reserved interview in its Durable Object; if that fails, the reservation is released. */
export async function materializeInterview(
	env: Env,
	auth: AuthContext,
	body: CreateInterviewBody,
	reservation: Reservation,
	options: CreateOptions,
): Promise<InterviewState> {
	const { id } = reservation;
	let result: CommandResult;
	try {
		result = await interviewStub(env, id).execute(
			{
				type: "create",
				id,
				accountId: auth.accountId,
				environment: auth.dataEnvironment,
				testMode: reservation.testMode,
				candidateEmail: body.candidate_email,
				candidateName: body.candidate_name ?? null,
				position: body.position,
				skills: body.skills,
				difficulty: body.difficulty,
				durationMinutes: body.duration_minutes,
				companyName: body.company_name ?? auth.companyName,
				instructions: body.instructions ?? null,
				...(options.job
					? { jobDescription: options.job.description, jobRequirements: options.job.requirements }
					: {}),
				scheduledAt: options.scheduledAt,
				joinToken: randomBase62(32),
				appUrl: options.appUrl,
				sendInvitation: body.send_invitation,
				creditsCharged: reservation.live ? CREDITS_PER_INTERVIEW : 0,
			},
			options.now,
		);
	} catch (error) {
		// Unless the object committed before the call failed, the interview was never created:
		// take back its monthly count and its debit.
		if (!(await existsAfterFailure(env, id))) await releaseReservation(env, reservation);
		throw error;
	}
	if (result.status !== "ok") {
		await releaseReservation(env, reservation);
		throw transitionError(id, result.error);
	}
	return result.interview;
}

async function existsAfterFailure(env: Env, id: string): Promise<boolean> {
	try {
		return (await interviewStub(env, id).get()) !== null;
	} catch {
		return false;
	}
}

/**
 * Creates one interview: every check of `reserveInterview`, then the interview's Durable Object.
 */
export async function createInterview(
	env: Env,
	auth: AuthContext,
	body: CreateInterviewBody,
	options: CreateOptions,
): Promise<InterviewState> {
	const reservation = await reserveInterview(env, auth, body, options.now);
	return materializeInterview(env, auth, body, reservation, options);
}

/** `scheduled_at` as epoch ms: now when omitted; a time before the request is refused. */
export function scheduledAtOf(value: string | undefined, now: number): number {
	if (value === undefined) return now;
	const at = parseIsoDateTime(value);
	if (at === null) throw validationError({ scheduled_at: "Must be an ISO 8601 date-time with a time zone" });
	if (at < now) throw validationError({ scheduled_at: "Must not be in the past" });
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
