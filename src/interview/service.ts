import type { AuthContext } from "../accounts/auth";
import type { Env } from "../env";
import { AppError } from "../http/errors";
import { hasIdShape, newId, randomBase62 } from "../lib/random";
import type { InterviewState } from "./model";
import type { CreateInterviewBody } from "./schemas";

export function interviewStub(env: Env, id: string) {
	return env.INTERVIEW.get(env.INTERVIEW.idFromName(id));
}

export function notFound(id: string): AppError {
	return new AppError("INTERVIEW_NOT_FOUND", `No interview with id '${id}' exists.`, { id });
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

export async function createInterview(
	env: Env,
	auth: AuthContext,
	body: CreateInterviewBody,
	scheduledAt: number,
	now: number,
): Promise<InterviewState> {
	const id = newId("int");
	const result = await interviewStub(env, id).execute(
		{
			type: "create",
			id,
			accountId: auth.accountId,
			environment: auth.dataEnvironment,
			testMode: body.test_mode || auth.keyEnvironment !== "live",
			candidateEmail: body.candidate_email,
			candidateName: body.candidate_name ?? null,
			position: body.position,
			skills: body.skills,
			difficulty: body.difficulty,
			durationMinutes: body.duration_minutes,
			companyName: body.company_name ?? auth.companyName,
			instructions: body.instructions ?? null,
			scheduledAt,
			joinToken: randomBase62(32),
			sendInvitation: body.send_invitation,
		},
		now,
	);
	if (result.status !== "ok") {
		throw new AppError("INTERNAL_ERROR", "The interview could not be created.", undefined);
	}
	return result.interview;
}
