import { getDb } from "../platform/db/client";
import { inBatches, RETENTION_BATCH, retentionMs } from "../platform/lib/settings";

/**
 * Deletes candidate e-mails sent or given up longer than `EMAIL_RETENTION_DAYS` ago, in
 * batches; queued ones are never touched. The e-mails of an interview that is still a seed are
 * kept: adopting it replays its notices, keyed by message id, and a deleted one would be sent
 * again. Returns the e-mails deleted.
 */
export async function purgeSettledEmails(env: Env, now: number): Promise<number> {
	const d1 = getDb(env.DB).$client;
	const cutoff = now - retentionMs(env, "EMAIL_RETENTION_DAYS");
	// Dashboard users' e-mails (invitations) under the same setting.
	const users = await inBatches(async () => {
		const result = await d1
			.prepare(
				`DELETE FROM user_emails WHERE id IN (SELECT id FROM user_emails
					WHERE status <> 'queued' AND updated_at < ?1 ORDER BY updated_at LIMIT ?2)`,
			)
			.bind(cutoff, RETENTION_BATCH)
			.run();
		return result.meta.changes ?? 0;
	});
	return (
		users +
		(await inBatches(async () => {
			const result = await d1
				.prepare(
					`DELETE FROM candidate_emails WHERE id IN (SELECT m.id FROM candidate_emails m
					WHERE m.status <> 'queued' AND m.updated_at < ?1
					AND NOT EXISTS (SELECT 1 FROM interview_seeds s WHERE s.id = m.interview_id)
					ORDER BY m.updated_at LIMIT ?2)`,
				)
				.bind(cutoff, RETENTION_BATCH)
				.run();
			return result.meta.changes ?? 0;
		}))
	);
}
