import { getDb } from "../platform/db/client";
import { purgeExpiredKeys } from "./idempotency-repo";

const KEY_PURGE_BATCH = 500;
/** Work per cron run is bounded; what is left waits for the next run (every 15 minutes). */
const MAX_KEY_PURGE_BATCHES = 20;

/** Deletes idempotency keys past their 24 hours. Returns how many were deleted. */
export async function sweepIdempotencyKeys(env: Env, now: number): Promise<number> {
	const db = getDb(env.DB);
	let purged = 0;
	for (let batch = 0; batch < MAX_KEY_PURGE_BATCHES; batch++) {
		const n = await purgeExpiredKeys(db, now, KEY_PURGE_BATCH);
		purged += n;
		if (n < KEY_PURGE_BATCH) break;
	}
	return purged;
}
