import type { Env } from "../env";
import type { EventRecord } from "./events-repo";

/**
 * Hands freshly recorded events to their consumers (webhook fan-out). Called after the events
 * are durably in D1, possibly more than once for the same event (outbox retries), so every
 * consumer must be idempotent by event id.
 */
export async function publishEvents(_env: Env, _events: EventRecord[]): Promise<void> {
	// Webhook fan-out is not built yet: events are recorded in D1 and readable there.
}
