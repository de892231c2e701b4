import { getDb } from "../platform/db/client";
import { candidateEmails, userEmails } from "../platform/db/schema";
import { chunks } from "../platform/lib/chunks";
import { DEFAULT_RESEND_AFTER_S, resendAfterMs } from "../webhooks/resend";
import { enqueueAgain } from "./queue-email";
import { expireQueuedEmails, staleQueuedEmails, touchQueuedEmails } from "./queued-emails";
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
 * make a second message harmless).
 */
export async function sweepStaleEmails(env: Env, now: number): Promise<{ resent: number; givenUp: number }> {
	const db = getDb(env.DB);
	const givenUp = await expireQueuedEmails(
		db,
		candidateEmails,
		now - EMAIL_GIVE_UP_MS,
		now,
		"Not sent within 24 hours",
	);
	const ids = await staleQueuedEmails(
		db,
		candidateEmails,
		now - EMAIL_STALE_MS,
		now - resendAfterMs(env),
		now,
		MAX_EMAILS_RESENT,
	);
	if (ids.length > 0) {
		await enqueueAgain(env, ids);
		for (const part of chunks(ids, 90)) await touchQueuedEmails(db, candidateEmails, part, now);
	}
	// Dashboard users' invitations: the same rules, their own table.
	const userGivenUp = await expireQueuedEmails(
		db,
		userEmails,
		now - EMAIL_GIVE_UP_MS,
		now,
		"Not sent within 24 hours",
	);
	const userIds = await staleQueuedEmails(
		db,
		userEmails,
		now - EMAIL_STALE_MS,
		now - resendAfterMs(env),
		now,
		MAX_EMAILS_RESENT,
	);
	for (const part of chunks(userIds, 90)) {
		await env.EMAIL_QUEUE.sendBatch(userEmailQueueMessages(part));
		await touchQueuedEmails(db, userEmails, part, now);
	}
	return { resent: ids.length + userIds.length, givenUp: givenUp + userGivenUp };
}
