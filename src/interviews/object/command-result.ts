import type { DataEnvironment } from "../../accounts/keys";
import type { InterviewState } from "../core/model";
import type { Command, TransitionError } from "../core/state-machine";
import { type AdvanceTarget, advanceCommand, advanceSteps } from "../core/transitions/test-advance";

/** What a command did, as plain data: RPC callers never see a thrown error. */
export type CommandResult =
	| { status: "ok"; interview: InterviewState; notificationQueued: boolean; creditsRefunded: number }
	| { status: "rejected"; error: TransitionError; interview: InterviewState | null };

export type Rejected = Extract<CommandResult, { status: "rejected" }>;

/** Whose interview it is: another owner's interview does not exist for them. */
export interface Owner {
	accountId: string;
	environment: DataEnvironment;
	/** A `svc_test_` key: it reads live interviews but changes only test-mode ones. */
	testKey?: boolean;
}

/** The answer to a call about an interview this object does not hold (or not for that owner). */
export function notFound(): Rejected {
	return { status: "rejected", error: { code: "NOT_FOUND" }, interview: null };
}

/** `state` as an `ok` result of a step that queued no notice and refunded nothing. */
export function okResult(state: InterviewState): CommandResult {
	return { status: "ok", interview: state, notificationQueued: false, creditsRefunded: 0 };
}

/** Whether `owner` (the caller's account and data environment) holds the interview. */
export function ownedBy(state: InterviewState, owner: Owner): boolean {
	return state.accountId === owner.accountId && state.environment === owner.environment;
}

/**
 * Why a command from `owner` is refused before it runs, or null: another owner's interview does
 * not exist, and a svc_test_ key reads live interviews but changes only test-mode ones
 * (decisions.md).
 */
export function refusedFor(state: InterviewState | null, owner: Owner): CommandResult | null {
	if (!state || !ownedBy(state, owner)) return notFound();
	if (owner.testKey && !state.testMode) {
		return { status: "rejected", error: { code: "NOT_TEST_MODE" }, interview: state };
	}
	return null;
}

/**
 * The test helper: takes `owner`'s test-mode interview to `to` through the same transitions as
 * the real path, one command at a time (`run`), so the same events are recorded.
 */
export async function advanceForTest(
	state: InterviewState | null,
	owner: Owner,
	to: AdvanceTarget,
	current: () => InterviewState | null,
	run: (command: Command) => Promise<CommandResult>,
): Promise<CommandResult> {
	if (!state || !ownedBy(state, owner)) return notFound();
	const plan = advanceSteps(state, to);
	if (!plan.ok) return { status: "rejected", error: plan.error, interview: state };
	let last = okResult(state);
	for (const step of plan.steps) {
		last = await run(advanceCommand(step, current() ?? state));
		if (last.status !== "ok") return last;
	}
	return last;
}
