import { getDb } from "../platform/db/client";
import { inBatches, RETENTION_BATCH, retentionMs } from "../platform/lib/settings";

/**
 * Deletes events older than `EVENT_RETENTION_DAYS`, in batches. The events of an interview that
 * is still a seed (its object never opened) are kept: adopting the seed replays its creation's
 * events, inserted if absent, and a deleted one would be recorded (and delivered) again.
 * Returns the events deleted.
 */
export function purgeOldEvents(env: Env, now: number): Promise<number> {
	const d1 = getDb(env.DB).$client;
	const cutoff = now - retentionMs(env, "EVENT_RETENTION_DAYS");
	return inBatches(async () => {
		const result = await d1
			.prepare(
				`DELETE FROM events WHERE seq IN (SELECT e.seq FROM events e WHERE e.created_at < ?1
					AND (e.interview_id IS NULL OR NOT EXISTS (SELECT 1 FROM interview_seeds s WHERE s.id = e.interview_id))
					ORDER BY e.created_at LIMIT ?2)`,
			)
			.bind(cutoff, RETENTION_BATCH)
			.run();
		return result.meta.changes ?? 0;
	});
}
