import type { AuthContext } from "../accounts/auth";
import { addLedgerEntryIfCovered, creditBalance, deleteLedgerEntry } from "../db/accounts-repo";
import { getDb } from "../db/client";
import type { Env } from "../env";
import { AppError, assertNever, validationError } from "../http/errors";
import { hasIdShape, newId, randomBase62 } from "../lib/random";
import { iso } from "../lib/time";
import type { CommandResult, Owner } from "./interview-object";
import type { CompletionReason, InterviewState } from "./model";
import type { CreateInterviewBody } from "./schemas";
import type { Command, TransitionError } from "./state-machine";

/** The interview object's RPC surface, typed plainly (its inferred stub type is too deep for tsc). */
export interface InterviewApi {
	get(): Promise<InterviewState | null>;
	execute(command: Command, now: number, owner?: Owner): Promise<CommandResult>;
	join(token: string, now: number): Promise<CommandResult>;
	answer(questionId: string, response: string, now: number): Promise<CommandResult>;
	finish(reason: CompletionReason, now: number): Promise<CommandResult>;
}

export function interviewStub(env: Env, id: string): InterviewApi {
	return env.INTERVIEW.get(env.INTERVIEW.idFromName(id)) as unknown as InterviewApi;
}

export function notFound(id: string): AppError {
	return new AppError("INTERVIEW_NOT_FOUND", `No interview with id '${id}' exists.`, { id });
}

function owner(auth: AuthContext): Owner {
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
		case "ALREADY_EXISTS":
			return new AppError("INTERNAL_ERROR", "The interview could not be created.");
		default:
			return assertNever(error);
	}
}

/** Live interviews cost one credit at creation; test and dev interviews cost nothing. */
function charges(auth: AuthContext, testMode: boolean): number {
	return !testMode && auth.dataEnvironment === "production" ? 1 : 0;
}

export async function createInterview(
	env: Env,
	auth: AuthContext,
	body: CreateInterviewBody,
	options: { scheduledAt: number; now: number; appUrl: string },
): Promise<InterviewState> {
	const id = newId("int");
	const testMode = body.test_mode || auth.keyEnvironment !== "live";
	const credits = charges(auth, testMode);
	const db = getDb(env.DB);
	const debitId = newId("msg");
	if (credits > 0) {
		const debited = await addLedgerEntryIfCovered(db, {
			id: debitId,
			accountId: auth.accountId,
			interviewId: id,
			kind: "debit",
			amount: -credits,
			createdAt: options.now,
		});
		if (!debited) {
			throw new AppError("INSUFFICIENT_CREDITS", "Not enough credits for a live interview.", {
				required: credits,
				available: await creditBalance(db, auth.accountId),
			});
		}
	}
	let result: CommandResult;
	try {
		result = await interviewStub(env, id).execute(
			{
				type: "create",
				id,
				accountId: auth.accountId,
				environment: auth.dataEnvironment,
				testMode,
				candidateEmail: body.candidate_email,
				candidateName: body.candidate_name ?? null,
				position: body.position,
				skills: body.skills,
				difficulty: body.difficulty,
				durationMinutes: body.duration_minutes,
				companyName: body.company_name ?? auth.companyName,
				instructions: body.instructions ?? null,
				scheduledAt: options.scheduledAt,
				joinToken: randomBase62(32),
				appUrl: options.appUrl,
				sendInvitation: body.send_invitation,
				creditsCharged: credits,
			},
			options.now,
		);
	} catch (error) {
		// The interview was never created: give the credit back by removing its debit.
		if (credits > 0) await deleteLedgerEntry(db, debitId);
		throw error;
	}
	if (result.status !== "ok") throw transitionError(id, result.error);
	return result.interview;
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
