import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import type { Db } from "../platform/db/client";
import { events } from "../platform/db/schema";
import { type Bound, RowsTemplate } from "../platform/db/templates";
import { chunks } from "../platform/lib/chunks";

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

/** Columns bound per event row; a statement holds as many rows as stay within D1's 100 parameters. */
const EVENT_COLUMNS = [
	"id",
	"accountId",
	"environment",
	"type",
	"interviewId",
	"testMode",
	"data",
	"createdAt",
] as const satisfies readonly (keyof EventRecord)[];
export const EVENTS_PER_STATEMENT = Math.floor(100 / EVENT_COLUMNS.length);

/** Recording an event is idempotent by id, so an outbox retry never duplicates it. */
const eventRows = new RowsTemplate<typeof events.$inferInsert, (typeof EVENT_COLUMNS)[number]>(
	EVENTS_PER_STATEMENT,
	EVENT_COLUMNS,
	(db, rows) => db.insert(events).values(rows).onConflictDoNothing({ target: events.id }),
);

export function insertEvent(db: Db, event: EventRecord): Bound {
	return eventRows.bind(db, [event]);
}

/** Many events in order, as few statements as D1's parameter limit allows (idempotent by id). */
export function insertEvents(db: Db, records: readonly EventRecord[]): Bound[] {
	return chunks(records, EVENTS_PER_STATEMENT).map((part) => eventRows.bind(db, part));
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
