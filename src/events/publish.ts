import type { Env } from "../env";
import { fanOutEvents, type KnownEndpoints } from "../webhooks/fan-out";
import type { EventRecord } from "./events-repo";

/**
 * Hands freshly recorded events to their consumers (webhook fan-out). Called after the events
 * are durably in D1, possibly more than once for the same event (outbox retries), so every
 * consumer must be idempotent by event id. A failure propagates, so the caller retries.
 */
export async function publishEvents(env: Env, events: EventRecord[], known?: KnownEndpoints): Promise<void> {
	await fanOutEvents(env, events, Date.now(), known);
}
