import { and, asc, eq, inArray, lte } from "drizzle-orm";
import type { Db } from "./client";
import { candidateEmails, events, interviewSeeds, interviews } from "./schema";

/** Sandbox interviews created at or before `cutoff`, oldest first. */
export async function devInterviewsCreatedBefore(db: Db, cutoff: number, limit: number): Promise<string[]> {
	const rows = await db
		.select({ id: interviews.id })
		.from(interviews)
		.where(and(eq(interviews.environment, "dev"), lte(interviews.createdAt, cutoff)))
		.orderBy(asc(interviews.createdAt))
		.limit(limit)
		.all();
	return rows.map((r) => r.id);
}

/** Deletes what D1 holds of these dev interviews: seeds, events, e-mails and the projection row last. */
export async function deleteDevInterviewRows(db: Db, ids: string[]): Promise<void> {
	if (ids.length === 0) return;
	await db.batch([
		db.delete(interviewSeeds).where(inArray(interviewSeeds.id, ids)),
		db.delete(events).where(and(inArray(events.interviewId, ids), eq(events.environment, "dev"))),
		db
			.delete(candidateEmails)
			.where(and(inArray(candidateEmails.interviewId, ids), eq(candidateEmails.environment, "dev"))),
		db.delete(interviews).where(and(inArray(interviews.id, ids), eq(interviews.environment, "dev"))),
	]);
}
