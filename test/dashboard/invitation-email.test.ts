import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createUser } from "../../src/dashboard/users";
import { handleEmailBatch } from "../../src/email/consumer";
import type { EmailQueueMessage } from "../../src/email/model";
import type { OutgoingEmail } from "../../src/email/sender";
import { sweepStaleEmails } from "../../src/email/sweeps";
import { getUserEmail, listUserEmails, type UserEmailRow } from "../../src/email/user-email";
import { userInvitationSubject } from "../../src/email/user-invitation";
import { getDb } from "../../src/platform/db/client";
import { newId } from "../../src/platform/lib/random";
import { Browser, dashboardAccount, signedIn, uniqueEmail } from "../support/dashboard-helpers";
import { parseMime } from "../support/email";
import { admin, BASE } from "../support/helpers";

// Sign-ins hash at 600,000 PBKDF2 iterations: slower than the default 5 s under load.
vi.setConfig({ testTimeout: 30_000 });

const db = getDb(env.DB);
const LINK = /http:\/\/service\.test\/dashboard\/invitation#[0-9A-Za-z]{43}/g;

afterEach(() => vi.restoreAllMocks());

/** Every console line written while `run` runs, as one text. */
async function logsOf<T>(run: () => Promise<T>): Promise<{ result: T; logs: string }> {
	const lines: string[] = [];
	for (const method of ["log", "info", "warn", "error", "debug"] as const) {
		vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
			lines.push(args.map(String).join(" "));
		});
	}
	const result = await run();
	return { result, logs: lines.join("\n") };
}

/** Invites a member of the account by e-mail at `now`; the id of the invitation's e-mail row. */
async function invite(queueEnv: Env, accountId: string, name: string, now = Date.now()): Promise<string> {
	const made = await createUser(queueEnv, {
		accountId,
		companyName: "Acme",
		email: uniqueEmail(name),
		role: "member",
		mode: "invite",
		invitedBy: null,
		now,
		appUrl: BASE,
	});
	return made.emailId as string;
}

/** The consumer's own path from the queue message to the transport, with a recording transport. */
async function sendWithConsumer(messageId: string, handlerEnv: Env = env) {
	const sent: OutgoingEmail[] = [];
	const batch = createMessageBatch<EmailQueueMessage>("interview-emails", [
		{
			id: newId("msg"),
			timestamp: new Date(),
			attempts: 1,
			body: { kind: "user_email", message_id: messageId },
		},
	]);
	const ctx = createExecutionContext();
	await handleEmailBatch(batch, handlerEnv, {
		send: async (email) => {
			sent.push(email);
			return { messageId: `provider-${sent.length}` };
		},
		now: Date.now,
		retryDelays: [30, 120],
	});
	return { sent, result: await getQueueResult(batch, ctx) };
}

/** A queue that records instead of delivering, so the Worker's own consumer does not race the test. */
function recordingQueueEnv() {
	const queued: EmailQueueMessage[] = [];
	const queue = {
		send: async (body: EmailQueueMessage) => {
			queued.push(body);
		},
		sendBatch: async (messages: { body: EmailQueueMessage }[]) => {
			for (const m of messages) queued.push(m.body);
		},
	} as unknown as Queue;
	return { env: { ...env, EMAIL_QUEUE: queue } as Env, queued };
}

/** Opens the link as a browser does (the fragment stays in the browser) and sets a password. */
async function accept(link: string, password = "a long enough secret") {
	const url = new URL(link);
	expect(url.pathname).toBe("/dashboard/invitation");
	const token = url.hash.slice(1);
	const invitee = new Browser();
	const page = await invitee.get(url.pathname);
	expect(page.status).toBe(200);
	expect(page.text).toContain('name="token"');
	const set = await invitee.post(url.pathname, { token, password, confirm: password });
	expect(set.status).toBe(303);
	expect((await invitee.get("/dashboard/interviews")).status).toBe(200);
	return token;
}

describe("invitation e-mail", () => {
	it("an owner's invitation sends exactly one e-mail whose link signs the invitee in", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf("/dashboard/team");
		const email = uniqueEmail("invitee");
		const { result: made, logs } = await logsOf(async () => {
			const page = await owner.post("/dashboard/team", { _csrf: token, email, role: "member" });
			const user = (await admin("GET", `/accounts/${a.id}/users`)).body.data.find(
				(u: { email: string }) => u.email === email,
			);
			const rows = await listUserEmails(db, user.id);
			// The tests park the e-mail queue; its consumer is driven here as the queue would.
			const delivery = rows[0] ? await sendWithConsumer(rows[0].id) : null;
			return { page, rows, delivery, after: await listUserEmails(db, user.id) };
		});
		expect(made.page.status).toBe(201);
		expect(made.page.text).toContain("The link has been e-mailed to them.");
		const shown = made.page.text.match(LINK)?.[0] as string;
		expect(shown).toBeDefined();

		// Recorded before it was queued: one e-mail, to the invitee, with a placeholder for the link.
		expect(made.rows).toHaveLength(1);
		const [row] = made.rows as [UserEmailRow];
		expect(row.recipient).toBe(email);
		expect(row.status).toBe("queued");
		expect(row.text).toContain("{{invitation_link}}");
		expect(made.after.map((r) => [r.status, r.attempts])).toEqual([["sent", 1]]);

		// Exactly one message went out, to the invitee, carrying the link the owner was shown.
		expect(made.delivery?.sent).toHaveLength(1);
		const [message] = (made.delivery?.sent ?? []) as [OutgoingEmail];
		expect(message.to).toBe(email);
		const parsed = await parseMime(message.raw);
		expect(parsed.subject).toContain("interview dashboard");
		expect(parsed.text?.match(LINK)).toEqual([shown, shown]);
		expect(parsed.html).toContain(`href="${shown}"`);
		expect(parsed.text).toContain(`${a.owner.email} has invited you`);

		// The token is in no log line and nowhere in D1: only its hash, and a placeholder.
		const tokenValue = new URL(shown).hash.slice(1);
		expect(logs).not.toContain(tokenValue);
		for (const table of ["user_emails", "invitations", "users"]) {
			const dump = JSON.stringify((await env.DB.prepare(`SELECT * FROM ${table}`).all()).results);
			expect(dump, table).not.toContain(tokenValue);
		}

		const used = await accept(shown);
		// The link works once.
		const again = await new Browser().post("/dashboard/invitation", {
			token: used,
			password: "another long secret",
			confirm: "another long secret",
		});
		expect(again.status).toBe(404);
	});

	it("the consumer's message carries the link in both parts, escaped, without a calendar", async () => {
		const a = await dashboardAccount();
		const recording = recordingQueueEnv();
		const email = uniqueEmail("direct");
		const made = await createUser(recording.env, {
			accountId: a.id,
			companyName: `<b>Acme</b> & "Sons" {{invitation_link}}`,
			email,
			role: "owner",
			mode: "invite",
			invitedBy: null,
			now: Date.now(),
			appUrl: BASE,
		});
		expect(recording.queued).toEqual([{ kind: "user_email", message_id: made.emailId }]);
		const { sent, result } = await sendWithConsumer(made.emailId as string, recording.env);
		expect(sent).toHaveLength(1);
		expect(result.explicitAcks).toHaveLength(1);
		const [message] = sent as [OutgoingEmail];
		expect(message.to).toBe(email);
		const parsed = await parseMime(message.raw);
		expect(parsed.to?.[0]?.address).toBe(email);
		expect(parsed.attachments).toHaveLength(0);
		expect(parsed.subject).toContain(`<b>Acme</b> & "Sons"`);
		expect(parsed.subject).not.toContain("{{invitation_link}}");
		// Removing the placeholder once cannot join the text around it into another one.
		expect(
			userInvitationSubject({ companyName: "Acme {{invitation_{{invitation_link}}link}}" } as never),
		).toBe("You are invited to Acme 's interview dashboard");
		expect(parsed.html).toContain("&lt;b&gt;Acme&lt;/b&gt; &amp; &quot;Sons&quot;");
		expect(parsed.html).not.toContain("<b>Acme</b>");
		const links = parsed.text?.match(LINK) ?? [];
		expect(links).toEqual([made.invitationUrl, made.invitationUrl]);
		expect(parsed.html).toContain(`href="${made.invitationUrl}"`);
		expect((await getUserEmail(db, made.emailId as string))?.status).toBe("sent");

		// A second delivery of the same reference sends nothing more.
		const again = await sendWithConsumer(made.emailId as string, recording.env);
		expect(again.sent).toHaveLength(0);

		await accept(made.invitationUrl as string);
	});

	it("an invitation whose hand-over to the queue was lost is sent by the sweep", async () => {
		const a = await dashboardAccount();
		const lost = {
			...env,
			EMAIL_QUEUE: {
				send: async () => {
					throw new Error("queue unavailable");
				},
			},
		} as unknown as Env;
		const made = await createUser(lost, {
			accountId: a.id,
			companyName: "Acme",
			email: uniqueEmail("lost"),
			role: "member",
			mode: "invite",
			invitedBy: null,
			now: Date.now(),
			appUrl: BASE,
		});
		const row = await getUserEmail(db, made.emailId as string);
		expect(row?.status).toBe("queued");
		const recording = recordingQueueEnv();
		// Three minutes later: past DELIVERY_RESEND_AFTER_S (two minutes) for a never-tried e-mail.
		await sweepStaleEmails(recording.env, Date.now() + 3 * 60_000);
		expect(recording.queued).toContainEqual({ kind: "user_email", message_id: made.emailId });
		const { sent } = await sendWithConsumer(made.emailId as string, recording.env);
		expect(sent).toHaveLength(1);
	});

	it("an invitation nothing sent within a day is given up by the sweep, and only its own row", async () => {
		const a = await dashboardAccount();
		const recording = recordingQueueEnv();
		const start = Date.now();
		const old = await invite(recording.env, a.id, "given-up", start);
		const recent = await invite(recording.env, a.id, "still-queued", start + 2 * 60 * 60_000);
		await sweepStaleEmails(recording.env, start + 24 * 60 * 60_000 + 1_000);
		expect(await getUserEmail(db, old)).toMatchObject({
			status: "failed",
			lastError: "Not sent within 24 hours",
		});
		expect((await getUserEmail(db, recent))?.status).toBe("queued");
	});

	it("settled invitation e-mails are deleted after EMAIL_RETENTION_DAYS, queued ones kept", async () => {
		const a = await dashboardAccount();
		const recording = recordingQueueEnv();
		const sent = await invite(recording.env, a.id, "retained-sent");
		const queued = await invite(recording.env, a.id, "retained-queued");
		expect((await sendWithConsumer(sent, recording.env)).sent).toHaveLength(1);
		const { purgeSettledEmails } = await import("../../src/email/retention");
		// 31 days on: past the default 30.
		const later = Date.now() + 31 * 86_400_000;
		expect(await purgeSettledEmails(env, later)).toBeGreaterThanOrEqual(1);
		expect(await getUserEmail(db, sent)).toBeNull();
		expect((await getUserEmail(db, queued))?.status).toBe("queued");
	});

	it("the admin API answers an invitation_url with invite: true, e-mails it, and a password otherwise", async () => {
		const a = await dashboardAccount();
		const email = uniqueEmail("admin-invite");
		const invited = await admin("POST", `/accounts/${a.id}/users`, { email, role: "member", invite: true });
		expect(invited.status).toBe(201);
		expect(invited.body.data.password).toBeUndefined();
		expect(invited.body.data.password_set).toBe(false);
		const url = invited.body.data.invitation_url as string;
		expect(url).toMatch(LINK);
		const rows = await listUserEmails(db, invited.body.data.id);
		expect(rows).toHaveLength(1);
		expect(rows[0]?.recipient).toBe(email);
		const { sent } = await sendWithConsumer((rows[0] as UserEmailRow).id);
		expect(sent).toHaveLength(1);
		expect((await parseMime((sent[0] as OutgoingEmail).raw)).text).toContain(url);
		expect((await getUserEmail(db, (rows[0] as UserEmailRow).id))?.status).toBe("sent");
		await accept(url);

		const plain = await admin("POST", `/accounts/${a.id}/users`, {
			email: uniqueEmail("pw"),
			role: "member",
		});
		expect(plain.status).toBe(201);
		expect(plain.body.data.password).toMatch(/^[0-9A-Za-z]{20}$/);
		expect(plain.body.data.invitation_url).toBeUndefined();
		expect(await listUserEmails(db, plain.body.data.id)).toHaveLength(0);

		const bad = await admin("POST", `/accounts/${a.id}/users`, {
			email: uniqueEmail("x"),
			role: "member",
			invite: "yes",
		});
		expect(bad.status).toBe(400);
		expect(bad.body.error.details.invite).toMatch(/^Must be a boolean/);

		// The same e-mail again: refused, nothing more written or sent.
		const twice = await admin("POST", `/accounts/${a.id}/users`, { email, role: "owner", invite: true });
		expect(twice.status).toBe(400);
		expect(twice.body.error.details.email).toBe("A user with this e-mail address already exists");
		expect(await listUserEmails(db, invited.body.data.id)).toHaveLength(1);
	});
});
