import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import type { Db } from "../platform/db/client";
import { events } from "../platform/db/schema";
import { type Bound, JsonRowsTemplate, RowsTemplate } from "../platform/db/templates";

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

/** An event row's columns. */
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
/** Recording an event is idempotent by id, so an outbox retry never duplicates it. */
const eventRows = new RowsTemplate<typeof events.$inferInsert, (typeof EVENT_COLUMNS)[number]>(
	1,
	EVENT_COLUMNS,
	(db, rows) => db.insert(events).values(rows).onConflictDoNothing({ target: events.id }),
);

export function insertEvent(db: Db, event: EventRecord): Bound {
	return eventRows.bind(db, [event]);
}

const eventJsonRows = new JsonRowsTemplate<typeof events.$inferInsert, (typeof EVENT_COLUMNS)[number]>(
	EVENT_COLUMNS,
	(db, row) => db.insert(events).values(row).onConflictDoNothing({ target: events.id }),
);

/** Many events in order, their rows as one JSON parameter (a hundred per statement; idempotent by id). */
export function insertEvents(db: Db, records: readonly EventRecord[]): Bound[] {
	return eventJsonRows.bind(db, records);
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
