import type { EventRecord } from "../events/events-repo";
import { getDb } from "../platform/db/client";
import { chunks } from "../platform/lib/chunks";
import { markEnqueued, type PendingDelivery, pendingDeliveriesOf } from "./deliveries-repo";
import { type DeliveryMessage, deliveryMessage } from "./message";

/** Cloudflare Queues accepts at most 100 messages per `sendBatch`. */
const SEND_BATCH = 100;

/**
 * Sends the deliveries of these events that have not been sent yet. The deliveries themselves are
 * recorded by the database in the statement that records each event (migration 0008's trigger):
 * one per endpoint active and subscribed at that moment, never computed again, so a retry (an
 * outbox replayed, an interview's object adopting its creation) never reaches an endpoint created,
 * enabled or subscribed after the event. Safe to call again: only rows not yet marked enqueued
 * are sent, and a failure between sending and marking is repaired by the next call or by the
 * housekeeping resend. The one duplicate it can make (sent, then failed before marking) is
 * harmless: receivers see the same `X-Service-Delivery` and event id, and a settled delivery is
 * never attempted again.
 */
export async function fanOutEvents(
	env: Env,
	events: readonly Pick<EventRecord, "id">[],
	now: number,
	known?: readonly PendingDelivery[],
): Promise<void> {
	if (events.length === 0) return;
	const pending =
		known ??
		(await pendingDeliveriesOf(
			getDb(env.DB),
			events.map((event) => event.id),
		));
	if (pending.length > 0) await enqueueDeliveries(env, pending, now);
}

/** Sends the messages, then marks the deliveries enqueued (so a crash in between re-sends, never loses). */
export async function enqueueDeliveries(
	env: Env,
	deliveries: readonly { id: string; endpointId: string; eventId: string; attemptCount?: number }[],
	now: number,
): Promise<void> {
	const db = getDb(env.DB);
	for (const part of chunks(deliveries, SEND_BATCH)) {
		const messages: MessageSendRequest<DeliveryMessage>[] = part.map((d) => ({
			body: deliveryMessage(d),
			contentType: "json",
		}));
		await env.WEBHOOK_QUEUE.sendBatch(messages);
		await markEnqueued(
			db,
			part.map((d) => d.id),
			now,
		);
	}
}
