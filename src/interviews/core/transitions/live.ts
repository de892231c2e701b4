import { iso, isoOrNull } from "../../../platform/lib/time";
import {
	ANALYSIS_DELAY_MS,
	bump,
	type Command,
	event,
	fail,
	isLive,
	JOIN_OPENS_BEFORE_MS,
	NO_SHOW_AFTER_MS,
	type Transition,
	unchanged,
} from "../commands";
import { mockTranscript } from "../mock-results";
import type { CompletionReason, InterviewState } from "../model";

function closed(state: InterviewState): Transition {
	return fail({
		code: "INVALID_OPERATION",
		status: state.status,
		details: {
			current_status: state.status,
			...(state.status === "completed"
				? { completed_at: isoOrNull(state.completedAt) }
				: { cancelled_at: isoOrNull(state.cancelledAt) }),
		},
	});
}

/**
 * The candidate's connection is the join (decisions.md): allowed from 15 minutes before the
 * scheduled time; the first one sets `joined_at`, emits `candidate.joined` and stops the no-show
 * timer. A later connection (a reload, a reconnection) changes nothing, whatever the time.
 */
export function join(state: InterviewState, now: number, early = false): Transition {
	if (state.status === "completed" || state.status === "cancelled") return closed(state);
	// A candidate who has joined comes back whenever: the interview may have started, or been
	// rescheduled while they waited for a slot; the window only guards the first join.
	if (state.joinedAt !== null) return unchanged(state);
	if (!early && now < state.scheduledAt - JOIN_OPENS_BEFORE_MS) {
		return fail({ code: "INTERVIEW_NOT_OPEN", opensAt: state.scheduledAt - JOIN_OPENS_BEFORE_MS });
	}
	const next = bump(state, now, { joinedAt: now });
	return {
		ok: true,
		state: next,
		effects: [
			event("candidate.joined", {
				interview_id: state.id,
				candidate: { email: state.candidateEmail, joined_at: iso(now) },
				scheduled_at: iso(state.scheduledAt),
				test_mode: state.testMode,
			}),
			{ kind: "timer", name: "no_show", dueAt: null },
		],
	};
}

/** A joined candidate's interview begins (at once, or when the account's concurrent slot frees). */
export function start(state: InterviewState, now: number): Transition {
	if (state.status === "in_progress") return unchanged(state);
	if (state.status !== "scheduled" || state.joinedAt === null) return closed(state);
	const next = bump(state, now, { status: "in_progress", startedAt: now });
	return {
		ok: true,
		state: next,
		effects: [
			event("interview.started", {
				id: state.id,
				candidate: { email: state.candidateEmail, joined_at: iso(state.joinedAt) },
				started_at: iso(now),
				test_mode: state.testMode,
			}),
			{ kind: "timer", name: "completion", dueAt: now + state.durationMinutes * 60_000 },
		],
	};
}

export function ask(state: InterviewState, cmd: Extract<Command, { type: "ask" }>, now: number): Transition {
	if (state.status !== "in_progress") return closed(state);
	if (state.currentQuestion !== null) {
		return fail({ code: "STALE_QUESTION", message: "The current question has not been answered yet." });
	}
	return {
		ok: true,
		state: bump(state, now, {
			currentQuestion: cmd.question,
			plan: cmd.plan === undefined ? state.plan : cmd.plan,
			transcript: [
				...state.transcript,
				{
					question: cmd.question,
					asked_at: now,
					answer: null,
					answered_at: null,
					score: null,
					planned: cmd.planned,
					assessment: null,
				},
			],
		}),
		effects: [],
	};
}

/**
 * Whether an answer is the last recorded one sent again: the same client `timestamp` and the same
 * text. A client that retries an event it got no acknowledgement for (the connection dropped
 * while the answer was being recorded) sends exactly that.
 */
export function isRepeatedAnswer(state: InterviewState, sentAt: string | null, response: string): boolean {
	if (sentAt === null || (state.lastAnswerSentAt ?? null) !== sentAt) return false;
	const last = state.transcript.findLast((entry) => entry.answer !== null);
	return last?.answer === response;
}

export function answer(
	state: InterviewState,
	cmd: Extract<Command, { type: "answer" }>,
	now: number,
): Transition {
	if (state.status !== "in_progress") return closed(state);
	if (isRepeatedAnswer(state, cmd.sentAt, cmd.response)) {
		return fail({ code: "STALE_QUESTION", message: "That answer has already been recorded." });
	}
	const current = state.currentQuestion;
	if (!current || current.id !== cmd.questionId) {
		const answered = state.transcript.some((e) => e.question.id === cmd.questionId && e.answer !== null);
		return fail({
			code: "STALE_QUESTION",
			message: answered ? "That question has already been answered." : "That is not the current question.",
		});
	}
	const transcript = state.transcript.map((entry, i) =>
		i === state.transcript.length - 1
			? { ...entry, answer: cmd.response, answered_at: now, score: cmd.score, assessment: cmd.assessment }
			: entry,
	);
	return {
		ok: true,
		state: bump(state, now, { transcript, currentQuestion: null, lastAnswerSentAt: cmd.sentAt }),
		effects: [],
	};
}

export function finish(
	state: InterviewState,
	cmd: Extract<Command, { type: "finish" }>,
	now: number,
): Transition {
	if (state.status === "completed") return unchanged(state);
	if (state.status !== "in_progress") return closed(state);
	const next = bump(state, now, {
		status: "completed",
		completedAt: now,
		completionReason: cmd.reason satisfies CompletionReason,
		currentQuestion: null,
		results: cmd.results,
		analytics: cmd.analytics,
		// The test helper's completion of an interview nobody answered: a sample transcript that
		// matches its mock results (docs/test-mode.md). Real answers are kept as they are.
		...(cmd.reason === "test_helper" && !state.transcript.some((entry) => entry.answer !== null)
			? { transcript: mockTranscript(state, cmd.results, now) }
			: {}),
	});
	const minutes = Math.max(1, Math.round((now - (state.startedAt ?? now)) / 60_000));
	return {
		ok: true,
		state: next,
		effects: [
			event("interview.completed", {
				id: state.id,
				completed_at: iso(now),
				duration_minutes: minutes,
				results: { overall_score: cmd.results.overall_score, recommendation: cmd.results.recommendation },
				completion_reason: cmd.reason,
				test_mode: state.testMode,
			}),
			{ kind: "timer", name: "completion", dueAt: null },
			{ kind: "timer", name: "analysis", dueAt: now + ANALYSIS_DELAY_MS },
			...(isLive(state) ? [{ kind: "release_slot" } as const] : []),
		],
	};
}

/** Fires at most once per scheduled time; a reschedule re-arms it (see update). */
export function noShow(state: InterviewState, now: number, early = false): Transition {
	const due = state.scheduledAt + NO_SHOW_AFTER_MS;
	if (
		state.status !== "scheduled" ||
		state.joinedAt !== null ||
		state.noShowEmitted ||
		(!early && now < due)
	) {
		return unchanged(state);
	}
	return {
		ok: true,
		state: bump(state, now, { noShowEmitted: true }),
		effects: [
			event("candidate.no_show", {
				interview_id: state.id,
				scheduled_at: iso(state.scheduledAt),
				timeout_at: iso(due),
				test_mode: state.testMode,
			}),
		],
	};
}

/** Publishes the results computed at completion: `results.analyzed`, then `analysis.ready`. */
export function analysisDone(state: InterviewState, now: number): Transition {
	if (state.status !== "completed" || state.analyzedAt !== null || !state.results) return unchanged(state);
	const r = state.results;
	const data = {
		interview_id: state.id,
		results: {
			overall_score: r.overall_score,
			technical_score: r.technical_score,
			communication_score: r.communication_score,
			recommendation: r.recommendation,
			strengths: r.strengths,
			areas_for_improvement: r.areas_for_improvement,
			// Additive (docs/interviewer.md): how sure the interviewer is and what a person should check.
			...(r.confidence === undefined ? {} : { confidence: r.confidence }),
			...(r.review_flags === undefined ? {} : { review_flags: r.review_flags }),
		},
		test_mode: state.testMode,
	};
	return {
		ok: true,
		state: bump(state, now, { analyzedAt: now }),
		effects: [event("results.analyzed", data), event("analysis.ready", data)],
	};
}
