import { retentionMs } from "../../platform/lib/settings";
import type { InterviewState } from "../core/model";
import type { Effect } from "../core/state-machine";
import { projectionChanged } from "../db/interviews-repo";
import { outboxItem } from "./outbox";
import type { OutboxEngine } from "./outbox-engine";
import { saveState } from "./storage";
import type { Timers } from "./timers";

/** Deletes the room's message history `ROOM_HISTORY_RETENTION_DAYS` after the interview ended. */
export const ROOM_HISTORY_TIMER = "room_history";

export interface CommitDeps {
	env: Env;
	storage: DurableObjectStorage;
	outbox: OutboxEngine;
	timers: Timers;
}

/**
 * The new state, its outbox rows and timers, in one transaction: the projection when what it
 * shows changed, one row per effect that owes D1 or a queue, the effects' timers, and the
 * room-history timer when the interview ends.
 */
export function commitState(
	deps: CommitDeps,
	previous: InterviewState | null,
	next: InterviewState,
	effects: Effect[],
	now: number,
): void {
	const { outbox, timers } = deps;
	deps.storage.transactionSync(() => {
		saveState(deps.storage.sql, previous, next);
		let owed = false;
		if (projectionChanged(previous, next)) {
			outbox.owe({ kind: "projection" }, now);
			owed = true;
		}
		for (const effect of effects) {
			const item = outboxItem(next, effect, now);
			if (item) {
				outbox.owe(item, now);
				owed = true;
			}
			if (effect.kind === "timer") timers.set(effect.name, effect.dueAt);
		}
		if (ended(next) && !(previous && ended(previous))) {
			timers.set(ROOM_HISTORY_TIMER, now + retentionMs(deps.env, "ROOM_HISTORY_RETENTION_DAYS"));
		}
		if (owed) outbox.guard();
	});
}

/** Completed or cancelled: the room is over, its history is kept only for its retention. */
function ended(state: InterviewState): boolean {
	return state.status === "completed" || state.status === "cancelled";
}
