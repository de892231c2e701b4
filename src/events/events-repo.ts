import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { events } from "../db/schema";
import { chunks } from "../lib/chunks";

export interface EventRecord {
	id: string;
	accountId: string;
	environment: "production" | "dev";
	type: string;
	interviewId: string | null;
	testMode: boolean;
	data: Record<string, unknown>;
	createdAt: number;
}

/** Recording an event is idempotent by id, so an outbox retry never duplicates it. */
export function insertEvent(db: Db, event: EventRecord) {
	return db.insert(events).values(event).onConflictDoNothing({ target: events.id });
}

/** Columns bound per event row; a statement holds as many rows as stay within D1's 100 parameters. */
const EVENT_PARAMS = 8;
export const EVENTS_PER_STATEMENT = Math.floor(100 / EVENT_PARAMS);

/** Many events in order, as few statements as D1's parameter limit allows (idempotent by id). */
export function insertEvents(db: Db, records: readonly EventRecord[]) {
	return chunks(records, EVENTS_PER_STATEMENT).map((part) =>
		db.insert(events).values(part).onConflictDoNothing({ target: events.id }),
	);
}

export type EventRow = typeof events.$inferSelect;

export interface EventFilters {
	type?: string;
	interviewId?: string;
}

/** Newest first by recording order (`seq`), keyset-paginated. */
export function listEvents(
	db: Db,
	accountId: string,
	environment: "production" | "dev",
	filters: EventFilters,
	limit: number,
	beforeSeq: number | null,
) {
	const conditions: SQL[] = [eq(events.accountId, accountId), eq(events.environment, environment)];
	if (filters.type) conditions.push(eq(events.type, filters.type));
	if (filters.interviewId) conditions.push(eq(events.interviewId, filters.interviewId));
	if (beforeSeq !== null) conditions.push(lt(events.seq, beforeSeq));
	return db
		.select()
		.from(events)
		.where(and(...conditions))
		.orderBy(desc(events.seq))
		.limit(limit + 1)
		.all();
}

export function findEvent(db: Db, accountId: string, environment: "production" | "dev", id: string) {
	return db
		.select()
		.from(events)
		.where(and(eq(events.id, id), eq(events.accountId, accountId), eq(events.environment, environment)))
		.get();
}
