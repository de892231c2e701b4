import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Webhooks: endpoints, deliveries (one per event and endpoint, or per test/redelivery) and every
// attempt of every delivery. Times are epoch milliseconds, like the rest of the schema.

export const webhookEndpoints = sqliteTable(
	"webhook_endpoints",
	{
		id: text("id").primaryKey(),
		accountId: text("account_id").notNull(),
		/** The data environment of the key that created it: it receives only that environment's events. */
		environment: text("environment", { enum: ["production", "dev"] }).notNull(),
		url: text("url").notNull(),
		/** Event names, or `["*"]` for every event. */
		events: text("events", { mode: "json" }).$type<string[]>().notNull(),
		active: integer("active", { mode: "boolean" }).notNull(),
		/**
		 * Registered with a test key: it receives only test-mode events, and is the only kind of
		 * endpoint a test key may change (docs/webhooks.md). A live key's receives every event.
		 */
		testMode: integer("test_mode", { mode: "boolean" }).notNull().default(false),
		/** Failed attempts since the last successful one. */
		consecutiveFailures: integer("consecutive_failures").notNull().default(0),
		/** First failed attempt after the last success; null while the endpoint is healthy. */
		failingSince: integer("failing_since"),
		failedAttempts: integer("failed_attempts").notNull().default(0),
		succeededAttempts: integer("succeeded_attempts").notNull().default(0),
		lastAttemptAt: integer("last_attempt_at"),
		lastAttemptOutcome: text("last_attempt_outcome", { enum: ["succeeded", "failed"] }),
		lastAttemptStatusCode: integer("last_attempt_status_code"),
		disabledReason: text("disabled_reason", { enum: ["failing"] }),
		disabledAt: integer("disabled_at"),
		/** The `webhook.endpoint.disabled` event of the last automatic disable, and whether it went out. */
		disabledEventId: text("disabled_event_id"),
		disabledEventPublished: integer("disabled_event_published", { mode: "boolean" }).notNull().default(false),
		createdAt: integer("created_at").notNull(),
		updatedAt: integer("updated_at").notNull(),
	},
	(t) => [
		index("webhook_endpoints_account_created_idx").on(t.accountId, t.environment, t.createdAt, t.id),
		index("webhook_endpoints_account_active_idx").on(t.accountId, t.environment, t.active),
	],
);

export const webhookDeliveries = sqliteTable(
	"webhook_deliveries",
	{
		/** `dlv_`: derived from event id and endpoint id for event deliveries, random otherwise. */
		id: text("id").primaryKey(),
		accountId: text("account_id").notNull(),
		endpointId: text("endpoint_id").notNull(),
		eventId: text("event_id").notNull(),
		eventType: text("event_type").notNull(),
		kind: text("kind", { enum: ["event", "test", "redelivery"] }).notNull(),
		redeliveryOf: text("redelivery_of"),
		/** Event data kept on the delivery only when the event is not in the event log (test events). */
		payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>(),
		outcome: text("outcome", { enum: ["pending", "succeeded", "failed", "cancelled"] }).notNull(),
		attemptCount: integer("attempt_count").notNull().default(0),
		lastStatusCode: integer("last_status_code"),
		lastError: text("last_error"),
		nextAttemptAt: integer("next_attempt_at"),
		/** Set once the queue message is sent; a row still null is re-sent by the next publish. */
		enqueuedAt: integer("enqueued_at"),
		completedAt: integer("completed_at"),
		createdAt: integer("created_at").notNull(),
		updatedAt: integer("updated_at").notNull(),
	},
	(t) => [
		index("webhook_deliveries_endpoint_created_idx").on(t.endpointId, t.createdAt, t.id),
		index("webhook_deliveries_endpoint_outcome_created_idx").on(t.endpointId, t.outcome, t.createdAt, t.id),
		index("webhook_deliveries_event_idx").on(t.eventId),
		/** The deliveries still waiting for their first queue message (the housekeeping resend). */
		index("webhook_deliveries_unenqueued_idx").on(t.createdAt).where(sql`${t.enqueuedAt} IS NULL`),
		/** Deliveries still pending, by last change (the housekeeping settles abandoned ones). */
		index("webhook_deliveries_pending_idx").on(t.updatedAt).where(sql`${t.outcome} = 'pending'`),
		/** Final deliveries by when they became final (the retention sweep, docs/retention.md). */
		index("webhook_deliveries_final_idx").on(t.completedAt).where(sql`${t.completedAt} IS NOT NULL`),
	],
);

export const webhookAttempts = sqliteTable(
	"webhook_attempts",
	{
		seq: integer("seq").primaryKey({ autoIncrement: true }),
		deliveryId: text("delivery_id").notNull(),
		endpointId: text("endpoint_id").notNull(),
		/** 1-based: the queue's attempt count for this delivery's message. */
		attempt: integer("attempt").notNull(),
		url: text("url").notNull(),
		attemptedAt: integer("attempted_at").notNull(),
		durationMs: integer("duration_ms").notNull(),
		outcome: text("outcome", { enum: ["succeeded", "failed"] }).notNull(),
		statusCode: integer("status_code"),
		errorType: text("error_type"),
		error: text("error"),
		/** At most the first bytes of the receiver's answer (see `RESPONSE_BODY_CAP_BYTES`). */
		responseBody: text("response_body"),
		nextAttemptAt: integer("next_attempt_at"),
	},
	(t) => [
		// One row per attempt number: a record written twice (a D1 batch that committed, its
		// answer lost, then run again) fails instead of logging and counting the attempt twice.
		uniqueIndex("webhook_attempts_delivery_attempt_idx").on(t.deliveryId, t.attempt),
		index("webhook_attempts_endpoint_idx").on(t.endpointId, t.seq),
	],
);

/** The secret an account used before its last rotation; it keeps signing until `expires_at`. */
export const webhookPreviousSecrets = sqliteTable("webhook_previous_secrets", {
	accountId: text("account_id").primaryKey(),
	secret: text("secret").notNull(),
	rotatedAt: integer("rotated_at").notNull(),
	expiresAt: integer("expires_at").notNull(),
});
