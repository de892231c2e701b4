import type { EventRecord } from "../events/events-repo";
import { iso } from "../platform/lib/time";
import type { CandidateEmailRow } from "./email-repo";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * The `candidate.notified` event id of one e-mail: `evt_` and 24 base62 characters derived from
 * the message id, so however often a message is processed, the event log holds it once.
 */
export async function notifiedEventId(messageId: string): Promise<string> {
	const digest = await crypto.subtle.digest(
		"SHA-256",
		new TextEncoder().encode(`candidate.notified:${messageId}`),
	);
	let n = 0n;
	for (const byte of new Uint8Array(digest)) n = (n << 8n) | BigInt(byte);
	let out = "";
	for (let i = 0; i < 24; i++) {
		out += BASE62[Number(n % 62n)];
		n /= 62n;
	}
	return `evt_${out}`;
}

/** The event recorded when the e-mail binding accepted the message. */
export async function notifiedEvent(row: CandidateEmailRow, sentAt: number): Promise<EventRecord> {
	return {
		id: await notifiedEventId(row.id),
		accountId: row.accountId,
		environment: row.environment,
		type: "candidate.notified",
		interviewId: row.interviewId,
		// Test-mode interviews never queue e-mail, so a sent notice is never a test one.
		testMode: false,
		data: {
			interview_id: row.interviewId,
			message_id: row.id,
			template: row.template,
			recipient: row.recipient,
			sent_at: iso(sentAt),
			test_mode: false,
		},
		createdAt: sentAt,
	};
}
