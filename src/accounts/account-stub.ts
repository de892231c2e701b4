import type { Env } from "../env";
import type { RateDecision } from "./rate-limit";

/** The outcome of asking for a concurrent-interview slot. */
/** `unavailable`: the account's limits could not be read; nothing changed, ask again later. */
export type SlotResult =
	| { status: "acquired" }
	| { status: "waiting"; position: number }
	| { status: "unavailable" };

export interface SlotUsage {
	/** Live interviews holding a slot (in progress, or granted one and starting). */
	active: number;
	/** Joined live interviews waiting for a slot. */
	waiting: number;
}

/**
 * The answer to `admit`: the request was counted (or refused) against the rate limit, or the
 * caller's cached view of the account's keys and limits is out of date and nothing was counted.
 * `version` is the account's key-cache version when the object answered; `cacheable` is false
 * while a change of keys or limits is in progress (nobody may cache then).
 */
export type Admission =
	| { status: "counted"; decision: RateDecision; version: number; cacheable: boolean }
	| { status: "stale"; version: number; cacheable: boolean };

/** The account object's RPC surface, typed plainly. */
export interface AccountApi {
	hit(limit: number): Promise<RateDecision>;
	admit(limit: number, version: number | null): Promise<Admission>;
	beginAuthChange(): Promise<void>;
	endAuthChange(): Promise<void>;
	usage(): Promise<number>;
	acquireSlot(accountId: string, interviewId: string): Promise<SlotResult>;
	releaseSlot(accountId: string, interviewId: string): Promise<{ released: boolean }>;
	slotUsage(): Promise<SlotUsage>;
}

export function accountStub(env: Env, accountId: string): AccountApi {
	return env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId)) as unknown as AccountApi;
}
