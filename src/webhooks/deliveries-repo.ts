import {
	and,
	asc,
	count,
	desc,
	eq,
	inArray,
	isNotNull,
	isNull,
	lt,
	lte,
	ne,
	or,
	type SQL,
	sql,
} from "drizzle-orm";
import type { Db } from "../platform/db/client";
import { afterCursor } from "../platform/db/keyset";
import {
	accounts,
	events,
	webhookAttempts,
	webhookDeliveries,
	webhookEndpoints,
	webhookPreviousSecrets,
} from "../platform/db/schema";
import { type Bound, runBatch, Template } from "../platform/db/templates";
import { chunks } from "../platform/lib/chunks";
import type { Classification } from "./classify";

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;
export type DeliveryOutcome = DeliveryRow["outcome"];

/** Rows per `IN (...)` list: well under D1's 100 bound parameters with the other conditions. */
const IN_CHUNK = 90;

export function insertDelivery(db: Db, row: typeof webhookDeliveries.$inferInsert) {
	return db.insert(webhookDeliveries).values(row).run();
}

/** A delivery waiting for its first queue message. */
export type PendingDelivery = Pick<DeliveryRow, "id" | "endpointId" | "eventId">;

/** Unsent deliveries of the events `whichEvents` selects. */
function unsentOf(db: Db, whichEvents: SQL) {
	return db
		.select({
			id: webhookDeliveries.id,
			endpointId: webhookDeliveries.endpointId,
			eventId: webhookDeliveries.eventId,
		})
		.from(webhookDeliveries)
		.where(and(whichEvents, isNull(webhookDeliveries.enqueuedAt), eq(webhookDeliveries.outcome, "pending")));
}

const pendingOfEvent = new Template<{ eventId: string }>((db) =>
	unsentOf(db, eq(webhookDeliveries.eventId, sql.placeholder("eventId"))),
);

/** The same for a list of events, given as one JSON array parameter (`json_each`): any count, one parameter. */
const pendingOfEvents = new Template<{ eventIds: string }>((db) =>
	unsentOf(
		db,
		inArray(webhookDeliveries.eventId, sql`(select value from json_each(${sql.placeholder("eventIds")}))`),
	),
);

/** Event ids per statement of `pendingOfEvents`: about 30 KB of JSON, far below D1's statement limits. */
export const PENDING_EVENTS_PER_STATEMENT = 1_000;

/**
 * The deliveries of these events still waiting for their first queue message, as batch
 * statements built once: one event (the usual case) by its id; several (the events of a group
 * commit, a join with its start) as a JSON list, up to `PENDING_EVENTS_PER_STATEMENT` a
 * statement. Both search the deliveries' event index for each id.
 */
export function pendingDeliveriesQuery(db: Db, eventIds: readonly string[]): Bound[] {
	if (eventIds.length === 1) return [pendingOfEvent.bind(db, { eventId: eventIds[0] as string })];
	return chunks(eventIds, PENDING_EVENTS_PER_STATEMENT).map((part) =>
		pendingOfEvents.bind(db, { eventIds: JSON.stringify(part) }),
	);
}

/**
 * Runs `statements` in one D1 batch that also reads back the unsent deliveries of `events`
 * (recorded with them by the database), and returns those.
 */
export async function runRecordingEvents(
	db: Db,
	statements: readonly Bound[],
	events: readonly { id: string }[],
): Promise<PendingDelivery[]> {
	const reads = pendingDeliveriesQuery(
		db,
		events.map((event) => event.id),
	);
	const results = await runBatch(db, [...statements, ...reads]);
	return results.slice(statements.length).flatMap((rows) => rows as PendingDelivery[]);
}

/** The deliveries of these events still waiting for their first queue message. */
export async function pendingDeliveriesOf(db: Db, eventIds: readonly string[]): Promise<PendingDelivery[]> {
	return eventIds.length === 0
		? []
		: runRecordingEvents(
				db,
				[],
				eventIds.map((id) => ({ id })),
			);
}

/**
 * Pending deliveries (not test events, which their request sends) that are due and untouched
 * since `before`: never attempted, or whose next attempt was due by then, and whose row nothing
 * changed since (no attempt, no hand-over). Their queue message was lost (a process killed after
 * recording them, a queue that dropped it). Oldest first.
 */
export function dueUntouchedDeliveries(db: Db, before: number, limit: number) {
	return db
		.select({
			id: webhookDeliveries.id,
			endpointId: webhookDeliveries.endpointId,
			eventId: webhookDeliveries.eventId,
			attemptCount: webhookDeliveries.attemptCount,
		})
		.from(webhookDeliveries)
		.where(
			and(
				eq(webhookDeliveries.outcome, "pending"),
				ne(webhookDeliveries.kind, "test"),
				lte(webhookDeliveries.updatedAt, before),
				or(isNull(webhookDeliveries.nextAttemptAt), lte(webhookDeliveries.nextAttemptAt, before)),
			),
		)
		.orderBy(asc(webhookDeliveries.updatedAt))
		.limit(limit)
		.all();
}

/** Records a hand-over to the queue as a touch of the row (`updated_at`), so the next sweep waits. */
export async function touchDeliveries(db: Db, ids: readonly string[], now: number): Promise<void> {
	const statements = chunks([...ids], IN_CHUNK).map((part) =>
		db
			.update(webhookDeliveries)
			.set({ updatedAt: now, enqueuedAt: now })
			.where(and(inArray(webhookDeliveries.id, part), eq(webhookDeliveries.outcome, "pending"))),
	);
	const [first, ...rest] = statements;
	if (first) await db.batch([first, ...rest]);
}

export async function markEnqueued(db: Db, ids: string[], now: number): Promise<void> {
	const statements = chunks(ids, IN_CHUNK).map((part) =>
		db.update(webhookDeliveries).set({ enqueuedAt: now }).where(inArray(webhookDeliveries.id, part)),
	);
	const [first, ...rest] = statements;
	if (first) await db.batch([first, ...rest]);
}

/** The contexts (see `loadDeliveryContext`) of the deliveries `which` selects. */
function contextsWhere(db: Db, which: SQL) {
	return db
		.select({
			delivery: webhookDeliveries,
			endpoint: webhookEndpoints,
			account: { id: accounts.id, name: accounts.companyName, secret: accounts.webhookSecret },
			previous: { secret: webhookPreviousSecrets.secret, expiresAt: webhookPreviousSecrets.expiresAt },
			event: { id: events.id, type: events.type, data: events.data },
		})
		.from(webhookDeliveries)
		.leftJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
		.leftJoin(accounts, eq(accounts.id, webhookDeliveries.accountId))
		.leftJoin(webhookPreviousSecrets, eq(webhookPreviousSecrets.accountId, webhookDeliveries.accountId))
		.leftJoin(events, eq(events.id, webhookDeliveries.eventId))
		.where(which);
}

/** Everything one attempt needs, in one query: the delivery, its endpoint, account, secret, event. */
export function loadDeliveryContext(db: Db, deliveryId: string) {
	return contextsWhere(db, eq(webhookDeliveries.id, deliveryId)).get();
}

export type DeliveryContext = NonNullable<Awaited<ReturnType<typeof loadDeliveryContext>>>;

/**
 * The contexts of a queue batch's deliveries, by delivery id, in one statement of one bound
 * parameter whatever the batch's size: the ids travel as one JSON array read with `json_each`
 * (each still found through the primary key). A select of joined tables cannot go in a D1 batch,
 * whose rows are objects keyed by column name (the tables' `id` columns would merge), so chunked
 * `IN` lists would cost a round trip each. A delivery that no longer exists (its endpoint was
 * deleted) has no entry.
 */
export async function loadDeliveryContexts(
	db: Db,
	deliveryIds: readonly string[],
): Promise<Map<string, DeliveryContext>> {
	const found = new Map<string, DeliveryContext>();
	if (deliveryIds.length === 0) return found;
	const ids = JSON.stringify([...new Set(deliveryIds)]);
	const rows = await contextsWhere(
		db,
		inArray(webhookDeliveries.id, sql`(select value from json_each(${ids}))`),
	).all();
	// One row per delivery: an account has at most one previous secret (its primary key).
	for (const row of rows) if (!found.has(row.delivery.id)) found.set(row.delivery.id, row);
	return found;
}

/**
 * Takes attempt number `attempt` of a pending delivery, once: the statement returns the
 * delivery's id, or no row when that number (or a later one) was already taken, by a second
 * queue message for the same delivery. So every attempt number is made at most once, and a
 * delivery gets at most six attempts however many messages carry it. A statement (not a call)
 * so that a queue batch claims all its attempts in one D1 batch; run in order within it, the
 * second claim of the same number finds the first one's `attempt_count` and takes nothing.
 */
export function claimAttemptStatement(db: Db, id: string, attempt: number, now: number) {
	return db
		.update(webhookDeliveries)
		.set({ attemptCount: attempt, updatedAt: now })
		.where(
			and(
				eq(webhookDeliveries.id, id),
				eq(webhookDeliveries.outcome, "pending"),
				lt(webhookDeliveries.attemptCount, attempt),
			),
		)
		.returning({ id: webhookDeliveries.id });
}

/** A delivery's claim as it stands, to tell whether a claims batch that reported a failure wrote. */
export interface ClaimState {
	id: string;
	outcome: DeliveryOutcome;
	attemptCount: number;
	updatedAt: number;
}

/** These deliveries' claim state (their ids as one JSON parameter, however many). */
export function claimStates(db: Db, ids: readonly string[]): Promise<ClaimState[]> {
	return db
		.select({
			id: webhookDeliveries.id,
			outcome: webhookDeliveries.outcome,
			attemptCount: webhookDeliveries.attemptCount,
			updatedAt: webhookDeliveries.updatedAt,
		})
		.from(webhookDeliveries)
		.where(
			inArray(webhookDeliveries.id, sql`(select value from json_each(${JSON.stringify([...new Set(ids)])}))`),
		)
		.all();
}

/** An attempt found recorded, with its endpoint's failure run now (null: the endpoint is gone). */
export interface RecordedAttempt {
	deliveryId: string;
	attempt: number;
	endpointId: string;
	counters: { consecutiveFailures: number; failingSince: number | null; active: boolean } | null;
}

/**
 * Which of these attempts (delivery and number) have their row, with each endpoint's counters:
 * one statement, the pairs as one JSON parameter, each found through the unique index.
 */
export async function recordedAttempts(
	db: Db,
	attempts: readonly { deliveryId: string; attempt: number }[],
): Promise<RecordedAttempt[]> {
	const pairs = JSON.stringify(attempts.map((a) => [a.deliveryId, a.attempt]));
	const { results } = await db.$client
		.prepare(
			`SELECT a.delivery_id, a.attempt, a.endpoint_id, e.consecutive_failures, e.failing_since, e.active
			FROM json_each(?1) AS j
			JOIN webhook_attempts AS a ON a.delivery_id = j.value ->> 0 AND a.attempt = j.value ->> 1
			LEFT JOIN webhook_endpoints AS e ON e.id = a.endpoint_id`,
		)
		.bind(pairs)
		.all<{
			delivery_id: string;
			attempt: number;
			endpoint_id: string;
			consecutive_failures: number | null;
			failing_since: number | null;
			active: number | null;
		}>();
	return results.map((r) => ({
		deliveryId: r.delivery_id,
		attempt: r.attempt,
		endpointId: r.endpoint_id,
		counters:
			r.active === null
				? null
				: {
						consecutiveFailures: r.consecutive_failures ?? 0,
						failingSince: r.failing_since,
						active: r.active === 1,
					},
	}));
}

export interface AttemptRecord {
	delivery: Pick<DeliveryRow, "id" | "endpointId">;
	attempt: number;
	url: string;
	attemptedAt: number;
	durationMs: number;
	classification: Classification;
	responseBody: string | null;
	nextAttemptAt: number | null;
	/** The delivery's outcome after this attempt. */
	outcome: DeliveryOutcome;
}

/**
 * The attempt row and the delivery's new state. A delivery already settled (by a duplicate
 * message that got there first) keeps its outcome; the attempt is logged all the same. A delivery
 * deleted while its attempt was in flight (its endpoint deleted) gets no attempt row: nothing
 * would ever delete it, since attempts go with their delivery (docs/retention.md).
 */
export function attemptStatements(db: Db, r: AttemptRecord) {
	const finishedAt = r.attemptedAt + r.durationMs;
	const c = r.classification;
	return [
		// Every column in the table's order (`seq` null: the next one).
		db.insert(webhookAttempts).select(
			sql`SELECT NULL, ${r.delivery.id}, ${r.delivery.endpointId}, ${r.attempt}, ${r.url}, ${r.attemptedAt},
					${r.durationMs}, ${c.outcome}, ${c.statusCode}, ${c.errorType}, ${c.error}, ${r.responseBody},
					${r.nextAttemptAt}
				WHERE EXISTS (SELECT 1 FROM ${webhookDeliveries} WHERE ${webhookDeliveries.id} = ${r.delivery.id})`,
		),
		db
			.update(webhookDeliveries)
			.set({
				outcome: r.outcome,
				attemptCount: r.attempt,
				lastStatusCode: r.classification.statusCode,
				lastError: r.classification.error,
				nextAttemptAt: r.nextAttemptAt,
				completedAt: r.outcome === "pending" ? null : finishedAt,
				updatedAt: finishedAt,
			})
			.where(and(eq(webhookDeliveries.id, r.delivery.id), eq(webhookDeliveries.outcome, "pending"))),
	] as const;
}

/**
 * Settles as failed the pending deliveries nothing will attempt again: handed to the queue and
 * untouched since `before` (their message was lost, e.g. dead-lettered while D1 was down), or,
 * for test events (sent by their request, never queued), since `testBefore`. At most `limit`.
 */
export async function failAbandonedDeliveries(
	db: Db,
	before: number,
	testBefore: number,
	limit: number,
	now: number,
): Promise<number> {
	const abandoned = db
		.select({ id: webhookDeliveries.id })
		.from(webhookDeliveries)
		.where(
			and(
				eq(webhookDeliveries.outcome, "pending"),
				isNotNull(webhookDeliveries.enqueuedAt),
				or(
					and(lt(webhookDeliveries.updatedAt, before), lt(webhookDeliveries.enqueuedAt, before)),
					and(eq(webhookDeliveries.kind, "test"), lt(webhookDeliveries.updatedAt, testBefore)),
				),
			),
		)
		.limit(limit);
	const result = await db
		.update(webhookDeliveries)
		.set({
			outcome: "failed",
			lastError: "Abandoned: no attempt was made or recorded for too long",
			nextAttemptAt: null,
			completedAt: now,
			updatedAt: now,
		})
		.where(and(inArray(webhookDeliveries.id, abandoned), eq(webhookDeliveries.outcome, "pending")))
		.run();
	return result.meta.changes ?? 0;
}

/**
 * Settles a delivery that is still pending (one already settled keeps its outcome), as a
 * statement, for a D1 batch: the consumer settles a queue batch's cancelled deliveries in the
 * batch that claims its attempts.
 */
export function settlePendingStatement(
	db: Db,
	id: string,
	outcome: "failed" | "cancelled",
	error: string,
	now: number,
) {
	return db
		.update(webhookDeliveries)
		.set({ outcome, lastError: error, nextAttemptAt: null, completedAt: now, updatedAt: now })
		.where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.outcome, "pending")));
}

export function settlePendingDelivery(
	db: Db,
	id: string,
	outcome: "failed" | "cancelled",
	error: string,
	now: number,
) {
	return settlePendingStatement(db, id, outcome, error, now).run();
}

export function findDelivery(db: Db, endpointId: string, id: string): Promise<DeliveryRow | undefined> {
	return db
		.select()
		.from(webhookDeliveries)
		.where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.endpointId, endpointId)))
		.get();
}

/** Newest first, keyset-paginated; each delivery with all its attempts in order. */
export async function listDeliveries(
	db: Db,
	endpointId: string,
	outcome: DeliveryOutcome | undefined,
	limit: number,
	cursor: { createdAt: number; id: string } | null,
): Promise<{ rows: DeliveryRow[]; attempts: AttemptRow[]; total: number }> {
	const base: SQL[] = [eq(webhookDeliveries.endpointId, endpointId)];
	if (outcome) base.push(eq(webhookDeliveries.outcome, outcome));
	const page = [...base, afterCursor(webhookDeliveries.createdAt, webhookDeliveries.id, cursor)];
	const [rows, totals] = await db.batch([
		db
			.select()
			.from(webhookDeliveries)
			.where(and(...page))
			.orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
			.limit(limit + 1),
		db
			.select({ total: count() })
			.from(webhookDeliveries)
			.where(and(...base)),
	]);
	const attempts = await attemptsOf(
		db,
		rows.slice(0, limit).map((r) => r.id),
	);
	return { rows, attempts, total: totals[0]?.total ?? 0 };
}

export async function attemptsOf(db: Db, deliveryIds: string[]): Promise<AttemptRow[]> {
	const out: AttemptRow[] = [];
	for (const part of chunks(deliveryIds, IN_CHUNK)) {
		out.push(
			...(await db
				.select()
				.from(webhookAttempts)
				.where(inArray(webhookAttempts.deliveryId, part))
				.orderBy(asc(webhookAttempts.seq))
				.all()),
		);
	}
	return out;
}
