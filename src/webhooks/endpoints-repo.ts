import { and, count, desc, eq, sql } from "drizzle-orm";
import type { DataEnvironment } from "../accounts/keys";
import { type Db, guardD1 } from "../platform/db/client";
import { afterCursor } from "../platform/db/keyset";
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from "../platform/db/schema";
import type { Classification } from "./classify";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

export interface Owner {
	accountId: string;
	environment: DataEnvironment;
}

/**
 * Inserts an endpoint unless its owner already has `max`: the insert and a delete of it when the
 * owner's count passes `max` run in one D1 transaction, so parallel creations never exceed it.
 * Returns whether the endpoint was kept.
 */
export async function insertEndpointWithin(
	db: Db,
	row: typeof webhookEndpoints.$inferInsert,
	max: number,
): Promise<boolean> {
	const owned = sql`(SELECT count(*) FROM ${webhookEndpoints} WHERE ${webhookEndpoints.accountId} = ${row.accountId} AND ${webhookEndpoints.environment} = ${row.environment})`;
	const [, undone] = await db.batch([
		db.insert(webhookEndpoints).values(row),
		db.delete(webhookEndpoints).where(and(eq(webhookEndpoints.id, row.id), sql`${owned} > ${max}`)),
	]);
	return (undone.meta.changes ?? 0) === 0;
}

export function findEndpoint(db: Db, owner: Owner, id: string): Promise<EndpointRow | undefined> {
	return db
		.select()
		.from(webhookEndpoints)
		.where(
			and(
				eq(webhookEndpoints.id, id),
				eq(webhookEndpoints.accountId, owner.accountId),
				eq(webhookEndpoints.environment, owner.environment),
			),
		)
		.get();
}

/** Newest first (created_at, then id, descending), keyset-paginated, with the total count. */
export async function listEndpoints(
	db: Db,
	owner: Owner,
	limit: number,
	cursor: { createdAt: number; id: string } | null,
): Promise<{ rows: EndpointRow[]; total: number }> {
	const base = [
		eq(webhookEndpoints.accountId, owner.accountId),
		eq(webhookEndpoints.environment, owner.environment),
	];
	const page = [...base, afterCursor(webhookEndpoints.createdAt, webhookEndpoints.id, cursor)];
	const [rows, totals] = await db.batch([
		db
			.select()
			.from(webhookEndpoints)
			.where(and(...page))
			.orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
			.limit(limit + 1),
		db
			.select({ total: count() })
			.from(webhookEndpoints)
			.where(and(...base)),
	]);
	return { rows, total: totals[0]?.total ?? 0 };
}

export function updateEndpoint(db: Db, id: string, changes: Partial<typeof webhookEndpoints.$inferInsert>) {
	return db.update(webhookEndpoints).set(changes).where(eq(webhookEndpoints.id, id)).returning().get();
}

/**
 * The endpoint and its delivery log go together, in one D1 transaction: nothing can reach the
 * log once it is gone. Returns whether this call deleted the endpoint; of parallel deletions of
 * one endpoint exactly one does (the others find no row and delete nothing more).
 */
export async function deleteEndpoint(db: Db, id: string): Promise<boolean> {
	const [deleted] = await db.batch([
		db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).returning({ id: webhookEndpoints.id }),
		db.delete(webhookAttempts).where(eq(webhookAttempts.endpointId, id)),
		db.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id)),
	]);
	return deleted.length > 0;
}

/** Counts an attempt against its endpoint; returns the failure run for the disable rule. */
export function recordEndpointAttempt(db: Db, id: string, c: Classification, at: number) {
	const succeeded = c.outcome === "succeeded";
	return db
		.update(webhookEndpoints)
		.set(
			succeeded
				? {
						consecutiveFailures: 0,
						failingSince: null,
						succeededAttempts: sql`${webhookEndpoints.succeededAttempts} + 1`,
						lastAttemptAt: at,
						lastAttemptOutcome: "succeeded",
						lastAttemptStatusCode: c.statusCode,
					}
				: {
						consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1`,
						failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${at})`,
						failedAttempts: sql`${webhookEndpoints.failedAttempts} + 1`,
						lastAttemptAt: at,
						lastAttemptOutcome: "failed",
						lastAttemptStatusCode: c.statusCode,
					},
		)
		.where(eq(webhookEndpoints.id, id))
		.returning({
			consecutiveFailures: webhookEndpoints.consecutiveFailures,
			failingSince: webhookEndpoints.failingSince,
			active: webhookEndpoints.active,
		});
}

/**
 * Disables a failing endpoint and records its `webhook.endpoint.disabled` event in one
 * transaction; the event is written only if this call is the one that disabled it. (Raw D1:
 * drizzle cannot batch an INSERT ... SELECT.)
 */
export async function disableFailingEndpoint(
	database: D1Database,
	endpoint: EndpointRow,
	event: { id: string; data: Record<string, unknown> },
	now: number,
): Promise<boolean> {
	const d1 = guardD1(database);
	const [updated] = await d1.batch([
		d1
			.prepare(
				`UPDATE webhook_endpoints SET active = 0, disabled_reason = 'failing', disabled_at = ?1,
				 disabled_event_id = ?2, disabled_event_published = 0, updated_at = ?1
				 WHERE id = ?3 AND active = 1 RETURNING id`,
			)
			.bind(now, event.id, endpoint.id),
		d1
			.prepare(
				`INSERT INTO events (id, account_id, environment, type, interview_id, test_mode, data, created_at)
				 SELECT ?1, account_id, environment, 'webhook.endpoint.disabled', NULL, test_mode, ?2, ?3
				 FROM webhook_endpoints WHERE id = ?4 AND disabled_event_id = ?1
				 ON CONFLICT DO NOTHING`,
			)
			.bind(event.id, JSON.stringify(event.data), now, endpoint.id),
	]);
	return (updated?.results.length ?? 0) > 0;
}

export function findEndpointById(db: Db, id: string): Promise<EndpointRow | undefined> {
	return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).get();
}

export function markDisabledEventPublished(db: Db, id: string, eventId: string) {
	return db
		.update(webhookEndpoints)
		.set({ disabledEventPublished: true })
		.where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.disabledEventId, eventId)))
		.run();
}

export function findEvent(db: Db, id: string) {
	return db.select().from(events).where(eq(events.id, id)).get();
}
