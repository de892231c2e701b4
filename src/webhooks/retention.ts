import { getDb } from "../platform/db/client";
import { inBatches, RETENTION_BATCH, retentionMs } from "../platform/lib/settings";

/**
 * Deletes webhook deliveries final for longer than `WEBHOOK_DELIVERY_RETENTION_DAYS` (succeeded,
 * failed or cancelled: `completed_at` is set), with their attempts, in batches. Pending
 * deliveries are never touched. Returns the deliveries deleted.
 */
export function purgeFinalDeliveries(env: Env, now: number): Promise<number> {
	const d1 = getDb(env.DB).$client;
	const cutoff = now - retentionMs(env, "WEBHOOK_DELIVERY_RETENTION_DAYS");
	const old = `SELECT id FROM webhook_deliveries WHERE completed_at IS NOT NULL AND completed_at < ?1
		ORDER BY completed_at LIMIT ?2`;
	return inBatches(async () => {
		// One transaction: the attempts and their deliveries go together.
		const [, deliveries] = await d1.batch([
			d1.prepare(`DELETE FROM webhook_attempts WHERE delivery_id IN (${old})`).bind(cutoff, RETENTION_BATCH),
			d1.prepare(`DELETE FROM webhook_deliveries WHERE id IN (${old})`).bind(cutoff, RETENTION_BATCH),
		]);
		return deliveries?.meta.changes ?? 0;
	});
}
