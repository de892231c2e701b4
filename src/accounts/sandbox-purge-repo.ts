import { and, asc, eq, inArray, lte } from "drizzle-orm";
import type { Db } from "../platform/db/client";
import { candidateEmails, events, interviewSeeds, interviews } from "../platform/db/schema";

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

/**
 * Dev data that is not an interview's, older than `cutoff`, up to `limit` rows of each kind per
 * call: deliveries to dev endpoints with their attempts, and dev events about no interview
 * (`webhook.endpoint.disabled`). Returns the rows deleted (deliveries + events).
 */
export async function deleteDevLeftovers(db: Db, cutoff: number, limit: number): Promise<number> {
	const d1 = db.$client;
	const deliveries = `SELECT d.id FROM webhook_deliveries d
		WHERE d.endpoint_id IN (SELECT id FROM webhook_endpoints WHERE environment = 'dev') AND d.created_at < ?1
		ORDER BY d.created_at, d.id LIMIT ?2`;
	const [, deletedDeliveries, deletedEvents] = await d1.batch([
		d1.prepare(`DELETE FROM webhook_attempts WHERE delivery_id IN (${deliveries})`).bind(cutoff, limit),
		d1.prepare(`DELETE FROM webhook_deliveries WHERE id IN (${deliveries})`).bind(cutoff, limit),
		d1
			.prepare(
				`DELETE FROM events WHERE seq IN (SELECT seq FROM events
				 WHERE interview_id IS NULL AND environment = 'dev' AND created_at < ?1 LIMIT ?2)`,
			)
			.bind(cutoff, limit),
	]);
	return (deletedDeliveries?.meta.changes ?? 0) + (deletedEvents?.meta.changes ?? 0);
}
