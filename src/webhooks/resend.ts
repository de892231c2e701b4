import { getDb } from "../platform/db/client";
import { dueUntouchedDeliveries, touchDeliveries } from "./deliveries-repo";
import { enqueueDeliveries } from "./fan-out";

/** Default of `DELIVERY_RESEND_AFTER_S`: how long a due delivery may sit untouched. */
export const DEFAULT_RESEND_AFTER_S = 120;
/** Deliveries handed over again per housekeeping run, at most (the rest wait for the next run). */
const MAX_RESENT = 1_000;

/**
 * `DELIVERY_RESEND_AFTER_S` in milliseconds: whole seconds from 10 to 86,400; anything else is
 * the default (a typo must not make the sweep resend everything on every run).
 */
export function resendAfterMs(env: { DELIVERY_RESEND_AFTER_S?: string }): number {
	const raw = env.DELIVERY_RESEND_AFTER_S?.trim() ?? "";
	const seconds = /^\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
	return (seconds >= 10 && seconds <= 86_400 ? seconds : DEFAULT_RESEND_AFTER_S) * 1000;
}

/**
 * The recorded delivery row is the source of truth (docs/webhooks.md): every pending delivery
 * that is due and untouched for `DELIVERY_RESEND_AFTER_S` (its queue message was lost: a process
 * killed after recording it, a local queue that did not survive a restart) is handed to the queue
 * again under the same delivery id, and the hand-over touches its row, so each run resends it at
 * most once per period. A copy that races the original is harmless: the consumer drops a message
 * for a delivery no longer pending, and receivers dedupe on the delivery id. Returns how many.
 */
export async function resendDueDeliveries(env: Env, now: number): Promise<number> {
	const db = getDb(env.DB);
	const due = await dueUntouchedDeliveries(db, now - resendAfterMs(env), MAX_RESENT);
	if (due.length === 0) return 0;
	await enqueueDeliveries(env, due, now);
	await touchDeliveries(
		db,
		due.map((d) => d.id),
		now,
	);
	return due.length;
}
