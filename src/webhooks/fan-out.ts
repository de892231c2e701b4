import { getDb } from "../db/client";
import { runBatch } from "../db/templates";
import type { Env } from "../env";
import type { EventRecord } from "../events/events-repo";
import { chunks } from "../lib/chunks";
import {
	insertDeliveriesIfAbsent,
	markEnqueued,
	type NewDelivery,
	unenqueuedDeliveries,
} from "./deliveries-repo";
import { eventDeliveryId } from "./delivery-ids";
import { activeEndpoints, type EndpointRow } from "./endpoints-repo";
import { subscribesTo } from "./event-names";
import { type DeliveryMessage, deliveryMessage } from "./message";

/** Statements per D1 batch when recording deliveries (each up to `DELIVERIES_PER_STATEMENT` rows). */
const INSERT_BATCH = 50;
/** Cloudflare Queues accepts at most 100 messages per `sendBatch`. */
const SEND_BATCH = 100;

/**
 * Records one delivery per (event, active subscribed endpoint) and sends each a queue message.
 * Safe to call again with the same events (outbox retries): delivery ids derive from event and
 * endpoint, rows are inserted only if absent, and only rows not yet marked enqueued are sent, so a
 * failure after recording and before sending is repaired by the next call rather than lost. The
 * one duplicate it can make (sent, then failed before marking) is harmless: receivers see the
 * same `X-Service-Delivery` and event id, and a settled delivery is never attempted again.
 */
export async function fanOutEvents(
	env: Env,
	events: readonly EventRecord[],
	now: number,
	known: KnownEndpoints = new Map(),
): Promise<void> {
	if (events.length === 0) return;
	const db = getDb(env.DB);
	const groups = new Map<string, EventRecord[]>();
	for (const event of events) {
		const key = endpointsKey(event);
		groups.set(key, [...(groups.get(key) ?? []), event]);
	}
	const ids: string[] = [];
	const rows: NewDelivery[] = [];
	for (const [key, group] of groups) {
		const first = group[0] as EventRecord;
		const endpoints =
			known.get(key) ??
			(await activeEndpoints(db, {
				accountId: first.accountId,
				environment: first.environment,
			}));
		if (endpoints.length === 0) continue;
		for (const event of group) {
			for (const endpoint of endpoints) {
				if (!subscribesTo(endpoint.events, event.type)) continue;
				const id = await eventDeliveryId(event.id, endpoint.id);
				ids.push(id);
				rows.push({
					id,
					accountId: event.accountId,
					endpointId: endpoint.id,
					eventId: event.id,
					eventType: event.type,
					kind: "event",
					outcome: "pending",
					attemptCount: 0,
					createdAt: now,
					updatedAt: now,
				});
			}
		}
	}
	if (rows.length === 0) return;
	for (const part of chunks(insertDeliveriesIfAbsent(db, rows), INSERT_BATCH)) await runBatch(db, part);
	await enqueueDeliveries(env, await unenqueuedDeliveries(db, ids), now);
}

/**
 * Active endpoints already read by the caller (in the same D1 batch that recorded the events),
 * by `endpointsKey`; groups not in it are read here.
 */
export type KnownEndpoints = ReadonlyMap<string, readonly EndpointRow[]>;

export function endpointsKey(owner: { accountId: string; environment: string }): string {
	return `${owner.accountId}\u0000${owner.environment}`;
}

/** Sends the messages, then marks the deliveries enqueued (so a crash in between re-sends, never loses). */
export async function enqueueDeliveries(
	env: Env,
	deliveries: readonly { id: string; endpointId: string; eventId: string }[],
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
