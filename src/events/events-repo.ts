import type { Db } from "../db/client";
import { events } from "../db/schema";

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
