import { describe, expect, it } from "vitest";
import { mockResults } from "../../../src/interviews/core/mock-results";
import type { InterviewState } from "../../../src/interviews/core/model";
import { type Effect, type Transition, transition } from "../../../src/interviews/core/state-machine";
import { advanceSteps } from "../../../src/interviews/core/transitions/test-advance";
import { interviewState } from "../../fixtures";

const T0 = 1_800_000_000_000;

function effectsOf(t: Transition): Effect["kind"][] {
	if (!t.ok) throw new Error(`refused: ${JSON.stringify(t.error)}`);
	return t.effects.map((e) => e.kind);
}

const cancel = { type: "cancel", reason: null, sendNotification: false, refundCredits: true } as const;
const finish = (state: InterviewState) =>
	({ type: "finish", reason: "test_helper", ...mockResults(state) }) as const;

describe("limit effects of the lifecycle", () => {
	it("releases the monthly count, and no slot, when a scheduled live interview nobody joined is cancelled", () => {
		const kinds = effectsOf(transition(interviewState(), cancel, T0));
		expect(kinds).toContain("release_quota");
		expect(kinds).not.toContain("release_slot");
	});

	it("releases both when a joined live interview waiting for a slot is cancelled", () => {
		const kinds = effectsOf(transition(interviewState({ joinedAt: T0 - 1 }), cancel, T0));
		expect(kinds).toEqual(expect.arrayContaining(["release_quota", "release_slot"]));
	});

	it("releases the slot, not the count, when an in-progress live interview is cancelled or completes", () => {
		const running = interviewState({ status: "in_progress", joinedAt: T0 - 10, startedAt: T0 - 5 });
		const cancelled = effectsOf(transition(running, { ...cancel, refundCredits: true }, T0));
		expect(cancelled).toContain("release_slot");
		expect(cancelled).not.toContain("release_quota");
		const completed = effectsOf(transition(running, finish(running), T0));
		expect(completed).toContain("release_slot");
		expect(completed).not.toContain("release_quota");
	});

	it("releases nothing for test-mode and dev interviews", () => {
		for (const state of [
			interviewState({ testMode: true, status: "in_progress", joinedAt: T0, startedAt: T0 }),
			interviewState({
				environment: "dev",
				testMode: true,
				status: "in_progress",
				joinedAt: T0,
				startedAt: T0,
			}),
		]) {
			const kinds = [
				...effectsOf(transition(state, cancel, T0)),
				...effectsOf(transition(state, finish(state), T0)),
			];
			expect(kinds.filter((k) => k.startsWith("release_"))).toEqual([]);
		}
	});
});

describe("the test helper's plan", () => {
	const test = (overrides: Partial<InterviewState> = {}) => interviewState({ testMode: true, ...overrides });

	it("runs the real steps in order for each target", () => {
		expect(advanceSteps(test(), "in_progress")).toEqual({ ok: true, steps: ["join", "start"] });
		expect(advanceSteps(test({ joinedAt: T0 }), "in_progress")).toEqual({ ok: true, steps: ["start"] });
		expect(advanceSteps(test(), "completed")).toEqual({
			ok: true,
			steps: ["join", "start", "finish", "analysis"],
		});
		expect(advanceSteps(test({ status: "in_progress", joinedAt: T0 }), "completed")).toEqual({
			ok: true,
			steps: ["finish", "analysis"],
		});
		expect(advanceSteps(test(), "no_show")).toEqual({ ok: true, steps: ["no_show"] });
	});

	it("does nothing for a state already reached and refuses one already passed", () => {
		expect(advanceSteps(test({ status: "in_progress" }), "in_progress")).toEqual({ ok: true, steps: [] });
		expect(advanceSteps(test({ noShowEmitted: true }), "no_show")).toEqual({ ok: true, steps: [] });
		expect(advanceSteps(test({ status: "completed", analyzedAt: T0 }), "completed")).toEqual({
			ok: true,
			steps: [],
		});
		for (const [state, to] of [
			[test({ status: "completed" }), "in_progress"],
			[test({ status: "cancelled" }), "completed"],
			[test({ joinedAt: T0 }), "no_show"],
		] as const) {
			const plan = advanceSteps(state, to);
			expect(plan.ok).toBe(false);
			if (!plan.ok) expect(plan.error.code).toBe("INVALID_OPERATION");
		}
	});

	it("refuses live interviews", () => {
		expect(advanceSteps(interviewState(), "completed")).toEqual({
			ok: false,
			error: { code: "NOT_TEST_MODE" },
		});
	});

	it("joins before the join window and declares the no-show before its time only when asked to", () => {
		const future = test({ scheduledAt: T0 + 86_400_000 });
		expect(transition(future, { type: "join" }, T0).ok).toBe(false);
		expect(transition(future, { type: "join", early: true }, T0).ok).toBe(true);
		expect(effectsOf(transition(future, { type: "no_show_timer" }, T0))).toEqual([]);
		expect(effectsOf(transition(future, { type: "no_show_timer", early: true }, T0))).toEqual(["event"]);
	});

	it("generates complete results, the same for the same interview", () => {
		const state = test({ skills: ["Go", "SQL"] });
		const a = mockResults(state);
		expect(mockResults(state)).toEqual(a);
		expect(a.results.skill_assessments.map((s) => s.skill)).toEqual(["Go", "SQL"]);
		for (const s of a.results.skill_assessments) {
			expect(s.score).toBeGreaterThanOrEqual(0);
			expect(s.score).toBeLessThanOrEqual(100);
		}
		expect(["hire", "maybe", "no_hire"]).toContain(a.results.recommendation);
		expect(mockResults({ ...state, id: "int_BBBBBBBBBBBBBBBBBBBBBBBB" })).not.toEqual(a);
	});
});
