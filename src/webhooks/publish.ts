import type { EventRecord } from "../events/events-repo";
import type { PendingDelivery } from "./deliveries-repo";
import { fanOutEvents } from "./fan-out";

/**
 * Hands freshly recorded events to their consumers (webhook fan-out). Called after the events
 * are durably in D1, possibly more than once for the same event (outbox retries), so every
 * consumer must be idempotent by event id. `known`: the events' unsent deliveries, when the
 * caller read them in the batch that recorded the events. A failure propagates, so the caller
 * retries.
 */
export async function publishEvents(
	env: Env,
	events: readonly Pick<EventRecord, "id">[],
	known?: readonly PendingDelivery[],
): Promise<void> {
	await fanOutEvents(env, events, Date.now(), known);
}
