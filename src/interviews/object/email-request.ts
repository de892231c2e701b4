import type { CandidateEmailRequest, CandidateEmailTemplate } from "../../email/model";
import type { InterviewState } from "../core/model";

/**
 * The calendar SEQUENCE of a notice about `state`: the interview's version counts every committed
 * change, so later notices always carry a higher number (RFC 5546 needs it to grow, not to be
 * consecutive), and no separate counter has to be kept.
 */
export function calendarSequence(state: Pick<InterviewState, "version">): number {
	return Math.max(0, state.version - 1);
}

/** Builds the `queueCandidateEmail` request for a notice about the interview as committed. */
export function candidateEmailRequest(
	state: InterviewState,
	notice: {
		messageId: string;
		template: CandidateEmailTemplate;
		interviewUrl: string;
		reason?: string | null;
		/** A withdrawal sent to the address an update replaced. */
		addressReplaced?: boolean;
	},
): CandidateEmailRequest {
	return {
		messageId: notice.messageId,
		interviewId: state.id,
		accountId: state.accountId,
		environment: state.environment,
		testMode: state.testMode,
		template: notice.template,
		to: state.candidateEmail,
		candidateName: state.candidateName,
		companyName: state.companyName,
		position: state.position,
		skills: state.skills,
		scheduledAt: state.scheduledAt,
		durationMinutes: state.durationMinutes,
		interviewUrl: notice.interviewUrl,
		sequence: calendarSequence(state),
		reason: notice.reason ?? null,
		calendarGeneration: state.addressChanges ?? 0,
		...(notice.addressReplaced ? { addressReplaced: true } : {}),
	};
}
