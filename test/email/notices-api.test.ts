import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, newAccount } from "../support/helpers";
import { createInterview } from "../support/lifecycle-helpers";

async function emailsOf(id: string) {
	const rows = await env.DB.prepare(
		"SELECT template, recipient, subject, text, ics, sequence FROM candidate_emails WHERE interview_id = ? ORDER BY created_at, sequence",
	)
		.bind(id)
		.all<{
			template: string;
			recipient: string;
			subject: string;
			text: string;
			ics: string;
			sequence: number;
		}>();
	return rows.results;
}

describe("candidate notices from the API", () => {
	it("queues an invitation, a change notice and a cancellation notice with growing calendar sequence", async () => {
		const account = await newAccount({ company_name: "Initech" });
		const { id, data } = await createInterview(account.live, {
			scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
		});
		const moved = new Date(Date.now() + 2 * 86_400_000).toISOString();
		const update = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { scheduled_at: moved, reschedule_reason: "The panel moved" },
		});
		expect(update.body.data.notification_sent).toBe(true);
		const cancel = await call("DELETE", `/v1/interviews/${id}?reason=Role%20closed`, { key: account.live });
		expect(cancel.body.data.notification_sent).toBe(true);

		const emails = await emailsOf(id);
		expect(emails.map((e) => e.template)).toEqual(["invitation", "update", "cancellation"]);
		expect(emails.every((e) => e.recipient === "ada@example.com")).toBe(true);
		expect(emails[0]?.text).toContain(data.interview_url);
		// A day ahead: the link opens 15 minutes before; one created for now is open at once.
		expect(emails[0]?.text).toContain("from 15 minutes before the start time");
		const now = await createInterview(account.live);
		const [opened] = await emailsOf(now.id);
		expect(opened?.text).toContain("The interview is online and open now");
		expect(opened?.text).not.toContain("from 15 minutes before the start time");
		expect(emails[0]?.subject).toContain("Initech");
		expect(emails[1]?.text).toContain("The panel moved");
		expect(emails[2]?.text).toContain("Role closed");
		expect(emails[0]?.ics).toContain("METHOD:REQUEST");
		expect(emails[2]?.ics).toContain("METHOD:CANCEL");
		const sequences = emails.map((e) => e.sequence);
		expect(sequences[1]).toBeGreaterThan(sequences[0] as number);
		expect(sequences[2]).toBeGreaterThan(sequences[1] as number);
	});

	it("withdraws a replaced address's invitation and invites the new address with the new link", async () => {
		const account = await newAccount({ company_name: "Initech" });
		const booked = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 86_400_000);
		const { id, data } = await createInterview(account.live, {
			scheduled_at: booked.toISOString(),
			candidate_name: "Ada Lovelace",
		});
		const moved = new Date(booked.getTime() + 86_400_000);
		const res = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: {
				candidate_email: "grace@example.com",
				scheduled_at: moved.toISOString(),
				reschedule_reason: "Sent to the wrong address",
			},
		});
		expect(res.status).toBe(200);
		expect(res.body.data.notification_sent).toBe(true);
		const fetched = await call("GET", `/v1/interviews/${id}`, { key: account.live });
		const newUrl = fetched.body.data.urls.interview_url as string;
		expect(newUrl).not.toBe(data.interview_url);

		const emails = await emailsOf(id);
		const summary = emails.map((e) => `${e.template} ${e.recipient}`).sort();
		expect(summary).toEqual([
			"cancellation ada@example.com",
			"invitation ada@example.com",
			"invitation grace@example.com",
		]);
		const withdrawn = emails.find((e) => e.template === "cancellation");
		expect(withdrawn?.ics).toContain("METHOD:CANCEL");
		// Two addresses, two calendar events: the withdrawal removes the first address's event (its
		// UID, as invited), the new address's invitation is an event of its own, so a calendar that
		// receives both (one person's two addresses) keeps the interview whatever order it reads them.
		const uid = (ics: string | undefined) => /\r\nUID:([^\r]+)\r\n/.exec(ics ?? "")?.[1];
		const first = emails.find((e) => e.template === "invitation" && e.recipient === "ada@example.com");
		expect(uid(withdrawn?.ics)).toBe(uid(first?.ics));
		expect(uid(withdrawn?.ics)).toBe(`${id}@interview-assessment-service`);
		expect(withdrawn?.subject).toMatch(/^Withdrawn: your interview invitation for /);
		expect(withdrawn?.text).toContain("no longer scheduled with this e-mail address");
		expect(withdrawn?.text).toContain("Reason given: Sent to the wrong address");
		expect(withdrawn?.text).not.toContain(newUrl);
		const invited = emails.find((e) => e.template === "invitation" && e.recipient === "grace@example.com");
		expect(invited?.text).toContain(newUrl);
		expect(invited?.ics).toContain("METHOD:REQUEST");
		expect(uid(invited?.ics)).toBe(`${id}.1@interview-assessment-service`);
		expect(invited?.text).not.toContain("Your join link has not changed");
		// The replaced address hears about what it was booked for; the new one never sees its name.
		const icsTime = (d: Date) =>
			d
				.toISOString()
				.replace(/[-:]/g, "")
				.replace(/\.\d{3}/, "");
		expect(withdrawn?.ics).toContain(`DTSTART:${icsTime(booked)}`);
		expect(withdrawn?.text).toContain("Ada Lovelace");
		expect(invited?.ics).toContain(`DTSTART:${icsTime(moved)}`);
		expect(`${invited?.text} ${invited?.ics}`).not.toContain("Ada Lovelace");
		expect(fetched.body.data.candidate.name ?? null).toBeNull();

		// A later change to the new address updates its own event.
		const later = new Date(moved.getTime() + 3_600_000);
		const again = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { scheduled_at: later.toISOString() },
		});
		expect(again.status).toBe(200);
		const update = (await emailsOf(id)).find((e) => e.template === "update");
		expect(update?.recipient).toBe("grace@example.com");
		expect(uid(update?.ics)).toBe(uid(invited?.ics));
	});

	it("lets a test key e-mail no candidate: it cannot change or cancel a live interview at all", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.live, {
			scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
		});
		const before = await emailsOf(id);
		expect(before.map((e) => e.template)).toEqual(["invitation"]);
		const patched = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.test,
			body: { position: "Lead", candidate_email: "grace@example.com" },
		});
		expect(patched.status).toBe(409);
		expect(patched.body.error).toMatchObject({ code: "INVALID_OPERATION", details: { test_mode: false } });
		const cancelled = await call("DELETE", `/v1/interviews/${id}`, { key: account.test });
		expect(cancelled.status).toBe(409);
		expect(await emailsOf(id)).toEqual(before);
	});

	it("sends nothing for send_invitation false, send_notification false, test mode, test keys and dev keys", async () => {
		const account = await newAccount();
		const quiet = await createInterview(account.live, { send_invitation: false });
		const patched = await call("PATCH", `/v1/interviews/${quiet.id}`, {
			key: account.live,
			body: { position: "Lead", send_notification: false },
		});
		expect(patched.body.data.notification_sent).toBe(false);
		const cancelled = await call("DELETE", `/v1/interviews/${quiet.id}?send_notification=false`, {
			key: account.live,
		});
		expect(cancelled.body.data.notification_sent).toBe(false);
		expect(await emailsOf(quiet.id)).toEqual([]);

		for (const [key, body] of [
			[account.live, { test_mode: true }],
			[account.test, {}],
			[account.dev, {}],
		] as const) {
			const { id } = await createInterview(key, body);
			const res = await call("PATCH", `/v1/interviews/${id}`, { key, body: { position: "Lead" } });
			expect(res.body.data.notification_sent).toBe(false);
			expect(await emailsOf(id)).toEqual([]);
		}
	});
});
