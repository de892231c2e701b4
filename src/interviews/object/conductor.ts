import {
	type Assessment,
	type HistoryEntry,
	type InterviewContext,
	type Interviewer,
	type InterviewPlan,
	publicQuestion,
} from "../../interviewer";
import type { CompletionReason, InterviewState } from "../core/model";
import { type Command, type Effect, isRepeatedAnswer, transition } from "../core/state-machine";
import { roomView } from "../room/view";
import { type CommandResult, notFound, okResult } from "./command-result";
import type { OutboxEngine } from "./outbox-engine";
import type { RoomHub } from "./room-hub";
import type { Timers } from "./timers";

export interface ConductorDeps {
	interviewer: Interviewer;
	timers: Timers;
	outbox: OutboxEngine;
	room: RoomHub;
	state(): InterviewState | null;
	/** Runs a command through the state machine and commits it (the object's `run`). */
	run(command: Command, now: number, options?: { flush?: boolean }): Promise<CommandResult>;
	/** Commits a state and its effects in one transaction, without broadcasting (the object's `commit`). */
	commit(next: InterviewState, effects: Effect[], now: number): void;
}

/**
 * The interviewer's side of a live interview: scores the candidate's answers, asks the next
 * question from the plan, completes the interview when none is left or it ends, and carries the
 * candidate's steps out one after another.
 */
export class Conductor {
	/** The candidate's step being carried out (`inTurn`). */
	private candidateTurn: Promise<unknown> = Promise.resolve();
	private advancing: Promise<void> | null = null;

	constructor(private readonly deps: ConductorDeps) {}

	/** The candidate's answer to the current question: scored, recorded, then the next question. */
	async answer(
		questionId: string,
		response: string,
		sentAt: string | null,
		now: number,
	): Promise<CommandResult> {
		const { deps } = this;
		const state = deps.state();
		const entry = state?.transcript.at(-1);
		if (
			state?.status !== "in_progress" ||
			state.currentQuestion?.id !== questionId ||
			!entry?.planned ||
			isRepeatedAnswer(state, sentAt, response)
		) {
			// Decided by the transition as it stands, without scoring: a refusal (it says why), or a
			// question the interviewer did not plan.
			return deps.run({ type: "answer", questionId, response, sentAt, score: null, assessment: null }, now);
		}
		const seconds = Math.max(0, (now - entry.asked_at) / 1000);
		const score = await deps.interviewer.scoreAnswer(entry.planned, response, seconds);
		const command: Command = {
			type: "answer",
			questionId,
			response,
			sentAt,
			score: score.score,
			assessment: score,
		};
		if (await this.answerAndAsk(command, now)) return this.current();
		// The answer's outbox goes to D1 with the next question's, after that question is sent: the
		// candidate does not wait for D1, and one batch carries both.
		const result = await deps.run(command, now, { flush: false });
		if (result.status !== "ok") return result;
		try {
			await this.advance(now);
		} finally {
			await deps.outbox.flush();
		}
		return this.current();
	}

	/** Ends an in-progress interview: results are computed now and published by the analysis timer. */
	async finish(reason: CompletionReason, now: number): Promise<CommandResult> {
		const state = this.deps.state();
		if (!state) return notFound();
		const { results, analytics } = await assessmentOf(state, this.deps.interviewer);
		return this.deps.run({ type: "finish", reason, results, analytics }, now);
	}

	/** Asks the next question when none is open, or completes the interview when none is left. */
	async advance(now: number): Promise<void> {
		while (this.advancing) await this.advancing;
		const state = this.deps.state();
		if (state?.status !== "in_progress" || state.currentQuestion) return;
		this.advancing = (async () => {
			const ask = await this.nextAsk(state);
			if (ask) await this.deps.run(ask, now);
			else await this.finish("questions_answered", now);
		})().finally(() => {
			this.advancing = null;
		});
		await this.advancing;
	}

	/**
	 * Runs the candidate's steps one after another, in the order they arrived: an answer still
	 * being scored (a model call is real I/O) is recorded before a later `end_interview`, or the
	 * end of the duration, closes the interview.
	 */
	inTurn<T>(work: () => Promise<T>): Promise<T> {
		const turn = this.candidateTurn.then(work);
		this.candidateTurn = turn.catch(() => undefined);
		return turn;
	}

	/**
	 * The usual answer in one commit: the answer and the next question are committed together and
	 * the room gets one update and the question. False (nothing done) when the answer is refused,
	 * ends the interview, or the state moved while the next question was chosen: the caller then
	 * goes step by step.
	 */
	private async answerAndAsk(command: Command, now: number): Promise<boolean> {
		const { deps } = this;
		const before = deps.state();
		const answered = transition(before, command, now);
		if (!answered.ok || this.advancing || answered.state.status !== "in_progress") return false;
		const ask = await this.nextAsk(answered.state);
		if (!ask || deps.state() !== before) return false;
		const asked = transition(answered.state, ask, now);
		if (!asked.ok) return false;
		const effects = [...answered.effects, ...asked.effects];
		deps.commit(asked.state, effects, now);
		deps.room.broadcast(
			{ type: "interview_update", interview: roomView(asked.state, false) },
			{ type: "question", question: ask.question },
		);
		// Timers change only through effects; without one, the alarm stays where it is.
		if (effects.some((e) => e.kind === "timer")) await deps.timers.arm();
		await deps.outbox.flush();
		return true;
	}

	/** The command that asks the interviewer's next question after `state`, or null when none is left. */
	private async nextAsk(state: InterviewState): Promise<Extract<Command, { type: "ask" }> | null> {
		const { interviewer } = this.deps;
		const plan = await planOf(state, interviewer);
		const next = await interviewer.nextQuestion(plan, historyOf(state));
		return next && { type: "ask", question: publicQuestion(next), planned: next, plan };
	}

	private current(): CommandResult {
		return okResult(this.deps.state() as InterviewState);
	}
}

/** Bridges the stored interview and the interviewer, whose data is kept as plain JSON. */

export function contextOf(state: InterviewState): InterviewContext {
	return {
		interview_id: state.id,
		position: state.position,
		skills: state.skills,
		difficulty: state.difficulty,
		duration_minutes: state.durationMinutes,
		company_name: state.companyName,
		instructions: state.instructions,
	};
}

export function historyOf(state: InterviewState): HistoryEntry[] {
	return state.transcript.flatMap((entry) =>
		entry.planned
			? [
					{
						question: entry.planned,
						score: entry.assessment,
					},
				]
			: [],
	);
}

export async function planOf(state: InterviewState, interviewer: Interviewer): Promise<InterviewPlan> {
	return state.plan ?? (await interviewer.plan(contextOf(state)));
}

export async function assessmentOf(state: InterviewState, interviewer: Interviewer): Promise<Assessment> {
	return interviewer.finalize(await planOf(state, interviewer), historyOf(state));
}
