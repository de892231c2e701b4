import { iso } from "../../../platform/lib/time";
import { type CreateCommand, type Effect, event, fail, NO_SHOW_AFTER_MS, type Transition } from "../commands";
import type { InterviewState } from "../model";

export function create(state: InterviewState | null, cmd: CreateCommand, now: number): Transition {
	if (state) return fail({ code: "ALREADY_EXISTS" });
	const next: InterviewState = {
		id: cmd.id,
		accountId: cmd.accountId,
		environment: cmd.environment,
		testMode: cmd.testMode,
		status: "scheduled",
		candidateEmail: cmd.candidateEmail,
		candidateName: cmd.candidateName,
		joinedAt: null,
		position: cmd.position,
		skills: cmd.skills,
		difficulty: cmd.difficulty,
		durationMinutes: cmd.durationMinutes,
		companyName: cmd.companyName,
		instructions: cmd.instructions,
		...(cmd.jobDescription == null ? {} : { jobDescription: cmd.jobDescription }),
		...(cmd.jobRequirements == null ? {} : { jobRequirements: cmd.jobRequirements }),
		scheduledAt: cmd.scheduledAt,
		startedAt: null,
		completedAt: null,
		cancelledAt: null,
		cancellationReason: null,
		joinToken: cmd.joinToken,
		appUrl: cmd.appUrl,
		noShowEmitted: false,
		creditsCharged: cmd.creditsCharged,
		creditsRefunded: 0,
		plan: null,
		currentQuestion: null,
		transcript: [],
		completionReason: null,
		results: null,
		analytics: null,
		analyzedAt: null,
		createdAt: now,
		updatedAt: now,
		version: 1,
	};
	const effects: Effect[] = [
		event("interview.scheduled", {
			id: next.id,
			candidate_email: next.candidateEmail,
			position: next.position,
			scheduled_at: iso(next.scheduledAt),
			test_mode: next.testMode,
		}),
		{ kind: "timer", name: "no_show", dueAt: next.scheduledAt + NO_SHOW_AFTER_MS },
	];
	if (cmd.sendInvitation && !cmd.testMode)
		effects.push({ kind: "notify", template: "invitation", reason: null });
	return { ok: true, state: next, effects };
}
