import { z } from "zod";
import { getDb } from "../platform/db/client";
import { CANDIDATE_EMAIL_TEMPLATES } from "../platform/db/schema-email";
import { issueFields } from "../platform/http/validation";
import { chunks } from "../platform/lib/chunks";
import { cutText } from "../platform/lib/text";
import { renderCalendar } from "./calendar";
import { getCandidateEmail, insertCandidateEmail } from "./email-repo";
import { printableDetails } from "./format";
import { senderAddress, senderName } from "./identity";
import type { CandidateEmailRequest, EmailQueueMessage, NoticeDetails, QueueEmailResult } from "./model";
import { EARLY_JOIN_MINUTES, renderNotice } from "./templates";

const request = z.object({
	// Also used in the Message-ID header and to derive the event id: keep it header-safe.
	messageId: z
		.string()
		.min(1)
		.max(100)
		.regex(/^[A-Za-z0-9._-]+$/, { error: "Must use only letters, digits, '.', '_' and '-'" }),
	interviewId: z.string().min(1).max(100),
	accountId: z.string().min(1).max(100),
	environment: z.enum(["production", "dev"]),
	testMode: z.boolean(),
	template: z.enum(CANDIDATE_EMAIL_TEMPLATES),
	to: z.email(),
	candidateName: z.string().max(200).nullable(),
	companyName: z.string().max(200).nullable(),
	position: z.string().min(1).max(200),
	skills: z.array(z.string().max(100)).max(25).optional(),
	scheduledAt: z.number().int(),
	durationMinutes: z.number().int().min(1).max(1440),
	interviewUrl: z.url({ protocol: /^https?$/ }),
	sequence: z.number().int().min(0),
	calendarGeneration: z.number().int().min(0).optional(),
	addressReplaced: z.boolean().optional(),
	// Never refused for length: a notice is not dropped over a long reason, it is shortened.
	reason: z.string().nullable().optional(),
});

const MAX_REASON_CHARS = 2000;

function shorten(reason: string | null | undefined): string | null {
	const text = reason?.trim();
	if (!text) return null;
	return text.length > MAX_REASON_CHARS ? `${cutText(text, MAX_REASON_CHARS - 1)}…` : text;
}

/** Whether a notice is ever sent: test-mode interviews and dev keys' sandbox send none. */
export function noticeIsSent(input: Pick<CandidateEmailRequest, "testMode" | "environment">): boolean {
	return !input.testMode && input.environment !== "dev";
}

/**
 * Records a candidate notice, rendered (subject, text, HTML, `.ics`), in D1 and hands a
 * reference to the `interview-emails` queue, whose consumer sends it. Call it after the change
 * that the notice describes has been committed.
 *
 * Idempotent by `messageId`: a retry after a crash records nothing new and only re-queues the
 * e-mail when it is still unsent (the consumer never sends one message twice in a row). Throws
 * only when D1 or the queue fails, so the caller's outbox can try again later.
 */
export async function queueCandidateEmail(
	env: Env,
	input: CandidateEmailRequest,
	now: number = Date.now(),
): Promise<QueueEmailResult> {
	if (!noticeIsSent(input))
		return { status: "skipped", reason: input.testMode ? "test_mode" : "dev_environment" };
	const parsed = request.safeParse(input);
	if (!parsed.success) return { status: "invalid", issues: issueFields(parsed.error.issues) };
	const req = parsed.data;
	const db = getDb(env.DB);

	// Free text as callers sent it, without control characters: no part has a place for them.
	const details: NoticeDetails = printableDetails({
		template: req.template,
		interviewId: req.interviewId,
		candidateEmail: req.to,
		candidateName: req.candidateName,
		companyName: req.companyName,
		position: req.position,
		skills: req.skills ?? [],
		scheduledAt: req.scheduledAt,
		durationMinutes: req.durationMinutes,
		interviewUrl: req.interviewUrl,
		sequence: req.sequence,
		reason: shorten(req.reason),
		calendarGeneration: req.calendarGeneration ?? 0,
		addressReplaced: req.addressReplaced ?? false,
		openAtSend: now >= req.scheduledAt - EARLY_JOIN_MINUTES * 60_000,
	});
	const from = senderAddress(env);
	const fromName = senderName(details.companyName);
	const notice = renderNotice(details);
	const ics = renderCalendar({ details, organizerEmail: from, organizerName: fromName, now });
	const inserted = await insertCandidateEmail(db, {
		id: req.messageId,
		interviewId: req.interviewId,
		accountId: req.accountId,
		environment: req.environment,
		template: req.template,
		sender: from,
		senderName: fromName,
		recipient: req.to,
		recipientName: details.candidateName,
		subject: notice.subject,
		text: notice.text,
		html: notice.html,
		ics,
		sequence: req.sequence,
		status: "queued",
		attempts: 0,
		createdAt: now,
		updatedAt: now,
	});
	if (!inserted) {
		// A retry, or a concurrent call with the same id, recorded it first: rendering it again was
		// wasted, but the first call (the common case) costs one statement instead of two.
		const row = await getCandidateEmail(db, req.messageId);
		return requeueIfUnsent(env, req.messageId, row?.status ?? "queued");
	}
	await enqueue(env, req.messageId);
	return { status: "queued", messageId: req.messageId };
}

async function requeueIfUnsent(
	env: Env,
	messageId: string,
	emailStatus: "queued" | "sent" | "failed",
): Promise<QueueEmailResult> {
	if (emailStatus === "queued") await enqueue(env, messageId);
	return { status: "duplicate", messageId, emailStatus };
}

function queueMessage(messageId: string): EmailQueueMessage {
	return { kind: "candidate_email", message_id: messageId };
}

async function enqueue(env: Env, messageId: string): Promise<void> {
	await env.EMAIL_QUEUE.send(queueMessage(messageId), { contentType: "json" });
}

/** Hands recorded e-mails to the queue again (the housekeeping's resend of stale ones). */
export async function enqueueAgain(env: Env, messageIds: readonly string[]): Promise<void> {
	for (const part of chunks(messageIds, 100)) {
		await env.EMAIL_QUEUE.sendBatch(
			part.map((id) => ({ body: queueMessage(id), contentType: "json" as const })),
		);
	}
}
