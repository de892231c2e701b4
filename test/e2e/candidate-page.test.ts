import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, launchChromium, type Service, startService } from "./harness";

const OUTPUT = join(import.meta.dirname, "..", "..", "test-output");
let service: Service;
let browser: Browser;

beforeAll(async () => {
	service = await startService();
	browser = await launchChromium(["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]);
});

afterAll(async () => {
	await browser?.close();
	await service?.stop();
});

async function createInterview(body: Record<string, unknown> = {}) {
	const res = await api(service, "POST", "/v1/interviews", {
		key: service.keys.live,
		body: {
			candidate_email: "ada@example.com",
			position: "Data Engineer",
			skills: ["SQL"],
			duration_minutes: 15,
			...body,
		},
	});
	expect(res.status).toBe(201);
	return res.body.data as { id: string; interview_url: string };
}

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
	const deadline = Date.now() + ms;
	for (;;) {
		const value = await read();
		if (done(value) || Date.now() > deadline) return value;
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
}

async function answerCurrent(page: Page, text: string) {
	const before = await page.locator("#question-text").textContent();
	await page.getByLabel("Your answer").fill(text);
	await page.getByRole("button", { name: "Send answer" }).click();
	await page.waitForFunction(
		(previous) => {
			// Runs in the page.
			const doc = (globalThis as any).document;
			return (
				doc.querySelector("#question-text")?.textContent !== previous ||
				!doc.querySelector('[data-section="thanks"]').hidden
			);
		},
		before,
		{ timeout: 15_000 },
	);
}

describe("the candidate's page in a real browser", () => {
	it("records from the interview's start, not while the candidate waits for a slot", async () => {
		// An account with one concurrent slot, taken by another interview's candidate.
		const admin = (method: string, path: string, body?: unknown) =>
			api(service, method, `/admin${path}`, { key: service.adminToken, body });
		const account = (await admin("POST", "/accounts", { company_name: "Slots", plan: "starter" })).body.data;
		await admin("PATCH", `/accounts/${account.id}`, { limits: { concurrent_interviews: 1 } });
		const key = (await admin("POST", `/accounts/${account.id}/keys`, { name: "k", environment: "live" })).body
			.data.key as string;
		const create = async () => {
			const res = await api(service, "POST", "/v1/interviews", {
				key,
				body: {
					candidate_email: "c@example.com",
					position: "Analyst",
					skills: ["SQL"],
					duration_minutes: 15,
				},
			});
			expect(res.status).toBe(201);
			return res.body.data as { id: string; interview_url: string };
		};
		const first = await create();
		const token = new URL(first.interview_url).searchParams.get("token") as string;
		const wsBase = service.baseUrl.replace(/^http/, "ws");
		const holder = new WebSocket(`${wsBase}/interview/${first.id}/?token=${token}`);
		await new Promise((resolve, reject) => {
			holder.addEventListener("message", resolve, { once: true });
			holder.addEventListener("error", reject, { once: true });
		});

		const second = await create();
		const page = await browser.newPage();
		try {
			await page.goto(second.interview_url);
			await page.getByRole("button", { name: "Start the interview" }).click();
			await page.locator('[data-section="waiting"]').waitFor({ state: "visible", timeout: 15_000 });
			// Longer than one recording slice (5 s): a recorder running now would have sent a chunk.
			await new Promise((resolve) => setTimeout(resolve, 6_500));
			const cancelled = await api(service, "DELETE", `/v1/interviews/${first.id}`, { key });
			expect(cancelled.status).toBe(200);
			await page.locator("#question-text").waitFor({ state: "visible", timeout: 20_000 });
			const recorded = await poll(
				() => api(service, "GET", `/v1/interviews/${second.id}?include_recordings=true`, { key }),
				(r) => r.body.data.recordings.length > 0,
			);
			const chunks = recorded.body.data.recordings.map((r: { chunk: number }) => r.chunk);
			expect(chunks[0]).toBe(0);
		} finally {
			holder.close();
			await page.close();
		}
	});

	it("takes the candidate through every question to the thank-you page, and the API shows the results", async () => {
		const interview = await createInterview({ company_name: "Initech" });
		const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
		await page.goto(interview.interview_url);
		await expect(page.getByRole("heading", { name: "Data Engineer" }).isVisible()).resolves.toBe(true);
		expect(await page.textContent("body")).toContain("Initech");
		expect(await page.textContent("body")).toContain("SQL");

		await page.getByRole("button", { name: "Start the interview" }).click();
		await page.locator("#question-text").waitFor({ state: "visible", timeout: 15_000 });
		await page.waitForFunction(
			() => ((globalThis as any).document.querySelector("#question-text")?.textContent ?? "").length > 10,
		);
		mkdirSync(OUTPUT, { recursive: true });
		await page.screenshot({ path: join(OUTPUT, "question-screen.png"), fullPage: true });
		expect(await page.locator("#progress").textContent()).toMatch(/^Question 1 of \d+$/);
		// The question's skill, not its difficulty, which adapts to the answers and is not the candidate's to read.
		expect(await page.locator("#question-meta").textContent()).toBe("SQL");

		// The box takes what the server takes, and counts from 90 % of it.
		const box = page.getByLabel("Your answer");
		expect(await box.getAttribute("maxlength")).toBe("20000");
		await box.fill("x".repeat(17_000));
		expect(await page.locator("#answer-count").isVisible()).toBe(false);
		await box.fill("x".repeat(25_000));
		await page.locator("#answer-count").waitFor({ state: "visible" });
		expect(await page.locator("#answer-count").textContent()).toBe("20,000 of 20,000 characters");
		expect((await box.inputValue()).length).toBe(20_000);
		await box.fill("");

		await answerCurrent(
			page,
			"I would add an index on the join columns, check the query plan with EXPLAIN, and use transactions.",
		);
		// "Answer sent." gives way once the next question is shown.
		expect(await page.locator("#status-line").textContent()).toBe("Answer received. Next question.");
		expect(await page.locator("#answer-count").isVisible()).toBe(false);
		const recorded = await poll(
			() =>
				api(service, "GET", `/v1/interviews/${interview.id}?include_recordings=true`, {
					key: service.keys.live,
				}),
			(r) => r.body.data.recordings.length > 0,
		);
		expect(recorded.body.data.recordings.length).toBeGreaterThan(0);
		const link = recorded.body.data.recordings[0].url as string;
		const audio = await fetch(link);
		expect(audio.status).toBe(200);
		expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(0);
		expect((await fetch(link.replace(/sig=[0-9a-f]{4}/, "sig=0000"))).status).toBe(404);

		// A reload resumes where the candidate was.
		const current = await page.locator("#question-text").textContent();
		await page.reload();
		await page.waitForFunction(
			(text) => (globalThis as any).document.querySelector("#question-text")?.textContent === text,
			current,
			{
				timeout: 15_000,
			},
		);

		for (let i = 0; i < 20; i++) {
			if (await page.locator('[data-section="thanks"]').isVisible()) break;
			await answerCurrent(
				page,
				"Normalise the schema, use indexes wisely, and measure with EXPLAIN ANALYZE before and after.",
			);
		}
		await page.getByRole("heading", { name: "Thank you!" }).waitFor({ timeout: 15_000 });

		const done = await poll(
			() =>
				api(service, "GET", `/v1/interviews/${interview.id}?include_results=true&include_transcript=true`, {
					key: service.keys.live,
				}),
			(r) => r.body.data.results !== null,
		);
		expect(done.body.data.status).toBe("completed");
		expect(done.body.data.results.overall_score).toEqual(expect.any(Number));
		expect(done.body.data.transcript.length).toBeGreaterThan(0);
		await page.close();
	});

	it("keeps a typed answer and the recording across a reload", async () => {
		const interview = await createInterview();
		const page = await browser.newPage();
		try {
			await page.goto(interview.interview_url);
			await page.getByRole("button", { name: "Start the interview" }).click();
			await page.locator("#question-text").waitFor({ state: "visible", timeout: 15_000 });
			await page.locator("#recording").waitFor({ state: "visible", timeout: 15_000 });
			const draft = "Draft: I would start by partitioning the table by day";
			await page.locator("#answer").fill(draft);
			// Longer than one recording slice (5 s), so that the first segment has sent a chunk.
			await poll(
				() =>
					api(service, "GET", `/v1/interviews/${interview.id}?include_recordings=true`, {
						key: service.keys.live,
					}),
				(r) => r.body.data.recordings.length > 0,
			);
			await page.reload();
			await page.locator("#question-text").waitFor({ state: "visible", timeout: 15_000 });
			await page.waitForFunction(
				(text) => (globalThis as any).document.querySelector("#answer")?.value === text,
				draft,
				{ timeout: 10_000 },
			);
			// The microphone was allowed before: the page records again, as a new segment, unasked.
			await page.locator("#recording").waitFor({ state: "visible", timeout: 15_000 });
			const recorded = await poll(
				() =>
					api(service, "GET", `/v1/interviews/${interview.id}?include_recordings=true`, {
						key: service.keys.live,
					}),
				(r) => new Set(r.body.data.recordings.map((x: { segment: string }) => x.segment)).size >= 2,
				30_000,
			);
			const segments = new Set(recorded.body.data.recordings.map((x: { segment: string }) => x.segment));
			expect(segments.size).toBe(2);
		} finally {
			await page.close();
		}
	});

	it("serves each recording as one file, which the results page plays past its first part", async () => {
		const interview = await createInterview();
		const page = await browser.newPage();
		const recruiter = await browser.newContext();
		try {
			// The second part's first upload fails on the network: the page sends it again.
			let failed = 0;
			await page.route(/\/recordings\?.*&chunk=1$/, (route) => {
				if (failed++ === 0) return route.abort("failed");
				return route.continue();
			});
			await page.goto(interview.interview_url);
			await page.getByRole("button", { name: "Start the interview" }).click();
			await page.locator("#recording").waitFor({ state: "visible", timeout: 15_000 });
			// Three 5-second parts: only the first carries the file's header.
			const recorded = await poll(
				() =>
					api(service, "GET", `/v1/interviews/${interview.id}?include_recordings=true`, {
						key: service.keys.live,
					}),
				(r) => r.body.data.recordings.length >= 3,
				30_000,
			);
			const { recordings, recording_segments: segments } = recorded.body.data;
			expect(segments).toHaveLength(1);
			const parts = recordings.filter((r: { segment: string }) => r.segment === segments[0].segment);
			expect(failed).toBeGreaterThan(1);
			expect(parts.slice(0, 3).map((r: { chunk: number }) => r.chunk)).toEqual([0, 1, 2]);
			// Speech at 32 kbit/s: about 20 KB a part.
			for (const part of parts.slice(0, 3)) expect(part.size_bytes).toBeLessThan(30_000);
			const joined = new Uint8Array(await (await fetch(segments[0].url)).arrayBuffer());
			// The parts listed then, joined in order (more may have been stored since).
			let at = 0;
			for (const part of parts) {
				const own = new Uint8Array(await (await fetch(part.url)).arrayBuffer());
				expect(Buffer.from(joined.subarray(at, at + own.length)).equals(Buffer.from(own))).toBe(true);
				at += own.length;
			}

			for (let i = 0; i < 20; i++) {
				if (await page.locator('[data-section="thanks"]').isVisible()) break;
				await answerCurrent(page, "Index the join columns and read the plan with EXPLAIN before and after.");
			}
			await page.getByRole("heading", { name: "Thank you!" }).waitFor({ timeout: 15_000 });

			// The recruiter's results page: one player per recording, under the page's own policy.
			const tab = await recruiter.newPage();
			await tab.goto(`${service.baseUrl}/dashboard/interviews/${interview.id}/results`);
			await tab.getByLabel("Email").fill(service.owner.email);
			await tab.getByLabel("Password").fill(service.owner.password);
			await tab.getByRole("button", { name: "Sign in" }).click();
			await tab.waitForURL(/\/results$/);
			const player = tab.getByLabel("Recording 1", { exact: true });
			const src = (await player.getAttribute("src")) as string;
			expect(src).toContain(`/recordings/${interview.id}/segment-${segments[0].segment}.webm?`);
			// Played in the page, muted and at 16 times speed: how far it plays before it ends.
			const played = (url: string) =>
				tab.evaluate(
					(url) =>
						new Promise<{ ended: number | null; error: string | null }>((resolve) => {
							const audio = new (globalThis as any).Audio(url);
							audio.muted = true;
							audio.playbackRate = 16;
							const stop = setTimeout(() => resolve({ ended: null, error: "timeout" }), 20_000);
							audio.onended = () => {
								clearTimeout(stop);
								resolve({ ended: audio.currentTime, error: null });
							};
							audio.onerror = () => {
								clearTimeout(stop);
								resolve({ ended: null, error: String(audio.error?.message) });
							};
							audio.play().catch(() => {});
						}),
					url,
				);
			const whole = await played(src);
			expect(whole.error).toBeNull();
			// All of it: more than the three parts' 15 seconds, less the recorder's start.
			expect(whole.ended).toBeGreaterThan(12);
			expect((await played(parts[0].url)).ended).toBeLessThan(6);
			// A later part alone is not a file a browser plays.
			expect((await played(parts[1].url)).error).not.toBeNull();
			mkdirSync(OUTPUT, { recursive: true });
			await tab.locator('section[aria-labelledby="recordings-h"]').screenshot({
				path: join(OUTPUT, "results-recordings.png"),
			});
		} finally {
			await recruiter.close();
			await page.close();
		}
	});

	it("keeps an answer typed while reconnecting, and shows the cancelled page when the interview ends meanwhile", async () => {
		const interview = await createInterview();
		const page = await browser.newPage();
		// Keeps a handle on the page's sockets so the test can drop the connection, holds new
		// connections back (they go to a closed port) while `__hold` is set, and records every
		// status the page announces, so a later announcement cannot hide an earlier one.
		await page.addInitScript(() => {
			const w = globalThis as any;
			const Native = w.WebSocket;
			w.__sockets = [];
			w.__hold = false;
			w.__statuses = [];
			w.WebSocket = class extends Native {
				constructor(url: string, ...rest: unknown[]) {
					super(w.__hold ? "ws://127.0.0.1:9/" : url, ...rest);
					w.__sockets.push(this);
				}
			};
			w.addEventListener("DOMContentLoaded", () => {
				const line = w.document.querySelector("#status-line");
				new w.MutationObserver(() => w.__statuses.push(line.textContent)).observe(line, {
					childList: true,
					characterData: true,
					subtree: true,
				});
			});
		});
		await page.goto(interview.interview_url);
		await page.getByRole("button", { name: "Start the interview" }).click();
		await page.waitForFunction(
			() => ((globalThis as any).document.querySelector("#question-text")?.textContent ?? "").length > 10,
			undefined,
			{ timeout: 15_000 },
		);
		const drop = () => page.evaluate(() => (globalThis as any).__sockets.at(-1).close());
		const statuses = () => page.evaluate(() => (globalThis as any).__statuses as string[]);

		await page.evaluate(() => {
			(globalThis as any).__hold = true;
		});
		await drop();
		const before = (await statuses()).length;
		await page.getByLabel("Your answer").fill("An index on the join columns, checked with EXPLAIN.");
		await page.getByRole("button", { name: "Send answer" }).click();
		expect((await statuses()).slice(before)).toContainEqual(
			expect.stringContaining("Not connected right now"),
		);
		expect(await page.getByLabel("Your answer").isEnabled()).toBe(true);
		await page.evaluate(() => {
			(globalThis as any).__hold = false;
		});
		await page.waitForFunction(
			() => (globalThis as any).document.querySelector("#status-line")?.textContent === "Connected.",
			undefined,
			{ timeout: 20_000 },
		);
		// The text is still there and goes through on the new connection.
		expect(await page.getByLabel("Your answer").inputValue()).toContain("EXPLAIN");
		await answerCurrent(page, "An index on the join columns, checked with EXPLAIN.");

		// Cancelled while the page is reconnecting: the refused connection leads to the final page.
		await drop();
		const cancelled = await api(service, "DELETE", `/v1/interviews/${interview.id}`, {
			key: service.keys.live,
		});
		expect(cancelled.status).toBe(200);
		await page
			.getByRole("heading", { level: 1, name: "This interview was cancelled" })
			.waitFor({ timeout: 20_000 });
		await page.close();
	});

	it("shows the new time when the interview was moved while its page was open, instead of reconnecting", async () => {
		const interview = await createInterview();
		const page = await browser.newPage();
		try {
			await page.goto(interview.interview_url);
			const moved = await api(service, "PATCH", `/v1/interviews/${interview.id}`, {
				key: service.keys.live,
				body: { scheduled_at: new Date(Date.now() + 2 * 86_400_000).toISOString() },
			});
			expect(moved.status).toBe(200);
			await page.getByRole("button", { name: "Start the interview" }).click();
			// The join is refused before the upgrade (not open yet): the page reloads into the new time.
			await page.getByText("It opens 15 minutes before").waitFor({ state: "visible", timeout: 15_000 });
			expect(await page.getByRole("button", { name: "Start the interview" }).count()).toBe(0);
		} finally {
			await page.close();
		}
	});

	it("shows a clear page for cancelled, unknown and not-yet-open links", async () => {
		const interview = await createInterview();
		await api(service, "DELETE", `/v1/interviews/${interview.id}`, { key: service.keys.live });
		const page = await browser.newPage();
		await page.goto(interview.interview_url);
		expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("This interview was cancelled");
		const unknown = await page.goto(interview.interview_url.replace(/token=.*/, "token=wrong"));
		expect(unknown?.status()).toBe(404);
		expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Interview not found");
		const later = await createInterview({ scheduled_at: new Date(Date.now() + 86_400_000).toISOString() });
		await page.goto(later.interview_url);
		expect(await page.textContent("body")).toContain("It opens 15 minutes before");
		expect(await page.getByRole("button", { name: "Start the interview" }).count()).toBe(0);
		// A page opened just before the opening reloads itself then and offers the start.
		const soon = await createInterview({
			scheduled_at: new Date(Date.now() + 15 * 60_000 + 3_000).toISOString(),
		});
		await page.goto(soon.interview_url);
		expect(await page.getByRole("button", { name: "Start the interview" }).count()).toBe(0);
		await page
			.getByRole("button", { name: "Start the interview" })
			.waitFor({ state: "visible", timeout: 20_000 });
		await page.close();
	});
});
