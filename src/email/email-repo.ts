import { and, asc, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "../platform/db/client";
import { candidateEmails } from "../platform/db/schema";

export type CandidateEmailRow = typeof candidateEmails.$inferSelect;
export type NewCandidateEmail = typeof candidateEmails.$inferInsert;

/** Records a rendered e-mail; returns false when one with this id was recorded before. */
export async function insertCandidateEmail(db: Db, row: NewCandidateEmail): Promise<boolean> {
	const inserted = await db
		.insert(candidateEmails)
		.values(row)
		.onConflictDoNothing({ target: candidateEmails.id })
		.returning({ id: candidateEmails.id });
	return inserted.length > 0;
}

export async function getCandidateEmail(db: Db, id: string): Promise<CandidateEmailRow | null> {
	const rows = await db.select().from(candidateEmails).where(eq(candidateEmails.id, id)).limit(1);
	return rows[0] ?? null;
}

/**
 * Of these message ids, as a batch statement, those with no e-mail recorded (the ids as one JSON
 * parameter, however many): the notices an earlier change owed and never queued.
 */
export function unrecordedEmails(
	db: Db,
	ids: readonly string[],
): { statement: D1PreparedStatement; read(result: D1Result): string[] } {
	const statement = db.$client
		.prepare(
			"SELECT j.value AS id FROM json_each(?1) AS j WHERE NOT EXISTS (SELECT 1 FROM candidate_emails AS c WHERE c.id = j.value)",
		)
		.bind(JSON.stringify(ids));
	return { statement, read: (result) => (result.results as { id: string }[]).map((row) => row.id) };
}

/** The e-mails of one interview, oldest first. */
export function listCandidateEmails(db: Db, interviewId: string): Promise<CandidateEmailRow[]> {
	return db
		.select()
		.from(candidateEmails)
		.where(eq(candidateEmails.interviewId, interviewId))
		.orderBy(asc(candidateEmails.createdAt), asc(candidateEmails.id));
}

/**
 * Takes a queued e-mail for one send attempt: counts the attempt and holds a lease so that a
 * second delivery of the same queue message cannot send it concurrently. Null when the e-mail
 * is no longer queued or another consumer holds it.
 */
export async function claimCandidateEmail(
	db: Db,
	id: string,
	now: number,
	leaseMs: number,
): Promise<CandidateEmailRow | null> {
	const rows = await db
		.update(candidateEmails)
		.set({
			attempts: sql`${candidateEmails.attempts} + 1`,
			leaseUntil: now + leaseMs,
			updatedAt: now,
		})
		.where(
			and(
				eq(candidateEmails.id, id),
				eq(candidateEmails.status, "queued"),
				or(isNull(candidateEmails.leaseUntil), lte(candidateEmails.leaseUntil, now)),
			),
		)
		.returning();
	return rows[0] ?? null;
}

export function markCandidateEmailSent(db: Db, id: string, sentAt: number, providerMessageId: string | null) {
	return db
		.update(candidateEmails)
		.set({
			status: "sent",
			sentAt,
			providerMessageId,
			lastError: null,
			leaseUntil: null,
			updatedAt: sentAt,
		})
		.where(eq(candidateEmails.id, id));
}

/** Notes a failed attempt and releases the lease; `final` marks the e-mail failed for good. */
export function recordCandidateEmailFailure(db: Db, id: string, now: number, error: string, final: boolean) {
	return db
		.update(candidateEmails)
		.set({
			...(final ? { status: "failed" as const } : {}),
			lastError: error,
			leaseUntil: null,
			updatedAt: now,
		})
		.where(and(eq(candidateEmails.id, id), eq(candidateEmails.status, "queued")));
}
