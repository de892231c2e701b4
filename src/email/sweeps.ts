import { getDb } from "../platform/db/client";
import { candidateEmails, userEmails } from "../platform/db/schema";
import { chunks } from "../platform/lib/chunks";
import { errorText } from "../platform/lib/error-text";
import { inBatches, RETENTION_BATCH } from "../platform/lib/settings";
import { DEFAULT_RESEND_AFTER_S, resendAfterMs } from "../webhooks/resend";
import { enqueueAgain } from "./queue-email";
import {
	expireQueuedEmails,
	type QueuedEmailTable,
	staleQueuedEmails,
	touchQueuedEmails,
} from "./queued-emails";
import { userEmailQueueMessages } from "./user-email";

/**
 * A queued e-mail untouched this long lost its queue message (or it was dead-lettered): longer
 * than the consumer's longest retry delay (2 hours by default), so a pending retry is not raced.
 */
export const EMAIL_STALE_MS = 3 * 60 * 60_000;
/**
 * A queued e-mail no consumer ever tried, this long after it was recorded or last handed over:
 * its hand-over to the queue was lost (the Worker stopped between recording it and sending the
 * message), since a consumer takes a message within seconds. Handed over again; a duplicate
 * reference is harmless (the consumer's lease and the row's status). `DELIVERY_RESEND_AFTER_S`
 * sets it, as for webhook deliveries (`resendAfterMs`); this is the default.
 */
export const EMAIL_NEVER_TRIED_MS = DEFAULT_RESEND_AFTER_S * 1000;
/** A notice not sent within a day is given up (failed): the interview it describes has moved on. */
export const EMAIL_GIVE_UP_MS = 24 * 60 * 60_000;
const MAX_EMAILS_RESENT = 500;

/**
 * Queued e-mails nothing is sending: older than a day they are marked failed; otherwise, untouched
 * for three hours, they are handed to the queue again (the consumer's lease and status checks
 * make a second message harmless). Candidates' e-mails and dashboard users' e-mails are swept
 * side by side: one table failing is logged and does not stop the other.
 */
export async function sweepStaleEmails(env: Env, now: number): Promise<{ resent: number; givenUp: number }> {
	const db = getDb(env.DB);
	const halves = await Promise.allSettled([
		sweepTable(env, candidateEmails, now, async (ids) => {
			if (ids.length === 0) return;
			await enqueueAgain(env, ids);
			for (const part of chunks(ids, 90)) await touchQueuedEmails(db, candidateEmails, part, now);
		}),
		// Dashboard users' invitations: the same rules, their own table and queue message.
		sweepTable(env, userEmails, now, async (ids) => {
			for (const part of chunks(ids, 90)) {
				await env.EMAIL_QUEUE.sendBatch(userEmailQueueMessages(part));
				await touchQueuedEmails(db, userEmails, part, now);
			}
		}),
	]);
	const report = { resent: 0, givenUp: 0 };
	for (const [i, half] of halves.entries()) {
		if (half.status === "fulfilled") {
			report.resent += half.value.resent;
			report.givenUp += half.value.givenUp;
		} else {
			console.error(
				JSON.stringify({
					message: "stale e-mail sweep failed",
					table: i === 0 ? "candidate_emails" : "user_emails",
					error: errorText(half.reason),
				}),
			);
		}
	}
	return report;
}

/**
 * One table's sweep. Giving up goes first, so that what is a day old is not handed over again, in
 * statements of at most `RETENTION_BATCH` rows and at most `RETENTION_MAX_BATCHES` of them per run
 * (`inBatches`): a backlog (the queue down for a day) is worked off over several runs instead of
 * one statement long enough to time out on every run.
 */
async function sweepTable(
	env: Env,
	table: QueuedEmailTable,
	now: number,
	resend: (ids: string[]) => Promise<void>,
): Promise<{ resent: number; givenUp: number }> {
	const db = getDb(env.DB);
	const givenUp = await inBatches(() =>
		expireQueuedEmails(db, table, now - EMAIL_GIVE_UP_MS, now, "Not sent within 24 hours", RETENTION_BATCH),
	);
	const ids = await staleQueuedEmails(
		db,
		table,
		now - EMAIL_STALE_MS,
		now - resendAfterMs(env),
		now,
		MAX_EMAILS_RESENT,
	);
	await resend(ids);
	return { resent: ids.length, givenUp };
}
