import { describe, expect, it } from "vitest";
import type { InterviewState, Results } from "../../../src/interviews/core/model";
import {
	ANALYSIS_DELAY_MS,
	type Command,
	type CreateCommand,
	type Effect,
	NO_SHOW_AFTER_MS,
	type Transition,
	transition,
	type UpdateChanges,
} from "../../../src/interviews/core/state-machine";
import { projectionChanged } from "../../../src/interviews/db/interviews-repo";

const T0 = 1_800_000_000_000;
const results: Results = {
	overall_score: 80,
	technical_score: 82,
	communication_score: 78,
	skill_assessments: [{ skill: "SQL", score: 80, level: "proficient" }],
	strengths: ["Clear"],
	areas_for_improvement: ["Depth"],
	recommendation: "hire",
};
const analytics = {
	engagement_level: "high" as const,
	response_times: { average_seconds: 30, fastest_seconds: 10, slowest_seconds: 50 },
	question_difficulty_progression: [],
};

function ok(t: Transition) {
	if (!t.ok) throw new Error(`expected success, got ${JSON.stringify(t.error)}`);
	return t;
}
function err(t: Transition) {
	if (t.ok) throw new Error("expected a refusal");
	return t.error;
}
const events = (effects: Effect[]) => effects.flatMap((e) => (e.kind === "event" ? [e.type] : []));
const has = (effects: Effect[], kind: Effect["kind"]) => effects.some((e) => e.kind === kind);

function createCommand(overrides: Partial<CreateCommand> = {}): CreateCommand {
	return {
		type: "create",
		id: "int_AAAAAAAAAAAAAAAAAAAAAAAA",
		accountId: "acc_1",
		environment: "production",
		testMode: false,
		candidateEmail: "ada@example.com",
		candidateName: null,
		position: "Engineer",
		skills: ["SQL"],
		difficulty: "senior",
		durationMinutes: 30,
		companyName: "Acme",
		instructions: "Be kind",
		scheduledAt: T0 + 3_600_000,
		joinToken: "tok",
		appUrl: "https://app",
		sendInvitation: true,
		creditsCharged: 1,
		...overrides,
	};
}

/** Each state reached through the machine's own transitions. */
function scheduled(overrides: Partial<CreateCommand> = {}): InterviewState {
	return ok(transition(null, createCommand(overrides), T0)).state;
}
function inProgress(): InterviewState {
	const s = scheduled({ scheduledAt: T0 });
	const joined = ok(transition(s, { type: "join" }, T0 + 1000)).state;
	return ok(transition(joined, { type: "start" }, T0 + 1000)).state;
}
function completed(): InterviewState {
	return ok(
		transition(inProgress(), { type: "finish", reason: "candidate_ended", results, analytics }, T0 + 600_000),
	).state;
}
function cancelled(): InterviewState {
	return ok(
		transition(
			scheduled(),
			{ type: "cancel", reason: "Filled", sendNotification: true, refundCredits: true },
			T0 + 10,
		),
	).state;
}
const cancel = (over: Partial<Extract<Command, { type: "cancel" }>> = {}): Command => ({
	type: "cancel",
	reason: "Position filled",
	sendNotification: true,
	refundCredits: true,
	...over,
});
const patch = (
	changes: UpdateChanges,
	over: Partial<Extract<Command, { type: "update" }>> = {},
): Command => ({
	type: "update",
	changes,
	sendNotification: true,
	rescheduleReason: null,
	newJoinToken: "newtok",
	...over,
});

describe("create", () => {
	it("schedules the interview, emits interview.scheduled, arms the no-show timer and invites the candidate", () => {
		const t = ok(transition(null, createCommand(), T0));
		expect(t.state).toMatchObject({ status: "scheduled", version: 1, createdAt: T0 });
		expect(events(t.effects)).toEqual(["interview.scheduled"]);
		expect(t.effects).toContainEqual({
			kind: "timer",
			name: "no_show",
			dueAt: T0 + 3_600_000 + NO_SHOW_AFTER_MS,
		});
		expect(t.effects).toContainEqual({ kind: "notify", template: "invitation", reason: null });
	});

	it("sends no invitation when asked not to, or in test mode", () => {
		expect(has(ok(transition(null, createCommand({ sendInvitation: false }), T0)).effects, "notify")).toBe(
			false,
		);
		expect(has(ok(transition(null, createCommand({ testMode: true }), T0)).effects, "notify")).toBe(false);
	});

	it("refuses to create twice", () => {
		expect(err(transition(scheduled(), createCommand(), T0))).toEqual({ code: "ALREADY_EXISTS" });
	});
});

describe("join and start", () => {
	it("joins once, emitting candidate.joined and stopping the no-show timer; a second join changes nothing", () => {
		const s = scheduled({ scheduledAt: T0 });
		const joined = ok(transition(s, { type: "join" }, T0 + 5));
		expect(joined.state.joinedAt).toBe(T0 + 5);
		expect(events(joined.effects)).toEqual(["candidate.joined"]);
		expect(joined.effects).toContainEqual({ kind: "timer", name: "no_show", dueAt: null });
		const again = ok(transition(joined.state, { type: "join" }, T0 + 10));
		expect(again.state).toBe(joined.state);
		expect(again.effects).toEqual([]);
	});

	it("opens 15 minutes before the scheduled time", () => {
		const s = scheduled({ scheduledAt: T0 + 3_600_000 });
		expect(err(transition(s, { type: "join" }, T0))).toEqual({
			code: "INTERVIEW_NOT_OPEN",
			opensAt: T0 + 2_700_000,
		});
		expect(ok(transition(s, { type: "join" }, T0 + 2_700_000)).state.joinedAt).toBe(T0 + 2_700_000);
	});

	it("lets a joined candidate back in whatever the time: rescheduled while waiting, or started since", () => {
		const joined = ok(transition(scheduled({ scheduledAt: T0 }), { type: "join" }, T0)).state;
		const moved = { ...joined, scheduledAt: T0 + 2 * 86_400_000 };
		const back = ok(transition(moved, { type: "join" }, T0 + 60_000));
		expect(back.state).toBe(moved);
		expect(back.effects).toEqual([]);
		const started = ok(transition(moved, { type: "start" }, T0 + 120_000)).state;
		expect(ok(transition(started, { type: "join" }, T0 + 180_000)).state).toBe(started);
	});

	it("starts a joined interview: in_progress, interview.started, completion timer at the duration", () => {
		const joined = ok(transition(scheduled({ scheduledAt: T0 }), { type: "join" }, T0)).state;
		const t = ok(transition(joined, { type: "start" }, T0 + 100));
		expect(t.state).toMatchObject({ status: "in_progress", startedAt: T0 + 100 });
		expect(events(t.effects)).toEqual(["interview.started"]);
		expect(t.effects).toContainEqual({ kind: "timer", name: "completion", dueAt: T0 + 100 + 30 * 60_000 });
	});

	it("refuses joins to cancelled and completed interviews", () => {
		expect(err(transition(cancelled(), { type: "join" }, T0))).toMatchObject({ code: "INVALID_OPERATION" });
		expect(err(transition(completed(), { type: "join" }, T0))).toMatchObject({ code: "INVALID_OPERATION" });
	});
});

const question = {
	id: "q1",
	text: "Explain joins",
	skill: "SQL",
	difficulty: "senior" as const,
	index: 0,
	total: 3,
};

describe("questions and answers", () => {
	it("records an answer to the current question only, once", () => {
		const asked = ok(transition(inProgress(), { type: "ask", question, planned: null }, T0 + 2000)).state;
		expect(asked.currentQuestion).toEqual(question);
		const answer: Command = {
			type: "answer",
			questionId: "q1",
			response: "Inner and outer",
			sentAt: null,
			score: 70,
			assessment: null,
		};
		const answered = ok(transition(asked, answer, T0 + 5000)).state;
		expect(answered.transcript).toEqual([
			{
				question,
				asked_at: T0 + 2000,
				answer: "Inner and outer",
				answered_at: T0 + 5000,
				score: 70,
				planned: null,
				assessment: null,
			},
		]);
		expect(err(transition(answered, answer, T0 + 6000))).toEqual({
			code: "STALE_QUESTION",
			message: "That question has already been answered.",
		});
		expect(err(transition(asked, { ...answer, questionId: "q9" } as Command, T0))).toMatchObject({
			code: "STALE_QUESTION",
		});
	});
});

describe("an answer sent again", () => {
	const second = { ...question, id: "q2", text: "Explain indexes", index: 1 };
	const sentAt = "2026-11-27T10:00:00.000Z";
	const answerTo = (questionId: string, response: string, at: string | null): Command => ({
		type: "answer",
		questionId,
		response,
		sentAt: at,
		score: 50,
		assessment: null,
	});
	const askedSecond = () => {
		const asked = ok(transition(inProgress(), { type: "ask", question, planned: null }, T0 + 2000)).state;
		const answered = ok(transition(asked, answerTo("q1", "I don't know", sentAt), T0 + 3000)).state;
		expect(answered.lastAnswerSentAt).toBe(sentAt);
		return ok(transition(answered, { type: "ask", question: second, planned: null }, T0 + 4000)).state;
	};

	it("is refused when it names the next question (a retry after a reconnect), and nothing is recorded", () => {
		const state = askedSecond();
		expect(err(transition(state, answerTo("q2", "I don't know", sentAt), T0 + 5000))).toEqual({
			code: "STALE_QUESTION",
			message: "That answer has already been recorded.",
		});
	});

	it("is recorded when its text or its timestamp differs: the same words sent anew are an answer", () => {
		const state = askedSecond();
		const sameWords = ok(
			transition(state, answerTo("q2", "I don't know", "2026-11-27T10:00:05.000Z"), T0 + 5000),
		);
		expect(sameWords.state.transcript.at(-1)?.answer).toBe("I don't know");
		const otherWords = ok(transition(state, answerTo("q2", "A B-tree", sentAt), T0 + 5000));
		expect(otherWords.state.transcript.at(-1)?.answer).toBe("A B-tree");
		const noTimestamp = ok(transition(state, answerTo("q2", "I don't know", null), T0 + 5000));
		expect(noTimestamp.state.transcript.at(-1)?.answer).toBe("I don't know");
	});
});

describe("finish and analysis", () => {
	it("completes with interview.completed, then publishes results.analyzed and analysis.ready once", () => {
		const t = ok(
			transition(
				inProgress(),
				{ type: "finish", reason: "questions_answered", results, analytics },
				T0 + 600_000,
			),
		);
		expect(t.state).toMatchObject({ status: "completed", completedAt: T0 + 600_000, analyzedAt: null });
		expect(events(t.effects)).toEqual(["interview.completed"]);
		expect(t.effects).toContainEqual({
			kind: "timer",
			name: "analysis",
			dueAt: T0 + 600_000 + ANALYSIS_DELAY_MS,
		});
		const analyzed = ok(transition(t.state, { type: "analysis_timer" }, T0 + 603_000));
		expect(events(analyzed.effects)).toEqual(["results.analyzed", "analysis.ready"]);
		expect(ok(transition(analyzed.state, { type: "analysis_timer" }, T0 + 604_000)).effects).toEqual([]);
	});

	it("finishing twice changes nothing; a scheduled interview cannot finish", () => {
		const done = completed();
		expect(
			ok(transition(done, { type: "finish", reason: "duration_elapsed", results, analytics }, T0)).state,
		).toBe(done);
		expect(
			err(transition(scheduled(), { type: "finish", reason: "candidate_ended", results, analytics }, T0)),
		).toMatchObject({
			code: "INVALID_OPERATION",
		});
	});
});

describe("cancel (the DELETE table)", () => {
	it("scheduled: cancels, refunds the credit, notifies the candidate", () => {
		const t = ok(transition(scheduled(), cancel(), T0 + 50));
		expect(t.state).toMatchObject({
			status: "cancelled",
			cancelledAt: T0 + 50,
			cancellationReason: "Position filled",
			creditsRefunded: 1,
		});
		expect(events(t.effects)).toEqual(["interview.cancelled", "credits.refunded"]);
		expect(t.effects).toContainEqual({ kind: "refund", credits: 1, reason: expect.any(String) });
		expect(t.effects).toContainEqual({ kind: "notify", template: "cancellation", reason: "Position filled" });
	});

	it("scheduled with refund_credits=false or send_notification=false leaves those out", () => {
		const noRefund = ok(transition(scheduled(), cancel({ refundCredits: false }), T0));
		expect(has(noRefund.effects, "refund")).toBe(false);
		expect(events(noRefund.effects)).toEqual(["interview.cancelled"]);
		expect(has(ok(transition(scheduled(), cancel({ sendNotification: false }), T0)).effects, "notify")).toBe(
			false,
		);
	});

	it("scheduled test interview: nothing to refund, nobody to notify", () => {
		const t = ok(transition(scheduled({ testMode: true, creditsCharged: 0 }), cancel(), T0));
		expect(has(t.effects, "refund")).toBe(false);
		expect(has(t.effects, "notify")).toBe(false);
	});

	it("in progress: cancels without refund or notification", () => {
		const t = ok(transition(inProgress(), cancel(), T0 + 5000));
		expect(t.state.status).toBe("cancelled");
		expect(events(t.effects)).toEqual(["interview.cancelled"]);
		expect(has(t.effects, "refund") || has(t.effects, "notify")).toBe(false);
	});

	it("completed: refused with INVALID_OPERATION", () => {
		expect(err(transition(completed(), cancel(), T0))).toEqual({
			code: "INVALID_OPERATION",
			status: "completed",
			details: { current_status: "completed", completed_at: new Date(T0 + 600_000).toISOString() },
		});
	});

	it("cancelled: refused with INTERVIEW_ALREADY_CANCELLED and when and why", () => {
		expect(err(transition(cancelled(), cancel(), T0))).toEqual({
			code: "INTERVIEW_ALREADY_CANCELLED",
			details: { cancelled_at: new Date(T0 + 10).toISOString(), cancellation_reason: "Filled" },
		});
	});
});

const allFields: [keyof UpdateChanges, UpdateChanges][] = [
	["scheduled_at", { scheduled_at: T0 + 7_200_000 }],
	["candidate_email", { candidate_email: "grace@example.com" }],
	["position", { position: "Staff Engineer" }],
	["skills", { skills: ["Go"] }],
	["duration_minutes", { duration_minutes: 60 }],
	["difficulty", { difficulty: "expert" }],
	["instructions", { instructions: "Be kind. Ask about testing." }],
	["company_name", { company_name: "Globex" }],
];

describe("update (the PATCH table)", () => {
	it.each(allFields)("scheduled: %s is allowed, emits interview.updated and notifies", (field, changes) => {
		const t = ok(transition(scheduled(), patch(changes), T0 + 100));
		expect(t.state.version).toBe(2);
		const updated = t.effects.find((e) => e.kind === "event" && e.type === "interview.updated");
		expect(updated).toMatchObject({ data: { updated_fields: [field] } });
		expect(events(t.effects).includes("interview.rescheduled")).toBe(field === "scheduled_at");
		const notices = t.effects.filter((e) => e.kind === "notify");
		if (field === "candidate_email") {
			const s = scheduled();
			// The replaced address's link is withdrawn (with its own link), the new one invited.
			expect(notices).toEqual([
				{
					kind: "notify",
					template: "cancellation",
					reason: null,
					replaced: s,
				},
				{ kind: "notify", template: "invitation", reason: null },
			]);
			expect(t.state.joinToken).not.toBe(s.joinToken);
		} else {
			expect(notices).toEqual([{ kind: "notify", template: "update", reason: null }]);
		}
	});

	it.each(allFields.filter(([f]) => f !== "company_name" && f !== "instructions"))(
		"in progress: %s is rejected with INTERVIEW_IN_PROGRESS",
		(field, changes) => {
			const e = err(transition(inProgress(), patch(changes), T0 + 2000));
			expect(e).toMatchObject({
				code: "INTERVIEW_IN_PROGRESS",
				details: {
					current_status: "in_progress",
					started_at: new Date(T0 + 1000).toISOString(),
					allowed_updates: ["company_name", "instructions"],
					rejected_fields: [field],
				},
			});
		},
	);

	it("in progress: company_name is allowed, without a candidate notice", () => {
		const t = ok(transition(inProgress(), patch({ company_name: "Globex" }), T0 + 2000));
		expect(t.state.companyName).toBe("Globex");
		expect(has(t.effects, "notify")).toBe(false);
	});

	it("in progress: instructions may be extended but not rewritten (the 'limited' rule)", () => {
		const extended = ok(
			transition(inProgress(), patch({ instructions: "Be kind. Also probe indexing." }), T0 + 2000),
		);
		expect(extended.state.instructions).toBe("Be kind. Also probe indexing.");
		expect(err(transition(inProgress(), patch({ instructions: "Be harsh" }), T0 + 2000))).toMatchObject({
			code: "INTERVIEW_IN_PROGRESS",
			details: { rejected_fields: ["instructions"] },
		});
	});

	it.each(allFields)(
		"completed: %s is rejected with INVALID_OPERATION and no allowed updates",
		(_field, changes) => {
			expect(err(transition(completed(), patch(changes), T0))).toEqual({
				code: "INVALID_OPERATION",
				status: "completed",
				details: {
					current_status: "completed",
					completed_at: new Date(T0 + 600_000).toISOString(),
					allowed_updates: [],
				},
			});
		},
	);

	it("cancelled: every update is refused with INVALID_OPERATION", () => {
		expect(err(transition(cancelled(), patch({ company_name: "X" }), T0))).toMatchObject({
			code: "INVALID_OPERATION",
			details: { current_status: "cancelled", allowed_updates: [] },
		});
	});

	it("refuses a new time in the past", () => {
		expect(err(transition(scheduled(), patch({ scheduled_at: T0 - 1 }), T0))).toEqual({
			code: "VALIDATION_ERROR",
			fields: { scheduled_at: "Must not be in the past" },
		});
	});

	it("changes nothing and says nothing when every value is already current", () => {
		const s = scheduled();
		const t = ok(transition(s, patch({ position: "Engineer", skills: ["SQL"] }), T0));
		expect(t.state).toBe(s);
		expect(t.effects).toEqual([]);
	});

	it("rescheduling re-arms the no-show timer and lets it fire again", () => {
		const s = scheduled({ scheduledAt: T0 });
		const fired = ok(transition(s, { type: "no_show_timer" }, T0 + NO_SHOW_AFTER_MS)).state;
		expect(fired.noShowEmitted).toBe(true);
		const moved = ok(
			transition(
				fired,
				patch({ scheduled_at: T0 + 86_400_000 }, { rescheduleReason: "Sick" }),
				T0 + NO_SHOW_AFTER_MS,
			),
		);
		expect(moved.state.noShowEmitted).toBe(false);
		expect(moved.effects).toContainEqual({
			kind: "timer",
			name: "no_show",
			dueAt: T0 + 86_400_000 + NO_SHOW_AFTER_MS,
		});
		expect(moved.effects).toContainEqual({ kind: "notify", template: "update", reason: "Sick" });
	});

	it("a new candidate e-mail gets a new join token; send_notification=false sends nothing; test mode sends nothing", () => {
		expect(
			ok(transition(scheduled(), patch({ candidate_email: "new@example.com" }), T0)).state.joinToken,
		).toBe("newtok");
		expect(ok(transition(scheduled(), patch({ position: "X" }), T0)).state.joinToken).toBe("tok");
		expect(
			has(
				ok(transition(scheduled(), patch({ position: "X" }, { sendNotification: false }), T0)).effects,
				"notify",
			),
		).toBe(false);
		expect(
			has(ok(transition(scheduled({ testMode: true }), patch({ position: "X" }), T0)).effects, "notify"),
		).toBe(false);
	});

	it("a new candidate e-mail undoes the old candidate's join and runs the no-show timer again while it is ahead", () => {
		const joined = ok(transition(scheduled({ scheduledAt: T0 }), { type: "join" }, T0 - 60_000)).state;
		const timers = (t: Transition) => ok(t).effects.filter((e) => e.kind === "timer");
		const before = transition(joined, patch({ candidate_email: "new@example.com" }), T0 + 1_000);
		expect(ok(before).state.joinedAt).toBeNull();
		expect(timers(before)).toEqual([{ kind: "timer", name: "no_show", dueAt: T0 + NO_SHOW_AFTER_MS }]);
		// Past the no-show time: no timer that would fire at once.
		const late = transition(joined, patch({ candidate_email: "new@example.com" }), T0 + NO_SHOW_AFTER_MS + 1);
		expect(ok(late).state.joinedAt).toBeNull();
		expect(timers(late)).toEqual([]);
		// Any other change keeps the join.
		expect(ok(transition(joined, patch({ position: "X" }), T0 + 1_000)).state.joinedAt).toBe(T0 - 60_000);
	});
});

describe("the no-show timer", () => {
	it("emits candidate.no_show once, only when due and only if nobody joined", () => {
		const s = scheduled({ scheduledAt: T0 });
		expect(ok(transition(s, { type: "no_show_timer" }, T0 + NO_SHOW_AFTER_MS - 1)).effects).toEqual([]);
		const first = ok(transition(s, { type: "no_show_timer" }, T0 + NO_SHOW_AFTER_MS));
		expect(first.state.status).toBe("scheduled");
		expect(first.effects).toEqual([
			{
				kind: "event",
				type: "candidate.no_show",
				data: {
					interview_id: s.id,
					scheduled_at: new Date(T0).toISOString(),
					timeout_at: new Date(T0 + NO_SHOW_AFTER_MS).toISOString(),
					test_mode: false,
				},
			},
		]);
		expect(ok(transition(first.state, { type: "no_show_timer" }, T0 + NO_SHOW_AFTER_MS + 5)).effects).toEqual(
			[],
		);
		const joined = ok(transition(s, { type: "join" }, T0)).state;
		expect(ok(transition(joined, { type: "no_show_timer" }, T0 + NO_SHOW_AFTER_MS)).effects).toEqual([]);
	});
});

describe("what the D1 projection shows", () => {
	it("does not change with the room's own steps: a question asked, an answer recorded", () => {
		const started = inProgress();
		const asked = ok(transition(started, { type: "ask", question, planned: null }, T0 + 2000)).state;
		const answer: Command = {
			type: "answer",
			questionId: "q1",
			response: "Inner",
			sentAt: null,
			score: 70,
			assessment: null,
		};
		const answered = ok(transition(asked, answer, T0 + 5000)).state;
		expect(asked.version).toBeGreaterThan(started.version);
		expect(projectionChanged(started, asked)).toBe(false);
		expect(projectionChanged(asked, answered)).toBe(false);
	});

	it("changes with every shown field: status, schedule, position, skills, results, and a first state", () => {
		const s = scheduled();
		expect(projectionChanged(null, s)).toBe(true);
		expect(projectionChanged(s, inProgress())).toBe(true);
		expect(projectionChanged(s, ok(transition(s, patch({ position: "Staff" }), T0 + 5)).state)).toBe(true);
		expect(projectionChanged(s, ok(transition(s, patch({ skills: ["SQL", "Go"] }), T0 + 5)).state)).toBe(
			true,
		);
		expect(projectionChanged(s, ok(transition(s, patch({ skills: ["Go"] }), T0 + 5)).state)).toBe(true);
		expect(
			projectionChanged(s, ok(transition(s, patch({ scheduled_at: T0 + 7_200_000 }), T0 + 5)).state),
		).toBe(true);
		const done = completed();
		const analyzed = ok(transition(done, { type: "analysis_timer" }, T0 + 700_000)).state;
		expect(projectionChanged(done, analyzed)).toBe(true);
	});
});
