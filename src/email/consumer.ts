import { insertEvent } from "../events/events-repo";
import { getDb } from "../platform/db/client";
import { boundQuery, runBatch, runOne } from "../platform/db/templates";
import { errorReason, errorText } from "../platform/lib/error-text";
import { publishEvents } from "../webhooks/publish";
import { nextRetry, parseRetryDelays } from "./backoff";
import { calendarMethodOf } from "./calendar";
import {
	type CandidateEmailRow,
	claimCandidateEmail,
	getCandidateEmail,
	markCandidateEmailSent,
	recordCandidateEmailFailure,
} from "./email-repo";
import { buildMime } from "./mime";
import { notifiedEvent } from "./notified-event";
import { bindingSender, type EmailSender } from "./sender";
import {
	claimUserEmail,
	getUserEmail,
	markUserEmailSent,
	recordUserEmailFailure,
	withLink,
} from "./user-email";

/** Longer than any one send may take; a crashed consumer's claim expires after it. */
export const SEND_LEASE_MS = 120_000;

export interface EmailConsumerDeps {
	send: EmailSender;
	now: () => number;
	retryDelays: readonly number[];
}

export function defaultEmailDeps(env: Env): EmailConsumerDeps {
	return {
		send: bindingSender(env.EMAIL),
		now: Date.now,
		retryDelays: parseRetryDelays(env.EMAIL_RETRY_DELAYS),
	};
}

/** Consumer of the `interview-emails` queue: sends each referenced e-mail at most once. */
export async function handleEmailBatch(
	batch: MessageBatch,
	env: Env,
	deps: EmailConsumerDeps = defaultEmailDeps(env),
): Promise<void> {
	for (const message of batch.messages) {
		try {
			await processMessage(message, env, deps);
		} catch (error) {
			// D1 or the event hook failed: leave the e-mail as it is and try the message again.
			const next = nextRetry(message.attempts, deps.retryDelays);
			console.error(
				JSON.stringify({
					message: "e-mail processing failed",
					queue_message_id: message.id,
					error: errorText(error),
				}),
			);
			message.retry({ delaySeconds: next.retry ? next.delaySeconds : deps.retryDelays.at(-1) });
		}
	}
}

function referenceOf(body: unknown): { kind: "candidate_email" | "user_email"; id: string } | null {
	if (typeof body !== "object" || body === null) return null;
	const { kind, message_id } = body as Record<string, unknown>;
	if (typeof message_id !== "string") return null;
	return kind === "candidate_email" || kind === "user_email" ? { kind, id: message_id } : null;
}

async function processMessage(message: Message, env: Env, deps: EmailConsumerDeps): Promise<void> {
	const ref = referenceOf(message.body);
	if (ref?.kind === "user_email") return processUserEmail(message, ref.id, env, deps);
	const id = ref?.id ?? null;
	const db = getDb(env.DB);
	const row = id ? await getCandidateEmail(db, id) : null;
	if (!id || !row) {
		console.warn(JSON.stringify({ message: "unknown e-mail message dropped", queue_message_id: message.id }));
		message.ack();
		return;
	}
	if (row.status === "sent") {
		// A repeated delivery: the e-mail went out; make sure its event is recorded and published.
		await recordNotified(env, row, row.sentAt ?? row.updatedAt);
		message.ack();
		return;
	}
	if (row.status === "failed") {
		message.ack();
		return;
	}

	const now = deps.now();
	const claimed = await claimCandidateEmail(db, id, now, SEND_LEASE_MS);
	if (!claimed) {
		// Another delivery of this e-mail is sending it right now; look again after its lease.
		const waitMs = Math.max(1_000, (row.leaseUntil ?? now) - now);
		message.retry({ delaySeconds: Math.ceil(waitMs / 1000) });
		return;
	}
	const attempt = Math.max(claimed.attempts, message.attempts);
	let providerMessageId: string | null;
	try {
		const raw = buildMime({
			from: claimed.sender,
			fromName: claimed.senderName,
			to: claimed.recipient,
			toName: claimed.recipientName,
			subject: claimed.subject,
			text: claimed.text,
			html: claimed.html,
			ics: claimed.ics,
			method: calendarMethodOf(claimed.template),
			messageId: claimed.id,
			date: now,
		});
		({ messageId: providerMessageId } = await deps.send({
			from: claimed.sender,
			to: claimed.recipient,
			raw,
		}));
	} catch (error) {
		await sendFailed(message, deps, attempt, id, error, (reason, final) =>
			recordCandidateEmailFailure(db, id, deps.now(), reason, final),
		);
		return;
	}
	const sentAt = deps.now();
	const event = await notifiedEvent(claimed, sentAt);
	await runBatch(db, [
		boundQuery(db, markCandidateEmailSent(db, id, sentAt, providerMessageId)),
		insertEvent(db, event),
	]);
	await publishEvents(env, [event]);
	message.ack();
}

/**
 * A dashboard user's e-mail (an invitation): the same claim, lease, retries and final failure as a
 * candidate notice, no calendar part and no event. The link is put in only here, in memory, and
 * no log line carries the message's text.
 */
async function processUserEmail(
	message: Message,
	id: string,
	env: Env,
	deps: EmailConsumerDeps,
): Promise<void> {
	const db = getDb(env.DB);
	const row = await getUserEmail(db, id);
	if (row?.status !== "queued") {
		if (!row)
			console.warn(
				JSON.stringify({ message: "unknown e-mail message dropped", queue_message_id: message.id }),
			);
		message.ack();
		return;
	}
	const now = deps.now();
	const claimed = await claimUserEmail(db, id, now, SEND_LEASE_MS);
	if (!claimed) {
		const waitMs = Math.max(1_000, (row.leaseUntil ?? now) - now);
		message.retry({ delaySeconds: Math.ceil(waitMs / 1000) });
		return;
	}
	const attempt = Math.max(claimed.attempts, message.attempts);
	let providerMessageId: string | null;
	try {
		const body = await withLink(env, claimed);
		const raw = buildMime({
			from: claimed.sender,
			fromName: claimed.senderName,
			to: claimed.recipient,
			toName: null,
			subject: claimed.subject,
			text: body.text,
			html: body.html,
			ics: null,
			method: "REQUEST",
			messageId: claimed.id,
			date: now,
		});
		({ messageId: providerMessageId } = await deps.send({
			from: claimed.sender,
			to: claimed.recipient,
			raw,
		}));
	} catch (error) {
		await sendFailed(message, deps, attempt, id, error, (reason, final) =>
			recordUserEmailFailure(db, id, deps.now(), reason, final),
		);
		return;
	}
	await markUserEmailSent(db, id, deps.now(), providerMessageId);
	message.ack();
}

/**
 * A send that failed, for either kind of e-mail: the failure recorded on its row (final when no
 * retry is left), a log line, and the message retried after its backoff or acknowledged.
 */
async function sendFailed(
	message: Message,
	deps: EmailConsumerDeps,
	attempt: number,
	id: string,
	error: unknown,
	record: (reason: string, final: boolean) => Promise<unknown>,
): Promise<void> {
	const next = nextRetry(attempt, deps.retryDelays);
	// Stored on the row and logged: a failed query's values (addresses, links) never reach either.
	const reason = errorReason(error).slice(0, 500);
	await record(reason, !next.retry);
	console.warn(
		JSON.stringify({
			message: "e-mail send failed",
			email_id: id,
			attempt,
			final: !next.retry,
			error: reason,
		}),
	);
	if (next.retry) message.retry({ delaySeconds: next.delaySeconds });
	else message.ack();
}

async function recordNotified(env: Env, row: CandidateEmailRow, sentAt: number): Promise<void> {
	const db = getDb(env.DB);
	const event = await notifiedEvent(row, sentAt);
	await runOne(insertEvent(db, event));
	await publishEvents(env, [event]);
}
