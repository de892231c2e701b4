import { getDb } from "../platform/db/client";
import { failAbandonedDeliveries, staleUnsentDeliveries } from "./deliveries-repo";
import { enqueueDeliveries } from "./fan-out";

/**
 * A webhook delivery recorded this long ago and still unsent lost its sender (the request or
 * object that recorded it failed before sending, and nothing retried it): sent again.
 */
export const DELIVERY_UNSENT_STALE_MS = 15 * 60_000;
const MAX_DELIVERIES_RESENT = 500;
/**
 * A pending delivery handed to the queue and untouched this long will never be attempted again
 * (the longest wait between attempts is 12 hours): its message was lost. A test event, sent by
 * its request, is abandoned once that request is long over.
 */
export const DELIVERY_ABANDONED_MS = 24 * 60 * 60_000;
export const TEST_DELIVERY_ABANDONED_MS = 15 * 60_000;
const MAX_DELIVERIES_ABANDONED = 500;

/**
 * Webhook deliveries recorded and never sent (every event records its deliveries with itself, so
 * none is lost; a failure before sending leaves them here): handed to the queue now.
 */
export async function sweepUnsentDeliveries(env: Env, now: number): Promise<number> {
	const stale = await staleUnsentDeliveries(
		getDb(env.DB),
		now - DELIVERY_UNSENT_STALE_MS,
		MAX_DELIVERIES_RESENT,
	);
	if (stale.length > 0) await enqueueDeliveries(env, stale, now);
	return stale.length;
}

/** Pending deliveries that nothing will attempt again are settled as failed. */
export function sweepAbandonedDeliveries(env: Env, now: number): Promise<number> {
	return failAbandonedDeliveries(
		getDb(env.DB),
		now - DELIVERY_ABANDONED_MS,
		now - TEST_DELIVERY_ABANDONED_MS,
		MAX_DELIVERIES_ABANDONED,
		now,
	);
}
