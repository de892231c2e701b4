import type { DataEnvironment } from "../../accounts/keys";
import type { InterviewState } from "../core/model";
import type { TransitionError } from "../core/state-machine";

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
