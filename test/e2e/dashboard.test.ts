// The dashboard in a real browser (headless Chromium) against the real local service: the demo
// owner `npm start` creates signs in and uses every page. Screenshots go to test-output/screenshots.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	type RecordedRequest,
	startWebhookReceiver,
	type WebhookReceiver,
} from "../support/webhook-receiver";
import { api, launchChromium, type Service, startService } from "./harness";

const SHOTS = join(import.meta.dirname, "..", "..", "test-output", "screenshots");
let service: Service;
let browser: Browser;
let page: Page;
let rx: WebhookReceiver;
/** The in-progress interview the live view follows (set by its test). */
let liveId = "";
/** What any dashboard tab reported breaking its Content-Security-Policy (checked by the last test). */
const cspViolations: string[] = [];

/** Records the tab's CSP violations (the console's reports of a blocked script, style or connection). */
function watchCsp(tab: Page): Page {
	tab.on("console", (message) => {
		if (/Content Security Policy/i.test(message.text()))
			cspViolations.push(`${tab.url()}: ${message.text()}`);
	});
	return tab;
}

/** The completed interview whose results page the results test opens. */
let resultsId = "";

/** Waits (at most `ms`) until the locator's text matches; fails with the text it last had. */
async function see(locator: Locator, expected: string | RegExp, ms = 15_000): Promise<void> {
	const deadline = Date.now() + ms;
	let last = "";
	for (;;) {
		last =
			(await locator
				.first()
				.textContent({ timeout: ms })
				.catch(() => "")) ?? "";
		if (typeof expected === "string" ? last.includes(expected) : expected.test(last)) return;
		if (Date.now() > deadline) throw new Error(`expected ${String(expected)} in: ${last.slice(0, 500)}`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/** The `.eml` files the local send_email simulation reported writing, in order. */
function emailFiles(output: string): string[] {
	return [...output.matchAll(/Email: (\S+\.eml)/g)].map((m) => m[1] as string);
}

async function shot(name: string) {
	await page.screenshot({ path: join(SHOTS, `dashboard-${name}.png`), fullPage: true });
}

beforeAll(async () => {
	mkdirSync(SHOTS, { recursive: true });
	rx = await startWebhookReceiver();
	service = await startService();
	browser = await launchChromium();
	const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
	page = watchCsp(await context.newPage());
	// Confirmations (revoke, delete) are accepted, as the user would.
	page.on("dialog", (dialog) => void dialog.accept());
});

afterAll(async () => {
	await browser?.close();
	await service?.stop();
	await rx?.close();
});

describe("the dashboard in a real browser", () => {
	it("sends a visitor to sign-in and back, and signs the demo owner in", async () => {
		expect(service.owner.email).toBe("owner@demo.example");
		await page.goto(`${service.baseUrl}/dashboard/account`);
		expect(new URL(page.url()).pathname).toBe("/dashboard/login");
		await shot("login");
		await page.getByLabel("Email").fill(service.owner.email);
		await page.getByLabel("Password").fill("not the password");
		await page.getByRole("button", { name: "Sign in" }).click();
		await see(page.getByRole("alert"), "Wrong email or password.");
		await page.getByLabel("Password").fill(service.owner.password);
		await page.getByRole("button", { name: "Sign in" }).click();
		await page.waitForURL(/\/dashboard\/account$/);
		await see(page.locator("h1"), "Demo Company");
		await shot("account");
		const cookies = await page.context().cookies();
		const session = cookies.find((c) => c.name === "dash_session");
		expect(session?.httpOnly).toBe(true);
		expect(session?.sameSite).toBe("Lax");
	});

	it("creates an API key shown once, uses it, revokes it, and the API refuses it", async () => {
		await page.goto(`${service.baseUrl}/dashboard/settings/api-keys`);
		await page.getByLabel("Name").fill("Browser key");
		await page.getByLabel("Environment").selectOption("test");
		await page.getByLabel(/analytics:read/).uncheck();
		await page.getByRole("button", { name: "Create key" }).click();
		const value = (await page.locator("#new-key").textContent())?.trim() as string;
		expect(value).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);
		await shot("api-key-created");
		const verify = await fetch(`${service.baseUrl}/v1/auth/permissions`, {
			headers: { Authorization: `Bearer ${value}` },
		});
		expect(verify.status).toBe(200);
		const permissions = ((await verify.json()) as { data: { permissions: string[] } }).data.permissions;
		expect(permissions).not.toContain("analytics:read");
		expect(permissions).toContain("interviews:write");
		await page.goto(`${service.baseUrl}/dashboard/settings/api-keys`);
		expect(await page.content()).not.toContain(value);
		await shot("api-keys");
		await page.getByRole("button", { name: "Revoke Browser key" }).click();
		await page.waitForURL(/revoked=1/);
		const refused = await fetch(`${service.baseUrl}/v1/auth/verify`, {
			headers: { Authorization: `Bearer ${value}` },
		});
		expect(refused.status).toBe(401);
		expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("INVALID_API_KEY");
	});

	it("creates an interview from the form and shows its page", async () => {
		await page.goto(`${service.baseUrl}/dashboard/interviews/new`);
		await shot("interview-new");
		// A skill the browser lets through and the service refuses: the page marks that field, and
		// the notice's link moves focus to it.
		await page.getByLabel("Candidate email").fill("ada@example.com");
		await page.getByLabel("Position").fill("Backend Engineer");
		await page.getByLabel("Skills (comma-separated)").fill(`TypeScript, ${"x".repeat(101)}`);
		await page.getByRole("button", { name: "Create interview" }).click();
		await see(page.getByRole("alert"), "skills");
		expect(await page.locator("#skills").getAttribute("aria-invalid")).toBe("true");
		expect(await page.locator("#position").getAttribute("aria-invalid")).toBeNull();
		await shot("interview-new-refused");
		await page.getByRole("alert").getByRole("link", { name: "skills" }).click();
		expect(await page.evaluate("document.activeElement && document.activeElement.id")).toBe("skills");
		expect(new URL(page.url()).hash).toBe("#skills");
		await page.getByLabel("Candidate email").fill("ada@example.com");
		await page.getByLabel("Candidate name (optional)").fill("Ada Lovelace");
		await page.getByLabel("Position").fill("Backend Engineer");
		await page.getByLabel("Skills (comma-separated)").fill("TypeScript, SQL");
		await page.getByLabel(/Test mode/).check();
		await page.getByRole("button", { name: "Create interview" }).click();
		await page.waitForURL(/\/dashboard\/interviews\/int_[0-9A-Za-z]{24}\?created=1$/);
		await see(page.getByRole("status").first(), "Interview created.");
		expect(await page.locator("#candidate-link").inputValue()).toMatch(/\/join\/int_/);
		await see(page.locator(".timeline"), "interview.scheduled");
		await see(page.locator(".timeline"), /Scheduled for \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
		await shot("interview");
	});

	it("changes an interview from its page, and e-mails the candidate only when asked to", async () => {
		await page.goto(`${service.baseUrl}/dashboard/interviews/new`);
		await page.getByLabel("Candidate email").fill("edith@example.com");
		await page.getByLabel("Position").fill("Data Engineer");
		await page.getByLabel("Skills (comma-separated)").fill("SQL");
		await page.getByLabel(/^Company name/).fill("Initech Labs");
		await page.getByLabel(/E-mail the candidate an invitation/).uncheck();
		await page.getByRole("button", { name: "Create interview" }).click();
		await page.waitForURL(/\/dashboard\/interviews\/int_[0-9A-Za-z]{24}\?created=1$/);
		const id = /int_[0-9A-Za-z]{24}/.exec(page.url())?.[0] as string;
		const read = async () =>
			(await api(service, "GET", `/v1/interviews/${id}`, { key: service.keys.live })).body.data;
		expect((await read()).company_name).toBe("Initech Labs");
		const sentBefore = emailFiles(service.output()).length;
		// A quiet change: the box unticked. The text area's lines arrive as the browser sends them (CRLF).
		await page.getByLabel("Difficulty").selectOption("senior");
		await page.getByLabel(/^Instructions for the interviewer/).fill("Ask about joins.\nThen about indexes.");
		await page.getByLabel("E-mail the candidate about the change").uncheck();
		await shot("interview-change");
		await page.getByRole("button", { name: "Save changes" }).click();
		await page.waitForURL(/\?saved=1$/);
		await see(page.getByRole("status").first(), "Changes saved.");
		const quiet = await read();
		expect(quiet.difficulty).toBe("senior");
		expect(quiet.instructions).toBe("Ask about joins.\nThen about indexes.");
		expect(quiet.company_name).toBe("Initech Labs");
		// The form sent again untouched changes nothing: the text area's CRLF is the same text.
		const events = async () =>
			(await api(service, "GET", `/v1/events?interview_id=${id}`, { key: service.keys.live })).body.data
				.length;
		const eventsBefore = await events();
		await page.getByRole("button", { name: "Save changes" }).click();
		await see(page.getByRole("alert"), "Nothing was changed.");
		expect(await events()).toBe(eventsBefore);
		// With the box ticked (as the page opens), the candidate hears of the new company.
		await page.getByLabel(/^Company name/).fill("Globex");
		await page.getByRole("button", { name: "Save changes" }).click();
		await page.waitForURL(/\?saved=1$/);
		expect((await read()).company_name).toBe("Globex");
		// Other tests' mails may arrive meanwhile: only Edith's count.
		const toEdith = async () => {
			const files = emailFiles(service.output()).slice(sentBefore);
			const mails = await Promise.all(
				files.map((f) => PostalMime.parse(readFileSync(f), { attachmentEncoding: "utf8" })),
			);
			return mails.filter((m) => m.to?.[0]?.address === "edith@example.com");
		};
		const deadline = Date.now() + 30_000;
		while ((await toEdith()).length === 0 && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 300));
		}
		// A mail of the unticked change would have been queued before this one.
		await new Promise((resolve) => setTimeout(resolve, 1_000));
		const mails = await toEdith();
		expect(mails).toHaveLength(1);
		expect(mails[0]?.from?.name).toBe("Globex (via Interviews)");
	});

	it("shows a time typed in UTC in the visitor's own time zone", async () => {
		const cdp = await page.context().newCDPSession(page);
		await cdp.send("Emulation.setTimezoneOverride", { timezoneId: "America/New_York" });
		try {
			await page.goto(`${service.baseUrl}/dashboard/interviews/new`);
			await page.getByLabel(/^Scheduled at/).fill("2030-01-15T14:00");
			await see(page.locator("#scheduled_at-local"), "In your time zone (America/New_York):");
			await see(page.locator("#scheduled_at-local"), /Jan 15, 2030.*9:00\sAM/);
			// July: daylight saving time, four hours behind.
			await page.getByLabel(/^Scheduled at/).fill("2030-07-15T14:00");
			await see(page.locator("#scheduled_at-local"), /Jul 15, 2030.*10:00\sAM/);
			await page.getByLabel(/^Scheduled at/).fill("");
			expect(await page.locator("#scheduled_at-local").textContent()).toBe("");
			// The change form shows the interview's own time on opening.
			const made = await api(service, "POST", "/v1/interviews", {
				key: service.keys.test,
				body: {
					candidate_email: "zone@example.com",
					position: "Zone Engineer",
					skills: ["SQL"],
					scheduled_at: "2030-01-15T23:30:00Z",
				},
			});
			await page.goto(`${service.baseUrl}/dashboard/interviews/${made.body.data.id}`);
			await see(page.locator("#u-scheduled-local"), /Jan 15, 2030.*6:30\sPM/);
		} finally {
			await cdp.send("Emulation.setTimezoneOverride", { timezoneId: "" });
			await cdp.detach();
		}
	});

	it("creates one interview from a form clicked twice or sent twice", async () => {
		const count = async (position: string) =>
			(
				await api(service, "GET", `/v1/interviews?position=${encodeURIComponent(position)}`, {
					key: service.keys.test,
				})
			).body.pagination.total_count as number;
		const fill = async (position: string) => {
			await page.goto(`${service.baseUrl}/dashboard/interviews/new?mode=test`);
			await page.getByLabel("Candidate email").fill("twice@example.com");
			await page.getByLabel("Position").fill(position);
			await page.getByLabel("Skills (comma-separated)").fill("SQL");
		};
		// A double click: the page disables the button once the form is sent.
		await fill("Double Click");
		await page.getByRole("button", { name: "Create interview" }).dblclick();
		await page.waitForURL(/\/dashboard\/interviews\/int_[0-9A-Za-z]{24}\?created=/);
		expect(await count("Double Click")).toBe(1);
		// Sent twice past the page's script (as a second tab or a resubmission would): the service
		// creates it once, and the browser ends on the interview it created.
		await fill("Sent Twice");
		await page.locator('form[action="/dashboard/interviews/new"]').evaluate((form) => {
			const f = form as unknown as { submit(): void };
			f.submit();
			f.submit();
		});
		await page.waitForURL(/\/dashboard\/interviews\/int_[0-9A-Za-z]{24}\?created=(1|again)$/);
		await see(page.getByRole("status").first(), /Interview created\.|This form was already sent/);
		expect(await count("Sent Twice")).toBe(1);
		// Back to the form and sent again: the browser loads the form anew (it is no-store) and
		// refills the typed fields; the page puts back the id the form was sent with.
		await fill("Sent Back");
		await page.getByRole("button", { name: "Create interview" }).click();
		await page.waitForURL(/\?created=1$/);
		const created = new URL(page.url()).pathname;
		await page.goBack();
		await page.waitForURL(/\/dashboard\/interviews\/new\?mode=test$/);
		expect(await page.getByLabel("Position").inputValue()).toBe("Sent Back");
		await page.getByRole("button", { name: "Create interview" }).click();
		await page.waitForURL(/\?created=again$/);
		expect(new URL(page.url()).pathname).toBe(created);
		await see(page.getByRole("status").first(), /This form was already sent/);
		expect(await count("Sent Back")).toBe(1);
		// Back again and changed: refused in words, the values kept in a form that sends them.
		await page.goBack();
		await page.waitForURL(/\/dashboard\/interviews\/new\?mode=test$/);
		await page.getByLabel("Position").fill("Sent Back Changed");
		await page.getByRole("button", { name: "Create interview" }).click();
		await see(page.getByRole("alert").first(), /already sent with other values/);
		expect(await count("Sent Back Changed")).toBe(0);
		await page.getByRole("button", { name: "Create interview" }).click();
		await page.waitForURL(/\?created=1$/);
		expect(await count("Sent Back Changed")).toBe(1);
		expect(await count("Sent Back")).toBe(2); // "Sent Back" and "Sent Back Changed"
	});

	it("bulk-invites from a CSV: the bad row is shown before sending, the outcome after", async () => {
		const csv = [
			"candidate_email,candidate_name,skills,test_mode",
			"b1@example.com,Bea One,Go;SQL,true",
			"b2@example.com,Bea Two,Go,true",
			"not-an-address,Bad Row,Go,true",
			'b4@example.com,"Four, Bea",Python,true',
			"b5@example.com,Bea Five,Rust,true",
		].join("\n");
		const file = join(tmpdir(), `dashboard-bulk-${Date.now()}.csv`);
		writeFileSync(file, csv);
		await page.goto(`${service.baseUrl}/dashboard/interviews/bulk`);
		await page.getByLabel("CSV file").setInputFiles(file);
		await page.getByLabel("Position for rows without one").fill("Platform Engineer");
		await page.getByRole("button", { name: "Check the file" }).click();
		await see(page.getByRole("status"), "4 of 5 rows are valid");
		await see(page.locator(".row-error"), "Invalid e-mail address");
		await shot("bulk-preview");
		await page.getByRole("button", { name: "Send 4 invitations" }).click();
		await see(page.getByRole("status"), "4 created, 1 refused");
		await shot("bulk-outcome");
		// The outcome has a page of its own: a reload shows it again and sends nothing.
		expect(page.url()).toMatch(/\/dashboard\/interviews\/bulk\/sent\/[0-9A-Za-z]{24}$/);
		await page.reload();
		await see(page.getByRole("status"), "4 created, 1 refused");
		// The rows are test-mode: the live list does not show them, the test data view does.
		await page.goto(`${service.baseUrl}/dashboard/interviews?position=Platform`);
		await see(page.locator("main"), "0 live interviews match.");
		await shot("interviews");
		await page.getByRole("switch", { name: "View test data" }).click();
		await page.waitForURL(/\?mode=test$/);
		await see(page.locator("#test-banner"), "You are viewing test data");
		await page.getByLabel("Position contains").fill("Platform");
		await page.getByRole("button", { name: "Filter" }).click();
		await page.waitForURL(/mode=test/);
		await see(page.locator("main"), "4 test interviews match.");
		expect(await page.locator("tbody [data-test-label]").count()).toBe(4);
		expect(await page.getByRole("link", { name: "New test interview" }).getAttribute("href")).toBe(
			"/dashboard/interviews/new?mode=test",
		);
		await shot("interviews-test");
		await page.getByRole("link", { name: "Bea One" }).click();
		await see(page.locator("h1"), "Test");
		expect(await page.locator("#test-banner").isVisible()).toBe(true);
	});

	it("shows the dev sandbox's interviews behind their own switch and creates one there", async () => {
		const made = await api(service, "POST", "/v1/interviews", {
			key: service.keys.dev,
			body: {
				candidate_email: "sandy@example.com",
				candidate_name: "Sandy Box",
				position: "Sandbox Engineer",
				skills: ["Go"],
			},
		});
		expect(made.status).toBe(201);
		await page.goto(`${service.baseUrl}/dashboard/interviews`);
		await page.getByRole("link", { name: "Dev sandbox" }).click();
		await page.waitForURL(/\?mode=dev$/);
		await see(page.locator("#dev-banner"), "You are viewing the dev sandbox");
		await see(page.locator("h1"), "Dev sandbox interviews");
		await page.getByLabel("Position contains").fill("Sandbox");
		await page.getByRole("button", { name: "Filter" }).click();
		await page.waitForURL(/mode=dev/);
		await see(page.locator("main"), "1 dev sandbox interview matches.");
		await shot("interviews-dev");
		await page.getByRole("link", { name: "Sandy Box" }).click();
		await see(page.locator("#dev-banner"), "A dev sandbox interview");
		// Its "all interviews" link leads back to the sandbox; its form creates there.
		await page.getByRole("link", { name: "All dev sandbox interviews" }).click();
		await page.getByRole("link", { name: "New dev sandbox interview" }).click();
		await see(page.locator("#dev-banner"), "A dev sandbox interview");
		expect(await page.getByLabel(/Test mode/).count()).toBe(0);
		await page.getByLabel("Candidate email").fill("sandy.two@example.com");
		await page.getByLabel("Position").fill("Sandbox Second");
		await page.getByLabel("Skills (comma-separated)").fill("SQL");
		await page.getByRole("button", { name: "Create interview" }).click();
		await page.waitForURL(/\/dashboard\/interviews\/int_[0-9A-Za-z]{24}\?created=1$/);
		const id = /int_[0-9A-Za-z]{24}/.exec(page.url())?.[0] as string;
		expect((await api(service, "GET", `/v1/interviews/${id}`, { key: service.keys.dev })).status).toBe(200);
		expect((await api(service, "GET", `/v1/interviews/${id}`, { key: service.keys.live })).status).toBe(404);
	});

	it("adds a webhook endpoint, sends a test event, and redelivers it from the log", async () => {
		const control = await fetch(`http://127.0.0.1:${rx.port}/__control/routes/dash`, {
			method: "PUT",
			body: JSON.stringify({ fallback: "ok" }),
		});
		expect(control.status).toBe(200);
		const url = `http://127.0.0.1:${rx.port}/hook/dash`;
		await page.goto(`${service.baseUrl}/dashboard/settings/webhooks`);
		await page.getByLabel("URL (https)").fill(url);
		await page.getByRole("button", { name: "Add endpoint" }).click();
		await page.waitForURL(/\/settings\/webhooks\/wh_/);
		await page.getByRole("button", { name: "Send test event" }).click();
		await see(page.getByRole("status"), "Test event sent: succeeded.");
		const delivery = page.locator("[data-delivery]").first();
		await see(delivery, "webhook.test");
		await see(delivery.locator("tbody tr").first(), "succeeded 200");
		await delivery.getByRole("button", { name: /Redeliver/ }).click();
		await see(page.getByRole("status"), "Redelivery queued");
		// The redelivery goes through the delivery queue: the log shows it once the queue has run.
		const endpointPage = page.url().split("?")[0] as string;
		const deadline = Date.now() + 30_000;
		let received: RecordedRequest[] = [];
		for (;;) {
			received = (await (
				await fetch(`http://127.0.0.1:${rx.port}/__control/requests/dash`)
			).json()) as RecordedRequest[];
			await page.goto(endpointPage);
			const settled = await page.locator("[data-delivery] .status").allTextContents();
			if (received.length === 2 && settled.length === 2 && settled.every((t) => t === "succeeded")) break;
			if (Date.now() > deadline)
				throw new Error(`redelivery not seen: ${received.length} received, ${settled}`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
		await see(page.locator("[data-delivery]").first(), "redelivery");
		expect(received.every((r) => r.body.includes("webhook.test") && r.signatureValid !== false)).toBe(true);
		await shot("webhook");
		await page.goto(`${service.baseUrl}/dashboard/settings/webhooks`);
		await shot("webhooks");
	});

	it("opens a completed interview's results and its printable view", async () => {
		const created = await api(service, "POST", "/v1/interviews", {
			key: service.keys.test,
			body: {
				candidate_email: "grace@example.com",
				candidate_name: "Grace Hopper",
				position: "Compiler Engineer",
				skills: ["TypeScript", "SQL"],
			},
		});
		expect(created.status).toBe(201);
		const id = created.body.data.id as string;
		resultsId = id;
		const done = await api(service, "POST", `/v1/interviews/${id}/test/advance`, {
			key: service.keys.test,
			body: { to: "completed" },
		});
		expect(done.status).toBe(200);
		expect(done.body.data.urls.results_url).toBe(
			`${service.baseUrl.replace("127.0.0.1", "127.0.0.1")}/dashboard/interviews/${id}/results`,
		);
		await page.goto(`${service.baseUrl}/dashboard/interviews/${id}`);
		await page.getByRole("link", { name: "View results" }).click();
		await page.waitForURL(/\/results$/);
		await see(page.locator("h1"), "Grace Hopper");
		// A test-mode interview: its results page is labelled so.
		expect(await page.locator("h1 [data-test-label]").textContent()).toBe("Test");
		await see(page.locator("#recommendation"), /Hire|Maybe|No hire/);
		// Each score says its scale.
		await see(page.locator(".cards .card").first(), /Overall\s*\d+\s*\/ 100/);
		expect(await page.getByRole("img", { name: "Score per skill, out of 100" }).isVisible()).toBe(true);
		expect(await page.getByRole("heading", { name: "Transcript" }).isVisible()).toBe(true);
		await shot("results");
		await page.emulateMedia({ media: "print" });
		expect(await page.getByRole("button", { name: "Print / Save as PDF" }).isVisible()).toBe(false);
		expect(await page.locator("header.top").isVisible()).toBe(false);
		await shot("results-print");
		await page.emulateMedia({ media: "screen" });
	});

	it("follows an in-progress interview live without an API key in the page", async () => {
		const created = await api(service, "POST", "/v1/interviews", {
			key: service.keys.test,
			body: { candidate_email: "live@example.com", position: "Live Engineer", skills: ["SQL"] },
		});
		const id = created.body.data.id as string;
		liveId = id;
		// The candidate starts in a browser of their own and is asked the first question.
		const candidate = await browser.newContext();
		try {
			const room = await candidate.newPage();
			await room.goto(created.body.data.interview_url);
			await room.getByRole("button", { name: "Start the interview" }).click();
			await see(room.locator("#progress"), "Question 1 of");
			const first = (await room.locator("#question-text").textContent()) ?? "";
			expect(first.length).toBeGreaterThan(10);

			await page.goto(`${service.baseUrl}/dashboard/interviews/${id}`);
			await see(page.locator("#live-state"), "Connected");
			await see(page.locator("#live-status"), "In progress");
			await see(page.locator("#live-answered"), /^0 of \d+$/);
			await see(page.locator("#live-ends"), / UTC$/);
			// The question asked before the page was opened comes from the room's history.
			await see(page.locator("#live-log li").first(), `Question 1 of`);
			expect(await page.locator("#live-log li").first().textContent()).toContain(first);

			// The candidate answers: the next question appears in the live view as it is asked.
			await room.getByLabel("Your answer").fill("An index on the join columns, checked with EXPLAIN.");
			await room.getByRole("button", { name: "Send answer" }).click();
			await see(room.locator("#progress"), "Question 2 of");
			const second = (await room.locator("#question-text").textContent()) ?? "";
			await see(page.locator("#live-answered"), /^1 of \d+$/);
			await see(page.locator("#live-log li").nth(1), "Question 2 of");
			expect(await page.locator("#live-log li").nth(1).textContent()).toContain(second);
			expect(await page.locator("#live-log li").count()).toBe(2);
		} finally {
			await candidate.close();
		}
		expect(await page.content()).not.toMatch(/svc_(live|test|dev)_/);
		await shot("live");
	});

	it("fits a phone's width: no page scrolls sideways", async () => {
		const sideways = () =>
			page.evaluate(
				() => (globalThis as any).document.documentElement.scrollWidth - (globalThis as any).innerWidth,
			);
		await page.setViewportSize({ width: 390, height: 844 });
		try {
			for (const path of [
				"/dashboard/interviews",
				"/dashboard/interviews/new",
				"/dashboard/settings/api-keys",
				"/dashboard/settings/webhooks",
				"/dashboard/account",
				"/dashboard/team",
				`/dashboard/interviews/${liveId}`,
				`/dashboard/interviews/${resultsId}/results`,
			]) {
				await page.goto(`${service.baseUrl}${path}`);
				expect(await sideways(), path).toBeLessThanOrEqual(0);
			}
			// A bulk file's preview, one of its rows with a long position: the table scrolls in its
			// own box, the page does not.
			const file = join(tmpdir(), `dashboard-phone-${Date.now()}.csv`);
			writeFileSync(
				file,
				`candidate_email,position,skills\nphone@example.com,${"P".repeat(190)},Go\nlong@example.com,${"Q".repeat(300)},Go\n`,
			);
			await page.goto(`${service.baseUrl}/dashboard/interviews/bulk`);
			await page.getByLabel("CSV file").setInputFiles(file);
			await page.getByRole("button", { name: "Check the file" }).click();
			await see(page.getByRole("status"), "1 of 2 rows are valid");
			expect(await page.getByRole("button", { name: "Send 1 invitation", exact: true }).count()).toBe(1);
			expect(await sideways(), "bulk preview").toBeLessThanOrEqual(0);
			await page.goto(`${service.baseUrl}/dashboard/interviews`);
			await shot("phone-interviews");
		} finally {
			await page.setViewportSize({ width: 1200, height: 900 });
		}
	});

	it("answers an unknown dashboard path with a page, the API's with JSON", async () => {
		const response = await page.goto(`${service.baseUrl}/dashboard/no-such-page`);
		expect(response?.status()).toBe(404);
		await see(page.locator("h1"), "Page not found");
		expect(await page.getByRole("navigation", { name: "Main" }).isVisible()).toBe(true);
		await shot("not-found");
		const api = await fetch(`${service.baseUrl}/v1/no-such-route`, {
			headers: { Authorization: `Bearer ${service.keys.live}` },
		});
		expect(api.status).toBe(404);
		expect(((await api.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
	});

	it("shows the team page and signs out, which closes the session's open live view", async () => {
		// A second tab of the same session follows the interview live.
		const watcher = watchCsp(await page.context().newPage());
		await watcher.goto(`${service.baseUrl}/dashboard/interviews/${liveId}`);
		await see(watcher.locator("#live-state"), "Connected");
		await page.goto(`${service.baseUrl}/dashboard/team`);
		await see(page.locator("main"), service.owner.email);
		// An invitation: e-mailed through the queue (the local send_email writes the message to a
		// file and logs its path), the same link shown once; the invitee sets a password with it.
		const sentBefore = emailFiles(service.output()).length;
		await page.getByLabel("Email").fill("invitee@example.com");
		await page.getByLabel("Role").selectOption("member");
		await page.getByRole("button", { name: "Create invitation" }).click();
		const shown = ((await page.locator("#invite-link").textContent()) ?? "").trim();
		expect(shown).toMatch(/\/dashboard\/invitation#[0-9A-Za-z]{43}$/);
		await shot("team");
		const deadline = Date.now() + 30_000;
		while (emailFiles(service.output()).length === sentBefore && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 300));
		}
		const files = emailFiles(service.output()).slice(sentBefore);
		expect(files).toHaveLength(1);
		const mail = await PostalMime.parse(readFileSync(files[0] as string), { attachmentEncoding: "utf8" });
		expect(mail.to?.[0]?.address).toBe("invitee@example.com");
		expect(mail.text).toContain(shown);
		expect(mail.html).toContain(`href="${shown}"`);
		// The token is in no log line of the service (the Worker's or wrangler's request lines).
		expect(service.output()).not.toContain(new URL(shown).hash.slice(1));
		const invitee = await browser.newContext();
		const tab = watchCsp(await invitee.newPage());
		await tab.goto(shown);
		expect(new URL(tab.url()).hash).toBe("");
		await tab.getByLabel("New password").fill("invitee long password");
		await tab.getByLabel("Repeat the password").fill("invitee long password");
		await tab.getByRole("button", { name: "Set password" }).click();
		await tab.waitForURL(/\/dashboard\/interviews$/);
		await see(tab.locator("header.top"), "invitee@example.com (member)");
		await invitee.close();
		await page.getByRole("button", { name: "Sign out" }).click();
		await page.waitForURL(/\/dashboard\/login\?signed_out=1$/);
		// The server closed the other tab's socket (4003) and the page says why.
		await see(watcher.locator("#live-state"), "The live view closed: Signed out.");
		await watcher.screenshot({ path: join(SHOTS, "dashboard-live-signed-out.png"), fullPage: true });
		await watcher.close();
		await page.goto(`${service.baseUrl}/dashboard/interviews`);
		expect(new URL(page.url()).pathname).toBe("/dashboard/login");
	});
	it("breaks no page's Content-Security-Policy, which allows no inline script", async () => {
		// Every page the tests above opened ran the dashboard's script from its file: copying,
		// confirming, the form ids, the time hints, the live view and the invitation all worked.
		const response = await page.goto(`${service.baseUrl}/dashboard/interviews`);
		const policy = response?.headers()["content-security-policy"] ?? "";
		expect(policy).toContain("script-src 'self';");
		expect(cspViolations).toEqual([]);
		// A script written into a page by an escaping slip would not run.
		const ran = await page.evaluate(() => {
			const doc = (globalThis as any).document;
			const s = doc.createElement("script");
			s.textContent = "window.__injected = true";
			doc.body.appendChild(s);
			return (globalThis as any).__injected === true;
		});
		expect(ran).toBe(false);
		expect(cspViolations.length).toBeGreaterThan(0);
	});
});
