import { type Db, getDb } from "../platform/db/client";
import { errorText } from "../platform/lib/error-text";
import { newId } from "../platform/lib/random";
import { attemptDelivery } from "./attempt";
import { shouldDisable } from "./auto-disable";
import { parseRetryDelays, parseTimeoutMs, retryDelaySeconds } from "./backoff";
import { type NextStep, nextStep } from "./classify";
import {
	attemptStatements,
	claimAttempt,
	loadDeliveryContext,
	settlePendingDelivery,
} from "./deliveries-repo";
import {
	disableFailingEndpoint,
	type EndpointRow,
	findEndpointById,
	markDisabledEventPublished,
	recordEndpointAttempt,
} from "./endpoints-repo";
import { parseDeliveryMessage } from "./message";
import { publishEvents } from "./publish";
import { signingSecrets } from "./secrets";

export interface ConsumerConfig {
	environment: string;
	timeoutMs: number;
	retryDelays: number[];
	clock: () => number;
}

export function consumerConfig(env: Env, overrides: Partial<ConsumerConfig> = {}): ConsumerConfig {
	return {
		environment: env.ENVIRONMENT,
		timeoutMs: parseTimeoutMs(env.WEBHOOK_TIMEOUT_MS),
		retryDelays: parseRetryDelays(env.WEBHOOK_RETRY_DELAYS),
		clock: Date.now,
		...overrides,
	};
}

type Verdict = NextStep | { action: "drop" };

/**
 * Attempts in flight at once within one batch: a Worker invocation keeps at most six outgoing
 * connections open and queues the rest, so a seventh fetch would spend its timeout waiting for a
 * connection. Each attempt's timeout starts when its request does.
 */
export const ATTEMPTS_IN_FLIGHT = 6;

/**
 * The `interview-webhooks` consumer: one attempt per message, up to `ATTEMPTS_IN_FLIGHT` of a
 * batch at once (each bounded by the timeout). A failed attempt is retried through
 * `message.retry` with the schedule's delay; after the last attempt the delivery is failed and the
 * message is retried once more so that the queue dead-letters it (`max_retries = 5`).
 */
export async function consumeWebhookBatch(
	batch: MessageBatch,
	env: Env,
	overrides: Partial<ConsumerConfig> = {},
): Promise<void> {
	const config = consumerConfig(env, overrides);
	const messages = [...batch.messages];
	let next = 0;
	const lane = async () => {
		while (next < messages.length) {
			const message = messages[next++] as Message;
			await consumeMessage(message, env, config);
		}
	};
	await Promise.all(Array.from({ length: Math.min(ATTEMPTS_IN_FLIGHT, messages.length) }, lane));
}

async function consumeMessage(message: Message, env: Env, config: ConsumerConfig): Promise<void> {
	const body = parseDeliveryMessage(message.body);
	if (!body) {
		console.warn(JSON.stringify({ message: "dropping malformed webhook message", id: message.id }));
		message.ack();
		return;
	}
	let verdict: Verdict;
	try {
		// A message handed over again by the resend sweep counts on from the attempts already made.
		verdict = await processDelivery(env, body.delivery_id, (body.base ?? 0) + message.attempts, config);
	} catch (error) {
		// Our own failure (D1 unavailable, ...): not the receiver's fault, but the schedule still
		// bounds it, and the dead-letter consumer settles a delivery whose message runs out.
		console.error(
			JSON.stringify({
				message: "webhook delivery processing failed",
				delivery_id: body.delivery_id,
				error: errorText(error),
			}),
		);
		const delay = retryDelaySeconds((body.base ?? 0) + message.attempts, config.retryDelays);
		message.retry(delay === null ? {} : { delaySeconds: delay });
		return;
	}
	switch (verdict.action) {
		case "done":
		case "drop":
			message.ack();
			return;
		case "retry":
			message.retry({ delaySeconds: verdict.delaySeconds });
			return;
		case "give_up":
			message.retry();
			return;
	}
}

async function processDelivery(
	env: Env,
	deliveryId: string,
	attempt: number,
	config: ConsumerConfig,
): Promise<Verdict> {
	const db = getDb(env.DB);
	const ctx = await loadDeliveryContext(db, deliveryId);
	if (!ctx) return { action: "drop" };
	const { delivery, endpoint, account } = ctx;
	if (endpoint) await publishPendingDisabledEvent(env, endpoint);
	if (delivery.outcome !== "pending") return { action: "drop" };
	const now = config.clock();
	if (!endpoint || !account) {
		await settlePendingDelivery(db, delivery.id, "cancelled", "The endpoint was deleted", now);
		return { action: "drop" };
	}
	if (!endpoint.active) {
		await settlePendingDelivery(db, delivery.id, "cancelled", "The endpoint is disabled", now);
		return { action: "drop" };
	}
	const data = delivery.payload ?? ctx.event?.data;
	if (!data) {
		await settlePendingDelivery(db, delivery.id, "cancelled", "The event no longer exists", now);
		return { action: "drop" };
	}
	// A second message for this delivery (at least once) finds its attempt taken, and stops.
	if (!(await claimAttempt(db, delivery.id, attempt, now))) return { action: "drop" };
	const report = await attemptDelivery(
		{
			url: endpoint.url,
			endpointId: endpoint.id,
			deliveryId: delivery.id,
			eventId: delivery.eventId,
			eventType: delivery.eventType,
			data,
			account: { id: account.id, name: account.name },
			secrets: signingSecrets(account.secret, ctx.previous, now),
		},
		config,
	);
	const step = nextStep(report.classification.outcome, attempt, config.retryDelays);
	const finishedAt = report.attemptedAt + report.durationMs;
	const [insertAttempt, updateDelivery] = attemptStatements(db, {
		delivery,
		attempt,
		url: endpoint.url,
		...report,
		nextAttemptAt: step.action === "retry" ? finishedAt + step.delaySeconds * 1000 : null,
		outcome: step.action === "done" ? "succeeded" : step.action === "give_up" ? "failed" : "pending",
	});
	const [, , run] = await db.batch([
		insertAttempt,
		updateDelivery,
		recordEndpointAttempt(db, endpoint.id, report.classification, finishedAt),
	]);
	const counters = run[0];
	if (counters?.active && shouldDisable(counters, finishedAt)) {
		await disableEndpoint(env, db, { ...endpoint, ...counters }, finishedAt);
	}
	return step;
}

async function disableEndpoint(env: Env, db: Db, endpoint: EndpointRow, now: number): Promise<void> {
	const disabled = await disableFailingEndpoint(
		env.DB,
		endpoint,
		{
			id: newId("evt"),
			data: {
				webhook_id: endpoint.id,
				url: endpoint.url,
				reason: "failing",
				disabled_at: new Date(now).toISOString(),
				failing_since: endpoint.failingSince === null ? null : new Date(endpoint.failingSince).toISOString(),
				consecutive_failures: endpoint.consecutiveFailures,
			},
		},
		now,
	);
	if (!disabled) return;
	console.warn(JSON.stringify({ message: "webhook endpoint disabled", webhook_id: endpoint.id }));
	const fresh = await findEndpointById(db, endpoint.id);
	if (fresh) await publishPendingDisabledEvent(env, fresh);
}

/**
 * Hands a recorded `webhook.endpoint.disabled` event to the fan-out once. If that fails, the
 * error retries the message, and the next message about this endpoint tries again.
 */
async function publishPendingDisabledEvent(env: Env, endpoint: EndpointRow): Promise<void> {
	if (endpoint.active || !endpoint.disabledEventId || endpoint.disabledEventPublished) return;
	const db = getDb(env.DB);
	// Its deliveries were recorded with the event, in the transaction that disabled the endpoint.
	await publishEvents(env, [{ id: endpoint.disabledEventId }]);
	await markDisabledEventPublished(db, endpoint.id, endpoint.disabledEventId);
}

/**
 * The dead-letter queue's consumer: whatever reached it (the sixth failure, or processing that
 * kept failing) leaves no delivery pending. Settled deliveries are left as they are.
 */
export async function consumeDeadLetters(batch: MessageBatch, env: Env, clock: () => number = Date.now) {
	const db = getDb(env.DB);
	for (const message of batch.messages) {
		const body = parseDeliveryMessage(message.body);
		try {
			if (body) {
				const ctx = await loadDeliveryContext(db, body.delivery_id);
				if (ctx?.endpoint) await publishPendingDisabledEvent(env, ctx.endpoint);
				await settlePendingDelivery(
					db,
					body.delivery_id,
					"failed",
					"Dead-lettered after the last attempt",
					clock(),
				);
			}
			message.ack();
		} catch (error) {
			console.error(
				JSON.stringify({ message: "dead letter not settled", id: message.id, error: errorText(error) }),
			);
			message.retry();
		}
	}
}
