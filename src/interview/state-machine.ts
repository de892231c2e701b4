import type { DataEnvironment } from "../accounts/keys";
import { iso } from "../lib/time";
import type { Difficulty, InterviewState, Json } from "./model";

/** What a committed transition asks the world to do; the Durable Object carries these out. */
export type Effect =
	| { kind: "event"; type: string; data: { [key: string]: Json } }
	| { kind: "notify"; template: "invitation" | "update" | "cancellation" };

export interface CreateCommand {
	type: "create";
	id: string;
	accountId: string;
	environment: DataEnvironment;
	testMode: boolean;
	candidateEmail: string;
	candidateName: string | null;
	position: string;
	skills: string[];
	difficulty: Difficulty;
	durationMinutes: number;
	companyName: string | null;
	instructions: string | null;
	/** Epoch ms; the route has already applied "now" when the caller omitted it. */
	scheduledAt: number;
	joinToken: string;
	sendInvitation: boolean;
}

export type Command = CreateCommand;

export type TransitionError = { code: "ALREADY_EXISTS" };

export type Transition =
	| { ok: true; state: InterviewState; effects: Effect[] }
	| { ok: false; error: TransitionError };

/** The interview's state machine: pure, so every rule of the contract's tables is a unit test. */
export function transition(state: InterviewState | null, command: Command, now: number): Transition {
	switch (command.type) {
		case "create":
			return create(state, command, now);
	}
}

function create(state: InterviewState | null, cmd: CreateCommand, now: number): Transition {
	if (state) return { ok: false, error: { code: "ALREADY_EXISTS" } };
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
		scheduledAt: cmd.scheduledAt,
		startedAt: null,
		completedAt: null,
		cancelledAt: null,
		cancellationReason: null,
		joinToken: cmd.joinToken,
		noShowEmitted: false,
		results: null,
		analytics: null,
		createdAt: now,
		updatedAt: now,
		version: 1,
	};
	const effects: Effect[] = [
		{
			kind: "event",
			type: "interview.scheduled",
			data: {
				id: next.id,
				candidate_email: next.candidateEmail,
				position: next.position,
				scheduled_at: iso(next.scheduledAt),
				test_mode: next.testMode,
			},
		},
	];
	if (cmd.sendInvitation && !cmd.testMode) effects.push({ kind: "notify", template: "invitation" });
	return { ok: true, state: next, effects };
}
