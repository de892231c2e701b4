import { iso, isoOrNull } from "../../../platform/lib/time";
import { bump, type CancelCommand, type Effect, event, fail, isLive, type Transition } from "../commands";
import type { InterviewState } from "../model";

export const REFUND_REASON = "Interview cancelled before it started";

/** DELETE rules by status (interface.md): cancel scheduled (refund, notify) or in progress (neither). */
export function cancel(state: InterviewState, cmd: CancelCommand, now: number): Transition {
	switch (state.status) {
		case "completed":
			return fail({
				code: "INVALID_OPERATION",
				status: state.status,
				details: { current_status: "completed", completed_at: isoOrNull(state.completedAt) },
			});
		case "cancelled":
			return fail({
				code: "INTERVIEW_ALREADY_CANCELLED",
				details: {
					cancelled_at: isoOrNull(state.cancelledAt),
					cancellation_reason: state.cancellationReason,
				},
			});
		case "scheduled":
		case "in_progress":
			break;
	}
	const wasScheduled = state.status === "scheduled";
	const refund = wasScheduled && cmd.refundCredits ? state.creditsCharged - state.creditsRefunded : 0;
	const next = bump(state, now, {
		status: "cancelled",
		cancelledAt: now,
		cancellationReason: cmd.reason,
		creditsRefunded: state.creditsRefunded + refund,
		currentQuestion: null,
	});
	const effects: Effect[] = [
		event("interview.cancelled", {
			id: state.id,
			cancelled_at: iso(now),
			reason: cmd.reason,
			previous_status: state.status,
			test_mode: state.testMode,
		}),
		{ kind: "timer", name: "no_show", dueAt: null },
		{ kind: "timer", name: "completion", dueAt: null },
	];
	if (refund > 0) {
		effects.push(
			{ kind: "refund", credits: refund, reason: REFUND_REASON },
			event("credits.refunded", {
				interview_id: state.id,
				credits_refunded: refund,
				refund_reason: REFUND_REASON,
				refunded_at: iso(now),
				test_mode: state.testMode,
			}),
		);
	}
	if (isLive(state)) {
		// A scheduled interview never happened: it leaves the month's count. A joined one waiting
		// for a slot, or one in progress, gives back its place.
		if (wasScheduled) effects.push({ kind: "release_quota" });
		if (!wasScheduled || state.joinedAt !== null) effects.push({ kind: "release_slot" });
	}
	if (wasScheduled && cmd.sendNotification && !state.testMode) {
		effects.push({ kind: "notify", template: "cancellation", reason: cmd.reason });
	}
	return { ok: true, state: next, effects };
}
