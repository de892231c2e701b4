import type { AuthContext } from "../accounts/auth-context";
import { getDb } from "../platform/db/client";
import { AppError, validationError } from "../platform/http/errors";
import { hasIdShape, newId } from "../platform/lib/random";
import { attemptDelivery } from "./attempt";
import { consumerConfig } from "./consumer";
import {
	attemptStatements,
	attemptsOf,
	type DeliveryRow,
	findDelivery,
	insertDelivery,
	settlePendingDelivery,
} from "./deliveries-repo";
import { newDeliveryId } from "./delivery-ids";
import {
	deleteEndpoint,
	type EndpointRow,
	findEndpoint,
	findEvent,
	insertEndpointWithin,
	type Owner,
	updateEndpoint,
} from "./endpoints-repo";
import { TEST_EVENT } from "./event-names";
import { enqueueDeliveries } from "./fan-out";
import { loadSigningAccount } from "./secrets";
import { checkWebhookUrl } from "./url-policy";

/** Endpoints per account and environment: bounds the fan-out of every event. */
export const MAX_ENDPOINTS = 20;

export function ownerOf(auth: AuthContext): Owner {
	return { accountId: auth.accountId, environment: auth.dataEnvironment };
}

export function webhookNotFound(id: string): AppError {
	return new AppError("WEBHOOK_NOT_FOUND", `No webhook endpoint with id '${id}' exists.`, { id });
}

/**
 * A test key reads every endpoint of its environment but changes (and sends to) only those it may:
 * endpoints registered with a test key. A live key's endpoint, and the deliveries of live events
 * on it, are the account's live setup (decisions.md, "Test keys and live data": 409 with
 * `details {test_mode: false}`, nothing changed).
 */
export function assertMayChange(auth: AuthContext, endpoint: EndpointRow): void {
	if (auth.keyEnvironment !== "test" || endpoint.testMode) return;
	throw new AppError(
		"INVALID_OPERATION",
		`Webhook endpoint '${endpoint.id}' was registered with a live key: a test key can read it but not change it or send to it. Use a live key, or register an endpoint with this test key (it receives test-mode events).`,
		{ id: endpoint.id, test_mode: false },
	);
}

/** The URL as it will be stored, or the contract's VALIDATION_ERROR naming `url`. */
export function acceptedUrl(env: Env, raw: string): string {
	const verdict = checkWebhookUrl(raw, env.ENVIRONMENT);
	if (!verdict.ok) throw validationError({ url: verdict.reason });
	return verdict.url;
}

/** The endpoint, if it belongs to the caller's account and environment (404 otherwise). */
export async function loadOwnedEndpoint(env: Env, auth: AuthContext, id: string): Promise<EndpointRow> {
	if (!hasIdShape(id, "wh")) throw webhookNotFound(id);
	const row = await findEndpoint(getDb(env.DB), ownerOf(auth), id);
	if (!row) throw webhookNotFound(id);
	return row;
}

export async function loadDelivery(env: Env, endpoint: EndpointRow, id: string): Promise<DeliveryRow> {
	const row = hasIdShape(id, "dlv") ? await findDelivery(getDb(env.DB), endpoint.id, id) : undefined;
	if (!row)
		throw new AppError("DELIVERY_NOT_FOUND", `No delivery with id '${id}' exists for this endpoint.`, { id });
	return row;
}

/**
 * Sends a signed `webhook.test` event to the endpoint now, whatever it subscribes to and even
 * while disabled, and answers with the attempt. One attempt, no retries; it is logged like any
 * other delivery but does not count toward the endpoint's failure run.
 */
export async function sendTestEvent(env: Env, endpoint: EndpointRow, now: number) {
	const db = getDb(env.DB);
	const account = await loadSigningAccount(db, endpoint.accountId, now);
	if (!account) throw webhookNotFound(endpoint.id);
	const delivery: DeliveryRow = {
		id: newDeliveryId(),
		accountId: endpoint.accountId,
		endpointId: endpoint.id,
		eventId: newId("evt"),
		eventType: TEST_EVENT,
		kind: "test",
		redeliveryOf: null,
		payload: {
			webhook_id: endpoint.id,
			message: "A test event. Verify its signature and answer 2xx within 10 seconds.",
			sent_at: new Date(now).toISOString(),
		},
		outcome: "pending",
		attemptCount: 0,
		lastStatusCode: null,
		lastError: null,
		nextAttemptAt: null,
		// Sent by this request, never through the queue: marked as handed over, so that the
		// resend of unsent deliveries never picks it up if its outcome cannot be recorded.
		enqueuedAt: now,
		completedAt: null,
		createdAt: now,
		updatedAt: now,
	};
	await insertDelivery(db, delivery);
	const config = consumerConfig(env);
	const report = await attemptDelivery(
		{
			url: endpoint.url,
			endpointId: endpoint.id,
			deliveryId: delivery.id,
			eventId: delivery.eventId,
			eventType: delivery.eventType,
			data: delivery.payload ?? {},
			account: { id: account.id, name: account.name },
			secrets: account.secrets,
		},
		config,
	);
	await db.batch(
		attemptStatements(db, {
			delivery,
			attempt: 1,
			url: endpoint.url,
			...report,
			nextAttemptAt: null,
			outcome: report.classification.outcome,
		}),
	);
	return reload(env, endpoint, delivery.id);
}

/**
 * A new delivery of the same event to the same endpoint, with its own id and the full retry
 * schedule; `redelivery_of` names the original.
 */
export async function redeliver(env: Env, endpoint: EndpointRow, original: DeliveryRow, now: number) {
	if (!endpoint.active) {
		throw new AppError("INVALID_OPERATION", "The endpoint is disabled; enable it before redelivering.", {
			webhook_id: endpoint.id,
			active: false,
		});
	}
	const db = getDb(env.DB);
	if (original.payload === null && !(await findEvent(db, original.eventId))) {
		throw new AppError("INVALID_OPERATION", "The event of this delivery is no longer kept.", {
			event_id: original.eventId,
		});
	}
	const delivery: DeliveryRow = {
		...original,
		id: newDeliveryId(),
		kind: "redelivery",
		redeliveryOf: original.id,
		outcome: "pending",
		attemptCount: 0,
		lastStatusCode: null,
		lastError: null,
		nextAttemptAt: now,
		enqueuedAt: null,
		completedAt: null,
		createdAt: now,
		updatedAt: now,
	};
	await insertDelivery(db, delivery);
	try {
		await enqueueDeliveries(env, [delivery], now);
	} catch (error) {
		await settlePendingDelivery(db, delivery.id, "cancelled", "Could not be queued", now);
		// Retry-After, as the OpenAPI document promises on every 503: the queue's refusal is brief.
		throw new AppError("SERVICE_UNAVAILABLE", "The redelivery could not be queued; try again.", undefined, {
			cause: error,
			headers: { "Retry-After": "1" },
		});
	}
	return reload(env, endpoint, delivery.id);
}

export async function reload(env: Env, endpoint: EndpointRow, deliveryId: string) {
	const db = getDb(env.DB);
	const row = await loadDelivery(env, endpoint, deliveryId);
	return { row, attempts: await attemptsOf(db, [row.id]) };
}

/** A new endpoint's fields, validated (`createWebhookBody`) with its URL accepted (`acceptedUrl`). */
export interface NewEndpoint {
	url: string;
	events: EndpointRow["events"];
	active: boolean;
}

/** Creates an endpoint for the caller's account and environment, within `MAX_ENDPOINTS`. */
export async function createEndpoint(
	env: Env,
	auth: AuthContext,
	body: NewEndpoint,
	now: number,
): Promise<EndpointRow> {
	const row: EndpointRow = {
		id: newId("wh"),
		...ownerOf(auth),
		url: body.url,
		events: body.events,
		active: body.active,
		testMode: auth.keyEnvironment === "test",
		consecutiveFailures: 0,
		failingSince: null,
		failedAttempts: 0,
		succeededAttempts: 0,
		lastAttemptAt: null,
		lastAttemptOutcome: null,
		lastAttemptStatusCode: null,
		disabledReason: null,
		disabledAt: null,
		disabledEventId: null,
		disabledEventPublished: false,
		createdAt: now,
		updatedAt: now,
	};
	if (!(await insertEndpointWithin(getDb(env.DB), row, MAX_ENDPOINTS))) {
		throw new AppError(
			"INVALID_OPERATION",
			`An account may have at most ${MAX_ENDPOINTS} webhook endpoints per environment.`,
			{ limit: MAX_ENDPOINTS },
		);
	}
	return row;
}

/** Changes an endpoint; enabling it starts its failure run afresh. */
export async function changeEndpoint(
	env: Env,
	endpoint: EndpointRow,
	body: Partial<NewEndpoint>,
	now: number,
): Promise<EndpointRow> {
	const enabling = body.active === true && !endpoint.active;
	const updated = await updateEndpoint(getDb(env.DB), endpoint.id, {
		...(body.url === undefined ? {} : { url: body.url }),
		...(body.events === undefined ? {} : { events: body.events }),
		...(body.active === undefined ? {} : { active: body.active }),
		...(enabling
			? {
					consecutiveFailures: 0,
					failingSince: null,
					disabledReason: null,
					disabledAt: null,
					disabledEventId: null,
					disabledEventPublished: false,
				}
			: {}),
		updatedAt: now,
	});
	return updated ?? endpoint;
}

/** Deletes the endpoint and its delivery log; false when another call deleted it first. */
export function removeEndpoint(env: Env, endpoint: EndpointRow): Promise<boolean> {
	return deleteEndpoint(getDb(env.DB), endpoint.id);
}
