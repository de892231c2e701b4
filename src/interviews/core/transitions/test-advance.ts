import { isoOrNull } from "../../../platform/lib/time";
import type { Command, TransitionError } from "../commands";
import { mockResults } from "../mock-results";
import type { InterviewState } from "../model";

export const ADVANCE_TARGETS = ["in_progress", "completed", "no_show"] as const;
export type AdvanceTarget = (typeof ADVANCE_TARGETS)[number];

/** A step of the real lifecycle that the test helper runs, in order, through the state machine. */
export type AdvanceStep = "join" | "start" | "finish" | "analysis" | "no_show";

export type AdvancePlan = { ok: true; steps: AdvanceStep[] } | { ok: false; error: TransitionError };

function refuse(state: InterviewState): AdvancePlan {
	return {
		ok: false,
		error: {
			code: "INVALID_OPERATION",
			status: state.status,
			details: {
				current_status: state.status,
				joined_at: isoOrNull(state.joinedAt),
				started_at: isoOrNull(state.startedAt),
				completed_at: isoOrNull(state.completedAt),
				cancelled_at: isoOrNull(state.cancelledAt),
			},
		},
	};
}

/**
 * The steps that take a test-mode interview to `to` the way the real path would: the candidate
 * joins, the interview starts, finishes and is analysed; or the no-show time passes. Reaching a
 * state the interview is already in is a no-op; a state it has passed is refused.
 */
export function advanceSteps(state: InterviewState, to: AdvanceTarget): AdvancePlan {
	if (!state.testMode) return { ok: false, error: { code: "NOT_TEST_MODE" } };
	const joinAndStart: AdvanceStep[] = state.joinedAt === null ? ["join", "start"] : ["start"];
	switch (to) {
		case "in_progress":
			if (state.status === "scheduled") return { ok: true, steps: joinAndStart };
			if (state.status === "in_progress") return { ok: true, steps: [] };
			return refuse(state);
		case "completed":
			if (state.status === "scheduled") return { ok: true, steps: [...joinAndStart, "finish", "analysis"] };
			if (state.status === "in_progress") return { ok: true, steps: ["finish", "analysis"] };
			if (state.status === "completed")
				return { ok: true, steps: state.analyzedAt === null ? ["analysis"] : [] };
			return refuse(state);
		case "no_show":
			if (state.status !== "scheduled" || state.joinedAt !== null) return refuse(state);
			return { ok: true, steps: state.noShowEmitted ? [] : ["no_show"] };
	}
}

/** The state-machine command for a step, on the interview as it is when the step runs. */
export function advanceCommand(step: AdvanceStep, state: InterviewState): Command {
	switch (step) {
		case "join":
			return { type: "join", early: true };
		case "start":
			return { type: "start" };
		case "finish":
			return { type: "finish", reason: "test_helper", ...mockResults(state) };
		case "analysis":
			return { type: "analysis_timer" };
		case "no_show":
			return { type: "no_show_timer", early: true };
	}
}
