import { and, asc, eq, inArray, isNull, lt, lte, or } from "drizzle-orm";
import type { Db } from "../platform/db/client";
import type { candidateEmails, userEmails } from "../platform/db/schema";

/**
 * The sweeps' queries over queued e-mails, for either table that holds them: candidates' notices
 * (`candidate_emails`) and dashboard users' invitations (`user_emails`) share the columns and the
 * rules (docs/email.md).
 */
export type QueuedEmailTable = typeof candidateEmails | typeof userEmails;
// The query builders take one table type: the casts below name candidate_emails' type for either
// table, whose columns (the ones these queries read and write) are the same; the SQL is built from
// the table actually given.

/**
 * Queued e-mails untouched since `before` (or never tried and untouched since `neverTriedBefore`)
 * and held by no consumer: their queue message was lost or dead-lettered after repeated
 * processing failures. Oldest first.
 */
export async function staleQueuedEmails(
	db: Db,
	table: QueuedEmailTable,
	before: number,
	neverTriedBefore: number,
	now: number,
	limit: number,
): Promise<string[]> {
	const rows = await db
		.select({ id: table.id })
		.from(table as typeof candidateEmails)
		.where(
			and(
				eq(table.status, "queued"),
				or(lt(table.updatedAt, before), and(eq(table.attempts, 0), lt(table.updatedAt, neverTriedBefore))),
				or(isNull(table.leaseUntil), lte(table.leaseUntil, now)),
			),
		)
		.orderBy(asc(table.createdAt))
		.limit(limit)
		.all();
	return rows.map((r) => r.id);
}

/** Marks these still-queued e-mails as handed to the queue again at `now`. */
export function touchQueuedEmails(db: Db, table: QueuedEmailTable, ids: string[], now: number) {
	return db
		.update(table as typeof candidateEmails)
		.set({ updatedAt: now })
		.where(and(inArray(table.id, ids), eq(table.status, "queued")))
		.run();
}

/**
 * Gives up on at most `limit` queued e-mails made before `createdBefore` and held by no consumer,
 * oldest first: failed, with why. Returns how many; the caller repeats it while a full `limit` goes.
 */
export async function expireQueuedEmails(
	db: Db,
	table: QueuedEmailTable,
	createdBefore: number,
	now: number,
	reason: string,
	limit: number,
): Promise<number> {
	const expiring = db
		.select({ id: table.id })
		.from(table as typeof candidateEmails)
		.where(
			and(
				eq(table.status, "queued"),
				lt(table.createdAt, createdBefore),
				or(isNull(table.leaseUntil), lte(table.leaseUntil, now)),
			),
		)
		.orderBy(asc(table.createdAt))
		.limit(limit);
	const result = await db
		.update(table as typeof candidateEmails)
		.set({ status: "failed", lastError: reason, leaseUntil: null, updatedAt: now })
		.where(inArray(table.id, expiring))
		.run();
	return result.meta.changes ?? 0;
}
