import type { Env } from "../env";
import type { RateDecision } from "./rate-limit";

/** The outcome of asking for a concurrent-interview slot. */
export type SlotResult = { status: "acquired" } | { status: "waiting"; position: number };

export interface SlotUsage {
	/** Live interviews holding a slot (in progress, or granted one and starting). */
	active: number;
	/** Joined live interviews waiting for a slot. */
	waiting: number;
}

/** The account object's RPC surface, typed plainly. */
export interface AccountApi {
	hit(limit: number): Promise<RateDecision>;
	usage(): Promise<number>;
	acquireSlot(accountId: string, interviewId: string): Promise<SlotResult>;
	releaseSlot(accountId: string, interviewId: string): Promise<{ released: boolean }>;
	slotUsage(): Promise<SlotUsage>;
}

export function accountStub(env: Env, accountId: string): AccountApi {
	return env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId)) as unknown as AccountApi;
}
