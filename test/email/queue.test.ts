import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { type EmailConsumerDeps, handleEmailBatch, SEND_LEASE_MS } from "../../src/email/consumer";
import { claimCandidateEmail, getCandidateEmail, listCandidateEmails } from "../../src/email/email-repo";
import type { CandidateEmailRequest, EmailQueueMessage } from "../../src/email/model";
import { notifiedEventId } from "../../src/email/notified-event";
import { queueCandidateEmail } from "../../src/email/queue-email";
import type { OutgoingEmail } from "../../src/email/sender";
import {
	EMAIL_GIVE_UP_MS,
	EMAIL_NEVER_TRIED_MS,
	EMAIL_STALE_MS,
	sweepStaleEmails,
} from "../../src/email/sweeps";
import { getDb } from "../../src/platform/db/client";
import { events } from "../../src/platform/db/schema";
import { newId } from "../../src/platform/lib/random";
import { RETENTION_BATCH } from "../../src/platform/lib/settings";
import { handleQueueBatch } from "../../src/queues";
import { parseIcs, parseMime, SCHEDULED_AT } from "../support/email";
import { withUpdatesRefused } from "../support/helpers";

const NOW = Date.UTC(2026, 10, 21, 10, 0, 0);
const db = getDb(env.DB);

/**
 * The real D1 with a producer that records instead of delivering: a message handed to the real
 * queue would also reach the Worker's own consumer in the background, racing the test's
 * explicit, deterministic call of the consumer.
 */
function recordingQueueEnv(): { env: Env; queued: EmailQueueMessage[] } {
	const queued: EmailQueueMessage[] = [];
	const queue = {
		send: async (body: EmailQueueMessage) => {
			queued.push(body);
		},
		sendBatch: async () => {
			throw new Error("not used");
		},
	} as unknown as Queue;
	return { env: { ...env, EMAIL_QUEUE: queue } as Env, queued };
}

/** A transport that records what it was given, failing the first `failures` sends. */
function capturingSender(failures = 0) {
	const calls: OutgoingEmail[] = [];
	let remaining = failures;
	const send = async (email: OutgoingEmail) => {
		calls.push(email);
		if (remaining > 0) {
			remaining--;
			throw new Error("550 mailbox unavailable");
		}
		return { messageId: `provider-${calls.length}` };
	};
	return { calls, send };
}

function deps(
	send: EmailConsumerDeps["send"],
	overrides: Partial<EmailConsumerDeps> = {},
): EmailConsumerDeps {
	return { send, now: () => NOW, retryDelays: [30, 120, 600, 1800, 7200], ...overrides };
}

function emailRequest(overrides: Partial<CandidateEmailRequest> = {}): CandidateEmailRequest {
	const interviewId = overrides.interviewId ?? newId("int");
	return {
		messageId: newId("msg"),
		interviewId,
		accountId: newId("acc"),
		environment: "production",
		testMode: false,
		template: "invitation",
		to: "grace@example.com",
		candidateName: "Grace Hopper",
		companyName: "Initech",
		position: "Platform Engineer",
		skills: ["Go", "Kubernetes"],
		scheduledAt: SCHEDULED_AT,
		durationMinutes: 30,
		interviewUrl: `https://app.example.test/join/${interviewId}?token=tok123`,
		sequence: 0,
		...overrides,
	};
}

/** Runs the consumer on one queue message, as a delivery with the given attempt number. */
async function deliver(
	body: EmailQueueMessage,
	consumerDeps: EmailConsumerDeps | null,
	attempts = 1,
	handlerEnv: Env = env,
) {
	const batch = createMessageBatch<EmailQueueMessage>("interview-emails", [
		{ id: newId("msg"), timestamp: new Date(NOW), attempts, body },
	]);
	const ctx = createExecutionContext();
	if (consumerDeps) await handleEmailBatch(batch, handlerEnv, consumerDeps);
	else await handleQueueBatch(batch, handlerEnv);
	return getQueueResult(batch, ctx);
}

async function notifiedEvents(interviewId: string) {
	const rows = await db.select().from(events).where(eq(events.interviewId, interviewId));
	return rows.filter((row) => row.type === "candidate.notified");
}

describe("queueing candidate e-mail", () => {
	it("records the rendered e-mail and queues a reference to it", async () => {
		const { env: testEnv, queued } = recordingQueueEnv();
		const req = emailRequest();
		const result = await queueCandidateEmail(testEnv, req, NOW);
		expect(result).toEqual({ status: "queued", messageId: req.messageId });
		expect(queued).toEqual([{ kind: "candidate_email", message_id: req.messageId }]);
		const row = await getCandidateEmail(db, req.messageId);
		expect(row).toMatchObject({
			interviewId: req.interviewId,
			accountId: req.accountId,
			template: "invitation",
			recipient: "grace@example.com",
			sender: "interviews@example.com",
			subject: "Interview invitation: Platform Engineer at Initech",
			status: "queued",
			attempts: 0,
			sequence: 0,
			createdAt: NOW,
			sentAt: null,
		});
		expect(row?.text).toContain(req.interviewUrl);
		expect(row?.html).toContain(req.interviewUrl);
		expect(parseIcs(row?.ics ?? "").method).toBe("REQUEST");
	});

	it("keeps control characters a caller sent out of every part, the calendar included", async () => {
		const req = emailRequest({
			position: "QA\u0007Lead",
			companyName: "Acme\u0000Corp",
			candidateName: "Ada\u001bL",
			template: "cancellation",
			reason: "Role\u007f closed\u000b",
			skills: ["S\u0008QL"],
		});
		expect((await queueCandidateEmail(env, req, NOW)).status).toBe("queued");
		const row = await getCandidateEmail(db, req.messageId);
		const control = /[\p{Cc}]/u;
		for (const part of [row?.subject, row?.text, row?.html, row?.ics, row?.senderName, row?.recipientName]) {
			expect(String(part).replace(/[\r\n\t]/g, "")).not.toMatch(control);
		}
		expect(row?.text).toContain("QALead");
		expect(row?.ics).toContain("QALead");
	});

	it("hands the message to the real e-mail queue", async () => {
		const req = emailRequest();
		expect(await queueCandidateEmail(env, req, NOW)).toEqual({ status: "queued", messageId: req.messageId });
		expect(await getCandidateEmail(db, req.messageId)).not.toBeNull();
	});

	it("records one e-mail per message id however often the caller retries", async () => {
		const { env: testEnv, queued } = recordingQueueEnv();
		const req = emailRequest();
		await queueCandidateEmail(testEnv, req, NOW);
		const again = await queueCandidateEmail(testEnv, { ...req, position: "Changed" }, NOW + 1_000);
		expect(again).toEqual({ status: "duplicate", messageId: req.messageId, emailStatus: "queued" });
		// Still unsent, so it is queued again in case the first hand-over was lost.
		expect(queued).toHaveLength(2);
		const rows = await listCandidateEmails(db, req.interviewId);
		expect(rows).toHaveLength(1);
		expect(rows[0]?.subject).toContain("Platform Engineer");

		const sender = capturingSender();
		await deliver(queued[0]!, deps(sender.send));
		const afterSend = await queueCandidateEmail(testEnv, req, NOW + 2_000);
		expect(afterSend).toEqual({ status: "duplicate", messageId: req.messageId, emailStatus: "sent" });
		expect(queued).toHaveLength(2);
	});

	it("sends nothing in test mode or for dev data", async () => {
		const { env: testEnv, queued } = recordingQueueEnv();
		const testMode = emailRequest({ testMode: true });
		const dev = emailRequest({ environment: "dev" });
		expect(await queueCandidateEmail(testEnv, testMode, NOW)).toEqual({
			status: "skipped",
			reason: "test_mode",
		});
		expect(await queueCandidateEmail(testEnv, dev, NOW)).toEqual({
			status: "skipped",
			reason: "dev_environment",
		});
		expect(queued).toHaveLength(0);
		expect(await getCandidateEmail(db, testMode.messageId)).toBeNull();
		expect(await getCandidateEmail(db, dev.messageId)).toBeNull();
	});

	it("shortens a very long reason instead of dropping the notice", async () => {
		const { env: testEnv } = recordingQueueEnv();
		const req = emailRequest({ template: "cancellation", reason: "x".repeat(5000) });
		expect((await queueCandidateEmail(testEnv, req, NOW)).status).toBe("queued");
		const row = await getCandidateEmail(db, req.messageId);
		expect(row?.text).toContain(`Reason given: ${"x".repeat(1999)}…`);
		expect(row?.text).not.toContain("x".repeat(2000));
	});

	it("refuses a malformed request without recording anything", async () => {
		const { env: testEnv, queued } = recordingQueueEnv();
		const req = emailRequest({ to: "not-an-address", interviewUrl: "javascript:alert(1)" });
		const result = await queueCandidateEmail(testEnv, req, NOW);
		expect(result.status).toBe("invalid");
		expect(result.status === "invalid" && Object.keys(result.issues).sort()).toEqual(["interviewUrl", "to"]);
		expect(queued).toHaveLength(0);
		expect(await getCandidateEmail(db, req.messageId)).toBeNull();
	});
});

describe("sending candidate e-mail from the queue", () => {
	it("sends invitation, reschedule and cancellation as recorded, each with its calendar update", async () => {
		const { env: testEnv, queued } = recordingQueueEnv();
		const interviewId = newId("int");
		const base = emailRequest({ interviewId });
		const later = SCHEDULED_AT + 3 * 86_400_000;
		await queueCandidateEmail(testEnv, base, NOW);
		await queueCandidateEmail(
			testEnv,
			{
				...base,
				messageId: newId("msg"),
				template: "update",
				scheduledAt: later,
				durationMinutes: 60,
				sequence: 2,
				reason: "The panel moved to Thursday.",
			},
			NOW + 1_000,
		);
		await queueCandidateEmail(
			testEnv,
			{
				...base,
				messageId: newId("msg"),
				template: "cancellation",
				scheduledAt: later,
				durationMinutes: 60,
				sequence: 3,
				reason: "The position has been filled.",
			},
			NOW + 2_000,
		);
		const sender = capturingSender();
		for (const body of queued) {
			const result = await deliver(body, deps(sender.send));
			expect(result.explicitAcks).toHaveLength(1);
			expect(result.retryMessages).toEqual([]);
		}

		const rows = await listCandidateEmails(db, interviewId);
		expect(rows.map((r) => [r.template, r.status, r.attempts])).toEqual([
			["invitation", "sent", 1],
			["update", "sent", 1],
			["cancellation", "sent", 1],
		]);
		expect(sender.calls).toHaveLength(3);
		const expected = [
			{
				method: "REQUEST",
				sequence: 0,
				start: SCHEDULED_AT,
				minutes: 30,
				subject: "Interview invitation: Platform Engineer at Initech",
			},
			{
				method: "REQUEST",
				sequence: 2,
				start: later,
				minutes: 60,
				subject: "Updated: your interview for Platform Engineer at Initech",
			},
			{
				method: "CANCEL",
				sequence: 3,
				start: later,
				minutes: 60,
				subject: "Cancelled: your interview for Platform Engineer at Initech",
			},
		];
		const uids = new Set<string>();
		for (const [i, call] of sender.calls.entries()) {
			const row = rows[i]!;
			const want = expected[i]!;
			expect(call.from).toBe("interviews@example.com");
			expect(call.to).toBe("grace@example.com");
			const mail = await parseMime(call.raw);
			expect(mail.to).toEqual([{ address: "grace@example.com", name: "Grace Hopper" }]);
			expect(mail.from).toEqual({ address: "interviews@example.com", name: "Initech (via Interviews)" });
			expect(mail.subject).toBe(want.subject);
			expect(mail.subject).toBe(row.subject);
			expect(mail.text?.trim()).toBe(row.text.trim());
			expect(mail.html?.trim()).toBe(row.html.trim());
			expect(mail.text).toContain(base.interviewUrl);
			expect(mail.html).toContain(base.interviewUrl);
			expect(mail.attachments).toHaveLength(1);
			expect(mail.attachments[0]?.method).toBe(want.method);
			const event = parseIcs(String(mail.attachments[0]?.content));
			expect(event.method).toBe(want.method);
			expect(event.sequence).toBe(want.sequence);
			expect(event.start.getTime()).toBe(want.start);
			expect(event.end.getTime() - event.start.getTime()).toBe(want.minutes * 60_000);
			uids.add(event.uid);
		}
		expect(uids.size).toBe(1);
		expect(rows[1]?.text).toContain("Reason given: The panel moved to Thursday.");
		expect(rows[2]?.text).toContain("Reason given: The position has been filled.");
	});

	it("records candidate.notified when the send succeeds, and only once when the message comes again", async () => {
		const { env: testEnv, queued } = recordingQueueEnv();
		const req = emailRequest();
		await queueCandidateEmail(testEnv, req, NOW);
		const sender = capturingSender();
		await deliver(queued[0]!, deps(sender.send));
		const second = await deliver(queued[0]!, deps(sender.send), 2);
		expect(second.explicitAcks).toHaveLength(1);
		expect(sender.calls).toHaveLength(1);

		const recorded = await notifiedEvents(req.interviewId);
		expect(recorded).toHaveLength(1);
		expect(recorded[0]).toMatchObject({
			id: await notifiedEventId(req.messageId),
			accountId: req.accountId,
			environment: "production",
			testMode: false,
			createdAt: NOW,
			data: {
				interview_id: req.interviewId,
				message_id: req.messageId,
				template: "invitation",
				recipient: "grace@example.com",
				sent_at: new Date(NOW).toISOString(),
				test_mode: false,
			},
		});
		expect(await getCandidateEmail(db, req.messageId)).toMatchObject({
			status: "sent",
			sentAt: NOW,
			providerMessageId: "provider-1",
			attempts: 1,
		});
	});

	it("retries a failed send with backoff and never loses the message", async () => {
		const { env: testEnv, queued } = recordingQueueEnv();
		const req = emailRequest();
		await queueCandidateEmail(testEnv, req, NOW);
		const sender = capturingSender(2);

		// The queue helpers do not expose retry delays; backoff.test.ts covers the schedule.
		const first = await deliver(queued[0]!, deps(sender.send), 1);
		expect(first.explicitAcks).toEqual([]);
		expect(first.retryMessages).toHaveLength(1);
		expect(await getCandidateEmail(db, req.messageId)).toMatchObject({
			status: "queued",
			attempts: 1,
			lastError: "550 mailbox unavailable",
			leaseUntil: null,
		});
		expect(await notifiedEvents(req.interviewId)).toHaveLength(0);

		const second = await deliver(queued[0]!, deps(sender.send), 2);
		expect(second.retryMessages).toHaveLength(1);

		const third = await deliver(queued[0]!, deps(sender.send), 3);
		expect(third.explicitAcks).toHaveLength(1);
		expect(sender.calls).toHaveLength(3);
		expect(await getCandidateEmail(db, req.messageId)).toMatchObject({
			status: "sent",
			attempts: 3,
			lastError: null,
		});
		expect(await notifiedEvents(req.interviewId)).toHaveLength(1);
	});

	it("stores and logs a failure's reason without a failed query's values", async () => {
		const { env: testEnv, queued } = recordingQueueEnv();
		const req = emailRequest();
		await queueCandidateEmail(testEnv, req, NOW);
		const secret = "https://service.test/join/x?token=Q7sYk2mBv9";
		const send = async (): Promise<{ messageId: string }> => {
			throw new Error(`Failed query: update candidate_emails set x = ?\nparams: ${secret}`);
		};
		const logged: string[] = [];
		const warn = vi.spyOn(console, "warn").mockImplementation((line: unknown) => {
			logged.push(String(line));
		});
		try {
			await deliver(queued[0]!, deps(send), 1);
		} finally {
			warn.mockRestore();
		}
		const row = await getCandidateEmail(db, req.messageId);
		expect(row?.lastError).toBe("Failed query: update candidate_emails set x = ? (values not logged)");
		expect(logged.join("\n")).toContain("e-mail send failed");
		expect(logged.join("\n")).not.toContain(secret);
	});

	it("marks the e-mail failed after the last attempt and emits nothing", async () => {
		const { env: testEnv, queued } = recordingQueueEnv();
		const req = emailRequest();
		await queueCandidateEmail(testEnv, req, NOW);
		const sender = capturingSender(10);
		const result = await deliver(queued[0]!, deps(sender.send), 6);
		expect(result.explicitAcks).toHaveLength(1);
		expect(result.retryMessages).toEqual([]);
		expect(await getCandidateEmail(db, req.messageId)).toMatchObject({
			status: "failed",
			lastError: "550 mailbox unavailable",
		});
		expect(await notifiedEvents(req.interviewId)).toHaveLength(0);
		// A late duplicate delivery does not try again.
		await deliver(queued[0]!, deps(sender.send), 1);
		expect(sender.calls).toHaveLength(1);
	});

	it("leaves an e-mail alone while another delivery holds it, and looks again after the lease", async () => {
		const { env: testEnv, queued } = recordingQueueEnv();
		const req = emailRequest();
		await queueCandidateEmail(testEnv, req, NOW);
		expect(await claimCandidateEmail(db, req.messageId, NOW, SEND_LEASE_MS)).not.toBeNull();
		const sender = capturingSender();
		const result = await deliver(queued[0]!, deps(sender.send));
		expect(sender.calls).toHaveLength(0);
		expect(result.retryMessages).toHaveLength(1);
		expect(result.explicitAcks).toEqual([]);
		const later = await deliver(queued[0]!, deps(sender.send, { now: () => NOW + SEND_LEASE_MS }));
		expect(later.explicitAcks).toHaveLength(1);
		expect(sender.calls).toHaveLength(1);
	});

	it("drops a queue message that names no recorded e-mail", async () => {
		const sender = capturingSender();
		const result = await deliver({ kind: "candidate_email", message_id: newId("msg") }, deps(sender.send));
		expect(result.explicitAcks).toHaveLength(1);
		expect(sender.calls).toHaveLength(0);
	});

	it("sends through the Worker's send_email binding by default", async () => {
		const { env: testEnv, queued } = recordingQueueEnv();
		const req = emailRequest();
		await queueCandidateEmail(testEnv, req, NOW);
		const result = await deliver(queued[0]!, null);
		expect(result.explicitAcks).toHaveLength(1);
		const row = await getCandidateEmail(db, req.messageId);
		expect(row?.status).toBe("sent");
		expect(row?.providerMessageId).toBeTruthy();
		expect(await notifiedEvents(req.interviewId)).toHaveLength(1);
	});
});

describe("the housekeeping's resend of e-mails nothing is sending", () => {
	function batchRecordingEnv(): { env: Env; resent: string[] } {
		const resent: string[] = [];
		const queue = {
			send: async () => undefined,
			sendBatch: async (messages: { body: EmailQueueMessage }[]) => {
				for (const m of messages) resent.push(m.body.message_id);
			},
		} as unknown as Queue;
		return { env: { ...env, EMAIL_QUEUE: queue } as Env, resent };
	}

	it("hands a queued e-mail untouched for three hours to the queue again, once per stale period", async () => {
		const request = emailRequest();
		expect((await queueCandidateEmail(recordingQueueEnv().env, request, NOW)).status).toBe("queued");
		// Tried once and waiting for its retry (its lease long over), as if the send had been refused.
		await env.DB.prepare("UPDATE candidate_emails SET attempts = 1 WHERE id = ?")
			.bind(request.messageId)
			.run();
		const early = batchRecordingEnv();
		await sweepStaleEmails(early.env, NOW + EMAIL_STALE_MS - 1_000);
		expect(early.resent).not.toContain(request.messageId);
		const later = batchRecordingEnv();
		const at = NOW + EMAIL_STALE_MS + 1_000;
		const report = await sweepStaleEmails(later.env, at);
		expect(later.resent).toContain(request.messageId);
		expect(report.resent).toBeGreaterThanOrEqual(1);
		expect((await getCandidateEmail(db, request.messageId))?.updatedAt).toBe(at);
		const again = batchRecordingEnv();
		await sweepStaleEmails(again.env, at + 60_000);
		expect(again.resent).not.toContain(request.messageId);
		// The resent message is sent by the consumer as any other.
		const sender = capturingSender();
		await handleEmailBatch(
			createMessageBatch("interview-emails", [
				{
					id: "m1",
					timestamp: new Date(at),
					attempts: 1,
					body: { kind: "candidate_email", message_id: request.messageId },
				},
			]),
			env,
			deps(sender.send, { now: () => at }),
		);
		expect(sender.calls).toHaveLength(1);
		expect((await getCandidateEmail(db, request.messageId))?.status).toBe("sent");
	});

	it("hands an e-mail no consumer ever tried to the queue again after two minutes (its hand-over was lost)", async () => {
		const request = emailRequest();
		await queueCandidateEmail(recordingQueueEnv().env, request, NOW);
		const early = batchRecordingEnv();
		await sweepStaleEmails(early.env, NOW + EMAIL_NEVER_TRIED_MS - 1_000);
		expect(early.resent).not.toContain(request.messageId);
		const later = batchRecordingEnv();
		await sweepStaleEmails(later.env, NOW + EMAIL_NEVER_TRIED_MS + 1_000);
		expect(later.resent).toContain(request.messageId);
	});

	it("leaves an e-mail a consumer holds alone, and gives up on one a day old", async () => {
		const held = emailRequest();
		const old = emailRequest();
		await queueCandidateEmail(recordingQueueEnv().env, held, NOW);
		await queueCandidateEmail(recordingQueueEnv().env, old, NOW);
		const at = NOW + EMAIL_STALE_MS + 1_000;
		expect(
			await claimCandidateEmail(db, held.messageId, at - SEND_LEASE_MS / 2, SEND_LEASE_MS),
		).not.toBeNull();
		const run = batchRecordingEnv();
		await sweepStaleEmails(run.env, at);
		expect(run.resent).not.toContain(held.messageId);
		expect(run.resent).toContain(old.messageId);
		const dayLater = batchRecordingEnv();
		const report = await sweepStaleEmails(dayLater.env, NOW + EMAIL_GIVE_UP_MS + 1_000);
		expect(report.givenUp).toBeGreaterThanOrEqual(2);
		expect(dayLater.resent).not.toContain(old.messageId);
		const failed = await getCandidateEmail(db, old.messageId);
		expect([failed?.status, failed?.lastError]).toEqual(["failed", "Not sent within 24 hours"]);
	});

	it("gives up on a backlog larger than one batch in one run, in bounded statements, and keeps younger e-mails queued", async () => {
		const account = newId("acc");
		const at = NOW + 40 * EMAIL_GIVE_UP_MS;
		const total = RETENTION_BATCH * 2 + 37;
		// One statement inserts the backlog (recursive CTE): a day's worth of notices the queue never took.
		await env.DB.prepare(
			`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
			 INSERT INTO candidate_emails (id, interview_id, account_id, environment, template, sender, recipient,
			   sender_name, subject, text, html, ics, sequence, status, attempts, created_at, updated_at)
			 SELECT ?2 || '_' || i, 'int_backlog', ?2, 'production', 'invitation', 'a@example.com', 'c@example.com',
			   'Acme', 's', 't', 'h', 'ics', 0, 'queued', 0, ?3 + i, ?3 + i FROM n`,
		)
			.bind(total, account, at - EMAIL_GIVE_UP_MS - 10 * 60_000)
			.run();
		const young = emailRequest({ accountId: account });
		await queueCandidateEmail(recordingQueueEnv().env, young, at - EMAIL_GIVE_UP_MS + 1_000);
		const recorded = recordingD1(env.DB);
		const run = batchRecordingEnv();

		const report = await sweepStaleEmails({ ...run.env, DB: recorded.db }, at);

		const giveUps = recorded.runs.filter((r) => r.query.startsWith('update "candidate_emails" set "status"'));
		expect(giveUps.length).toBeGreaterThanOrEqual(3);
		for (const statement of giveUps) expect(statement.changes).toBeLessThanOrEqual(RETENTION_BATCH);
		expect(report.givenUp).toBeGreaterThanOrEqual(total);
		const statuses = await env.DB.prepare(
			"SELECT status, count(*) AS n FROM candidate_emails WHERE account_id = ? GROUP BY status ORDER BY status",
		)
			.bind(account)
			.all<{ status: string; n: number }>();
		expect(statuses.results).toEqual([
			{ status: "failed", n: total },
			{ status: "queued", n: 1 },
		]);
		expect((await getCandidateEmail(db, young.messageId))?.status).toBe("queued");
	});

	it("still sweeps dashboard users' e-mails when the candidates' table fails", async () => {
		const candidate = emailRequest();
		await queueCandidateEmail(recordingQueueEnv().env, candidate, NOW);
		const userEmailId = newId("msg");
		await env.DB.prepare(
			`INSERT INTO user_emails (id, account_id, user_id, template, sender, sender_name, recipient, subject,
			   text, html, link_base, status, attempts, created_at, updated_at)
			 VALUES (?1, ?2, ?3, 'user_invitation', 'a@example.com', 'Acme', 'u@example.com', 's', 't', 'h',
			   'https://app.example.test/dashboard/invitation#', 'queued', 0, ?4, ?4)`,
		)
			.bind(userEmailId, newId("acc"), newId("usr"), NOW)
			.run();
		const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
		const run = batchRecordingEnv();

		const report = await withUpdatesRefused("candidate_emails", () =>
			sweepStaleEmails(run.env, NOW + EMAIL_GIVE_UP_MS + 1_000),
		);

		const user = await env.DB.prepare("SELECT status, last_error FROM user_emails WHERE id = ?")
			.bind(userEmailId)
			.first();
		expect(user).toEqual({ status: "failed", last_error: "Not sent within 24 hours" });
		expect(report.givenUp).toBeGreaterThanOrEqual(1);
		expect((await getCandidateEmail(db, candidate.messageId))?.status).toBe("queued");
		expect(logged.mock.calls.map((c) => String(c[0]))).toContainEqual(
			expect.stringContaining('"table":"candidate_emails"'),
		);
		logged.mockRestore();
	});
});

/** D1 that records every statement it runs with the rows it changed. */
function recordingD1(database: D1Database): { db: D1Database; runs: { query: string; changes: number }[] } {
	const runs: { query: string; changes: number }[] = [];
	const recorded = (query: string, statement: D1PreparedStatement): D1PreparedStatement =>
		new Proxy(statement, {
			get(target, prop) {
				const value = Reflect.get(target, prop, target);
				if (typeof value !== "function") return value;
				if (prop === "bind") return (...args: unknown[]) => recorded(query, value.apply(target, args));
				if (prop === "run") {
					return async () => {
						const result = await value.apply(target, []);
						runs.push({ query, changes: result.meta.changes });
						return result;
					};
				}
				return value.bind(target);
			},
		});
	const db = new Proxy(database, {
		get(target, prop) {
			if (prop === "prepare") return (query: string) => recorded(query, target.prepare(query));
			const value = Reflect.get(target, prop, target);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
	return { db, runs };
}
