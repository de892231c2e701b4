import { accountStub } from "../../accounts/account-stub";
import { errorText } from "../../platform/lib/error-text";
import type { InterviewState } from "../core/model";
import { isLive } from "../core/state-machine";
import type { Timers } from "./timers";

/** Asks the account for a slot again after a request that failed (`Slots.take`). */
export const SLOT_RETRY_TIMER = "slot_retry";
const SLOT_RETRY_MS = 10_000;

export interface SlotDeps {
	env: Env;
	timers: Timers;
}

/**
 * The interview's concurrent slot, held in its account's object. A live interview asks for one
 * when its candidate joins; the slot is given back by the outbox (`release_slot`, idempotent per
 * interview), so a retried flush never frees it twice.
 */
export class Slots {
	/** Stores nothing of its own: its retry is a timer, the slot itself the account's. */
	constructor(private readonly deps: SlotDeps) {}

	/**
	 * Asks the account's object for a concurrent slot: true if this interview holds one now. If it
	 * is queued instead, the account's object starts it when a slot frees (`startFromWaitingRoom`).
	 * If the request itself fails, the account never heard of it, so the candidate waits and this
	 * object asks again from its alarm (`SLOT_RETRY_TIMER`) until the account answers.
	 */
	async take(interview: InterviewState, now: number): Promise<boolean> {
		const { accountId, id } = interview;
		const { env, timers } = this.deps;
		const slot = await accountStub(env, accountId)
			.acquireSlot(accountId, id)
			.catch((error: unknown) => {
				console.error(
					JSON.stringify({ message: "slot request failed", interview_id: id, error: errorText(error) }),
				);
				return { status: "unavailable" } as const;
			});
		if (slot.status === "unavailable") {
			timers.set(SLOT_RETRY_TIMER, now + SLOT_RETRY_MS);
			await timers.arm();
			return false;
		}
		timers.set(SLOT_RETRY_TIMER, null);
		return slot.status === "acquired";
	}

	/** The alarm's second request, for a live candidate still waiting after a failed one: true once it holds a slot. */
	async retry(state: InterviewState | null, now: number): Promise<boolean> {
		if (state?.status !== "scheduled" || state.joinedAt === null || !isLive(state)) return false;
		return this.take(state, now);
	}
}
