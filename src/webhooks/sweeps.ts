import { getDb } from "../platform/db/client";
import { failAbandonedDeliveries } from "./deliveries-repo";

// A delivery recorded and never handed to the queue (its sender failed between the two) is not
// swept here: the resend of due deliveries (resend.ts) hands over every pending delivery due and
// untouched for `DELIVERY_RESEND_AFTER_S`, and a never-sent one is that (docs/webhooks.md).

/**
 * A pending delivery handed to the queue and untouched this long will never be attempted again
 * (the longest wait between attempts is 12 hours): its message was lost. A test event, sent by
 * its request, is abandoned once that request is long over.
 */
export const DELIVERY_ABANDONED_MS = 24 * 60 * 60_000;
export const TEST_DELIVERY_ABANDONED_MS = 15 * 60_000;
const MAX_DELIVERIES_ABANDONED = 500;

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
