// Helpers for driving webhook delivery inside workerd: the consumer is called directly with
// batches made by createMessageBatch, never by waiting for real queue delays.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { type ConsumerConfig, consumeWebhookBatch } from "../../src/webhooks/consumer";
import { deliveryMessage } from "../../src/webhooks/message";
import worker from "../../src/worker";
import { call } from "./helpers";

export interface PendingDelivery {
	id: string;
	endpointId: string;
	eventId: string;
	attemptCount: number;
}

export async function createWebhook(key: string, body: Record<string, unknown>) {
	const res = await call("POST", "/v1/webhooks", { key, body });
	if (res.status !== 201) throw new Error(`webhook creation failed: ${JSON.stringify(res.body)}`);
	return res.body.data as { id: string; url: string; events: string[]; active: boolean };
}

export async function deliveriesOf(endpointId: string, outcome?: string): Promise<PendingDelivery[]> {
	const rows = await env.DB.prepare(
		`SELECT id, endpoint_id, event_id, attempt_count FROM webhook_deliveries
		 WHERE endpoint_id = ?1 AND (?2 IS NULL OR outcome = ?2) ORDER BY created_at, id`,
	)
		.bind(endpointId, outcome ?? null)
		.all<{ id: string; endpoint_id: string; event_id: string; attempt_count: number }>();
	return rows.results.map((r) => ({
		id: r.id,
		endpointId: r.endpoint_id,
		eventId: r.event_id,
		attemptCount: r.attempt_count,
	}));
}

/** One run of the real queue handler over these deliveries, as the queue's attempt `attempts`. */
export async function runConsumer(
	items: (PendingDelivery & { attempts?: number })[],
	options: { env?: Env; queue?: string } = {},
) {
	const batch = createMessageBatch(
		options.queue ?? "interview-webhooks",
		items.map((d, i) => ({
			id: `msg-${i}-${d.id}`,
			timestamp: new Date(),
			attempts: d.attempts ?? d.attemptCount + 1,
			// The message as first sent (no `base`): the queue retries it with `attempts` counting up.
			body: deliveryMessage({ id: d.id, endpointId: d.endpointId, eventId: d.eventId }),
		})),
	);
	const ctx = createExecutionContext();
	await worker.queue(batch, options.env ?? env);
	const result = await getQueueResult(batch, ctx);
	return { result, messageIds: batch.messages.map((m) => m.id) };
}

/** Every pending delivery of the endpoint gets its next attempt, ten messages per batch. */
export async function drainOnce(endpointId: string): Promise<number> {
	const pending = await deliveriesOf(endpointId, "pending");
	for (let i = 0; i < pending.length; i += 10) await runConsumer(pending.slice(i, i + 10));
	return pending.length;
}

export interface AttemptLogRow {
	delivery_id: string;
	attempt: number;
	outcome: string;
	status_code: number | null;
	error_type: string | null;
	error: string | null;
	attempted_at: number;
	duration_ms: number;
	next_attempt_at: number | null;
}

export async function attemptsOf(endpointId: string): Promise<AttemptLogRow[]> {
	const rows = await env.DB.prepare("SELECT * FROM webhook_attempts WHERE endpoint_id = ? ORDER BY seq")
		.bind(endpointId)
		.all<AttemptLogRow>();
	return rows.results;
}

export async function deliveryRow(id: string) {
	return env.DB.prepare("SELECT * FROM webhook_deliveries WHERE id = ?").bind(id).first<{
		outcome: string;
		attempt_count: number;
		enqueued_at: number | null;
		next_attempt_at: number | null;
		updated_at: number;
	}>();
}

/** The consumer with an injected clock (and other settings), for rules that span days. */
export async function runConsumerWith(
	items: (PendingDelivery & { attempts?: number })[],
	overrides: Partial<ConsumerConfig>,
) {
	const batch = createMessageBatch(
		"interview-webhooks",
		items.map((d, i) => ({
			id: `msg-at-${i}-${d.id}`,
			timestamp: new Date(),
			attempts: d.attempts ?? d.attemptCount + 1,
			// The message as first sent (no `base`): the queue retries it with `attempts` counting up.
			body: deliveryMessage({ id: d.id, endpointId: d.endpointId, eventId: d.eventId }),
		})),
	);
	const ctx = createExecutionContext();
	await consumeWebhookBatch(batch, env, overrides);
	return getQueueResult(batch, ctx);
}
