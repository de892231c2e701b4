import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type Service, startService } from "../e2e/harness";

/** The housekeeping period and resend period the restarted service runs with. */
const SHORT = { CRON_INTERVAL_S: "5" };
/** An admission without its interview is given back after this long (the sweep's period). */
const ORPHAN_AFTER_S = 30;
const VARS = { DELIVERY_RESEND_AFTER_S: "10", ADMISSION_ORPHAN_AFTER_S: String(ORPHAN_AFTER_S) };
/** Every recorded delivery must be final this long after the restart (issue 27's acceptance). */
const FINAL_WITHIN_MS = 4 * 60_000;

/** A webhook receiver on 127.0.0.1 that answers 200 and records every delivery id it sees. */
function startReceiver(): Promise<{ server: Server; url: string; seen: Map<string, number> }> {
	const seen = new Map<string, number>();
	const server = createServer((req, res) => {
		const id = String(req.headers["x-service-delivery"] ?? "");
		req.resume();
		req.on("end", () => {
			seen.set(id, (seen.get(id) ?? 0) + 1);
			res.writeHead(200).end("ok");
		});
	});
	return new Promise((resolve) => {
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			const port = typeof address === "object" && address ? address.port : 0;
			resolve({ server, url: `http://127.0.0.1:${port}/hook`, seen });
		});
	});
}

async function allPages<T>(service: Service, key: string, path: string): Promise<T[]> {
	const items: T[] = [];
	let cursor: string | null = null;
	for (let page = 0; page < 100; page++) {
		const sep = path.includes("?") ? "&" : "?";
		const res: { status: number; body: any } = await api(
			service,
			"GET",
			`${path}${sep}limit=100${cursor ? `&cursor=${cursor}` : ""}`,
			{
				key,
			},
		);
		expect(res.status).toBe(200);
		items.push(...(res.body.data as T[]));
		cursor = res.body.pagination?.next_cursor ?? null;
		if (!cursor) break;
	}
	return items;
}

async function credits(service: Service): Promise<number> {
	const res = await api(service, "GET", "/v1/account/profile", { key: service.keys.live });
	return res.body.data.credits_balance as number;
}

async function waitFor<T>(what: () => string, withinMs: number, probe: () => Promise<T | null>): Promise<T> {
	const deadline = Date.now() + withinMs;
	let last: T | null = null;
	while (Date.now() < deadline) {
		last = await probe();
		if (last !== null) return last;
		await new Promise((resolve) => setTimeout(resolve, 2_000));
	}
	throw new Error(`${what()}: not within ${withinMs} ms`);
}

/**
 * A webhook receiver on 127.0.0.1 that holds every request `holdMs` before answering 200, and
 * records each one's delivery id (`webhook-id`) and event id as it arrives.
 */
function startSlowReceiver(holdMs: number): Promise<{
	server: Server;
	url: string;
	received: { deliveryId: string; eventId: string }[];
	holding: () => number;
}> {
	const received: { deliveryId: string; eventId: string }[] = [];
	let holding = 0;
	const server = createServer((req, res) => {
		const deliveryId = String(req.headers["webhook-id"] ?? "");
		const eventId = String(req.headers["x-service-event-id"] ?? "");
		req.resume();
		req.on("end", () => {
			received.push({ deliveryId, eventId });
			holding++;
			setTimeout(() => {
				holding--;
				// The sender may have been killed meanwhile: its connection is gone.
				if (!res.destroyed) res.writeHead(200).end("ok");
			}, holdMs);
		});
	});
	return new Promise((resolve) => {
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			const port = typeof address === "object" && address ? address.port : 0;
			resolve({ server, url: `http://127.0.0.1:${port}/slow`, received, holding: () => holding });
		});
	});
}

/** Polls `probe` every 50 ms until it gives a value (frames arrive faster than `waitFor` polls). */
async function until<T>(what: string, withinMs: number, probe: () => T | null | undefined): Promise<T> {
	const deadline = Date.now() + withinMs;
	while (Date.now() < deadline) {
		const value = probe();
		if (value !== null && value !== undefined) return value;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	throw new Error(`${what}: not within ${withinMs} ms`);
}

interface Frame {
	type: string;
	code?: string;
	question?: { id: string; index: number; total: number };
	interview?: { status: string; questions_answered: number };
}

/** A candidate on the plain WebSocket channel (docs/live-room.md): every frame it got, in order. */
class Candidate {
	readonly frames: Frame[] = [];
	private constructor(
		private readonly ws: WebSocket,
		private readonly interviewId: string,
	) {}

	static async join(service: Service, interviewId: string, token: string): Promise<Candidate> {
		const ws = new WebSocket(
			`${service.baseUrl.replace(/^http/, "ws")}/interview/${interviewId}/?token=${encodeURIComponent(token)}`,
		);
		const candidate = new Candidate(ws, interviewId);
		ws.addEventListener("message", (event) => {
			const text = String(event.data);
			if (text !== "pong") candidate.frames.push(JSON.parse(text) as Frame);
		});
		await new Promise<void>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error("the WebSocket did not open")), 30_000);
			ws.addEventListener(
				"open",
				() => {
					clearTimeout(timer);
					resolve();
				},
				{ once: true },
			);
			ws.addEventListener(
				"error",
				() => {
					clearTimeout(timer);
					reject(new Error("the WebSocket failed"));
				},
				{ once: true },
			);
		});
		return candidate;
	}

	/** The first `question` frame from frame number `from` on. */
	question(from: number): Promise<{ id: string; index: number; total: number }> {
		return until(
			"a question",
			60_000,
			() => this.frames.slice(from).find((f) => f.type === "question")?.question,
		);
	}

	/** The newest `interview_update` so far. */
	latest(): Frame["interview"] {
		return this.frames.filter((f) => f.type === "interview_update").at(-1)?.interview;
	}

	answer(questionId: string, response: string): void {
		this.ws.send(
			JSON.stringify({
				type: "candidate_response",
				session_id: this.interviewId,
				question_id: questionId,
				response,
				timestamp: new Date().toISOString(),
			}),
		);
	}

	close(): void {
		try {
			this.ws.close();
		} catch {
			// already closed by the kill
		}
	}
}

async function profile(service: Service): Promise<{
	credits_balance: number;
	usage: { monthly_interviews_used: number; concurrent_interviews_in_progress: number };
}> {
	const res = await api(service, "GET", "/v1/account/profile", { key: service.keys.live });
	expect(res.status).toBe(200);
	return res.body.data;
}

describe("SIGKILL and restart on the same state", () => {
	let service: Service;
	let receiver: Awaited<ReturnType<typeof startReceiver>>;

	beforeAll(async () => {
		receiver = await startReceiver();
		service = await startService({ env: SHORT, vars: VARS });
		await api(service, "PATCH", `/admin/accounts/${service.accountId}`, {
			key: service.adminToken,
			// Polling the delivery log every 2 s must not meet the rate limit.
			// Several bulks of 100 must stay within the month's quota.
			body: {
				credits_delta: 10_000,
				limits: { requests_per_minute: 100_000, monthly_interviews: 100_000 },
			},
		});
	});

	afterAll(async () => {
		await service?.stop();
		receiver?.server.close();
	});

	/** The output of every service process killed so far (the current one's is `service.output()`). */
	const killedOutputs: string[] = [];

	async function restart(): Promise<void> {
		killedOutputs.push(service.output());
		await service.kill();
		service = await startService({ env: SHORT, vars: VARS, restart: service });
	}

	it("right after a bulk of 100 answered, with an endpoint configured: every interview, event, credit and delivery once", async () => {
		const hook = await api(service, "POST", "/v1/webhooks", {
			key: service.keys.live,
			body: { url: receiver.url, events: ["interview.scheduled"] },
		});
		expect(hook.status).toBe(201);
		const before = await credits(service);
		const bulk = await api(service, "POST", "/v1/interviews/bulk", {
			key: service.keys.live,
			body: {
				interviews: Array.from({ length: 100 }, (_, i) => ({
					candidate_email: `fault${i}@example.com`,
					position: "Engineer",
					skills: ["SQL"],
					scheduled_at: new Date(Date.now() + 3 * 24 * 3_600_000).toISOString(),
				})),
			},
		});
		expect(bulk.status).toBe(200);
		expect(bulk.body.data.summary.successful_count).toBe(100);
		await restart();
		const restartedAt = Date.now();

		const ids = (bulk.body.data.successful as { interview?: { id: string } }[])
			.map((r) => r.interview?.id)
			.filter((id): id is string => typeof id === "string");
		expect(ids).toHaveLength(100);
		const listed = new Set(
			(await allPages<{ id: string }>(service, service.keys.live, "/v1/interviews")).map((i) => i.id),
		);
		for (const id of ids) expect(listed.has(id)).toBe(true);
		const events = await allPages<{ interview_id: string }>(
			service,
			service.keys.live,
			"/v1/events?type=interview.scheduled",
		);
		const scheduled = events.filter((e) => ids.includes(e.interview_id));
		expect(scheduled).toHaveLength(100);
		expect(new Set(scheduled.map((e) => e.interview_id)).size).toBe(100);
		expect(await credits(service)).toBe(before - 100);

		// Every recorded delivery is attempted and final within four minutes of the restart.
		let seenOutcomes = "";
		const deliveries = await waitFor(
			() => `every delivery final (last seen: ${seenOutcomes}; receiver saw ${receiver.seen.size})`,
			FINAL_WITHIN_MS,
			async () => {
				const rows = await allPages<{ id: string; outcome: string; attempt_count?: number }>(
					service,
					service.keys.live,
					`/v1/webhooks/${hook.body.data.id}/deliveries`,
				);
				const counts = new Map<string, number>();
				for (const d of rows) counts.set(d.outcome, (counts.get(d.outcome) ?? 0) + 1);
				seenOutcomes = JSON.stringify(Object.fromEntries(counts));
				return rows.length >= 100 && rows.every((d) => d.outcome === "succeeded") ? rows : null;
			},
		);
		expect(Date.now() - restartedAt).toBeLessThan(FINAL_WITHIN_MS);
		expect(deliveries).toHaveLength(100);
		for (const d of deliveries) expect(receiver.seen.has(d.id)).toBe(true);
	});

	it("during a cancel: the interview is cancelled once, its credit refunded once", async () => {
		const created = await api(service, "POST", "/v1/interviews", {
			key: service.keys.live,
			body: {
				candidate_email: "cancel@example.com",
				position: "Engineer",
				skills: ["SQL"],
				scheduled_at: new Date(Date.now() + 24 * 3_600_000).toISOString(),
			},
		});
		expect(created.status).toBe(201);
		const id = created.body.data.id as string;
		const before = await credits(service);
		// The cancel is sent and the service killed while it may be running.
		const cancel = fetch(`${service.baseUrl}/v1/interviews/${id}?refund_credits=true`, {
			method: "DELETE",
			headers: { Authorization: `Bearer ${service.keys.live}` },
		}).catch(() => null);
		await new Promise((resolve) => setTimeout(resolve, 30));
		await restart();
		await cancel;

		const again = await api(service, "DELETE", `/v1/interviews/${id}?refund_credits=true`, {
			key: service.keys.live,
		});
		expect([200, 409]).toContain(again.status);
		const state = await api(service, "GET", `/v1/interviews/${id}`, { key: service.keys.live });
		expect(state.body.status ?? state.body.data?.status).toBe("cancelled");
		const events = await allPages<{ interview_id: string }>(
			service,
			service.keys.live,
			`/v1/events?type=interview.cancelled&interview_id=${id}`,
		);
		expect(events).toHaveLength(1);
		expect(await credits(service)).toBe(before + 1);
	});
	it("mid-interview, right after an acknowledged answer and with one in flight: acknowledged answers kept once, the interview resumes and finishes, events and credit once", async () => {
		const live = service.keys.live;
		const before = await credits(service);
		const created = await api(service, "POST", "/v1/interviews", {
			key: live,
			body: {
				candidate_email: "live@example.com",
				position: "Engineer",
				skills: ["SQL", "TypeScript"],
				duration_minutes: 30,
			},
		});
		expect(created.status).toBe(201);
		const id = created.body.data.id as string;
		const token = new URL(created.body.data.interview_url).searchParams.get("token") as string;
		let sent = 0;
		const answerText = () =>
			`Answer ${++sent}: I would read the plan with EXPLAIN, add an index that covers the query, and measure before and after.`;
		/** Question id -> the answer the service acknowledged for it (by sending the next question). */
		const acknowledged = new Map<string, string>();

		let candidate = await Candidate.join(service, id, token);
		let question = await candidate.question(0);
		expect(question.index).toBe(0);
		for (let i = 0; i < 2; i++) {
			const mark = candidate.frames.length;
			const text = answerText();
			candidate.answer(question.id, text);
			const next = await candidate.question(mark);
			expect(next.index).toBe(question.index + 1);
			acknowledged.set(question.id, text);
			question = next;
		}

		// Killed right after an acknowledgement: the restarted service asks the same next question.
		await restart();
		candidate.close();
		candidate = await Candidate.join(service, id, token);
		const resumed = await candidate.question(0);
		expect(resumed.id).toBe(question.id);
		expect(candidate.latest()?.questions_answered).toBe(2);

		// Killed with an answer sent and not yet acknowledged: kept once or not at all.
		const inFlight = answerText();
		candidate.answer(question.id, inFlight);
		await restart();
		candidate.close();
		candidate = await Candidate.join(service, id, token);
		const after = await candidate.question(0);
		const inFlightKept = after.id !== question.id;
		expect(after.index).toBe(question.index + (inFlightKept ? 1 : 0));
		expect(candidate.latest()?.questions_answered).toBe(acknowledged.size + (inFlightKept ? 1 : 0));
		if (inFlightKept) acknowledged.set(question.id, inFlight);
		console.log(`mid-interview: the answer in flight at the kill was ${inFlightKept ? "kept" : "not kept"}`);

		// The rest of the interview, to its end.
		question = after;
		for (let i = 0; i <= question.total; i++) {
			const mark = candidate.frames.length;
			const text = answerText();
			const asked = question.id;
			candidate.answer(asked, text);
			const outcome = await until("the answer's outcome", 60_000, () => {
				const later = candidate.frames.slice(mark);
				return (
					later.find((f) => f.type === "error") ??
					later.find((f) => f.type === "question" && f.question?.id !== asked) ??
					later.find((f) => f.type === "interview_update" && f.interview?.status === "completed")
				);
			});
			expect(outcome.type, JSON.stringify(outcome)).not.toBe("error");
			acknowledged.set(asked, text);
			if (outcome.type === "interview_update") break;
			question = outcome.question as typeof question;
		}
		candidate.close();

		const done = await api(service, "GET", `/v1/interviews/${id}?include_transcript=true`, { key: live });
		expect(done.body.data.status).toBe("completed");
		const transcript = done.body.data.transcript as { question: { id: string }; answer: string | null }[];
		expect(transcript).toHaveLength(acknowledged.size);
		expect(new Set(transcript.map((e) => e.question.id)).size).toBe(transcript.length);
		for (const [questionId, text] of acknowledged) {
			expect(transcript.filter((e) => e.answer === text)).toHaveLength(1);
			expect(transcript.find((e) => e.question.id === questionId)?.answer).toBe(text);
		}
		expect(transcript.filter((e) => e.answer === inFlight)).toHaveLength(inFlightKept ? 1 : 0);
		for (const type of ["candidate.joined", "interview.started", "interview.completed"]) {
			const events = await allPages(service, live, `/v1/events?type=${type}&interview_id=${id}`);
			expect(events, type).toHaveLength(1);
		}
		expect(await credits(service)).toBe(before - 1);
		// Its concurrent slot is given back: nothing is left in progress.
		await waitFor(
			() => "no interview in progress",
			60_000,
			async () => ((await profile(service)).usage.concurrent_interviews_in_progress === 0 ? true : null),
		);
	});

	it("while deliveries are in flight to a slow receiver: every recorded delivery final, every event received, repeats only under the same webhook-id", async () => {
		const slow = await startSlowReceiver(1_500);
		try {
			const hook = await api(service, "POST", "/v1/webhooks", {
				key: service.keys.live,
				body: { url: slow.url, events: ["interview.scheduled"] },
			});
			expect(hook.status).toBe(201);
			const bulk = await api(service, "POST", "/v1/interviews/bulk", {
				key: service.keys.live,
				body: {
					interviews: Array.from({ length: 50 }, (_, i) => ({
						candidate_email: `slow${i}@example.com`,
						position: "Slow receiver",
						skills: ["SQL"],
						scheduled_at: new Date(Date.now() + 3 * 24 * 3_600_000).toISOString(),
					})),
				},
			});
			expect(bulk.status).toBe(200);
			expect(bulk.body.data.summary.successful_count).toBe(50);
			// Killed while the receiver holds requests (sent, not yet answered).
			await until("a request held by the receiver", 120_000, () => (slow.holding() > 0 ? true : null));
			const heldAtKill = slow.holding();
			const receivedAtKill = slow.received.length;
			await restart();
			const restartedAt = Date.now();

			let seenOutcomes = "";
			const deliveries = await waitFor(
				() => `every delivery final (last seen: ${seenOutcomes}; receiver saw ${slow.received.length})`,
				FINAL_WITHIN_MS,
				async () => {
					const rows = await allPages<{
						id: string;
						event_id: string;
						outcome: string;
						attempt_count: number;
					}>(service, service.keys.live, `/v1/webhooks/${hook.body.data.id}/deliveries`);
					const counts = new Map<string, number>();
					for (const d of rows) counts.set(d.outcome, (counts.get(d.outcome) ?? 0) + 1);
					seenOutcomes = JSON.stringify(Object.fromEntries(counts));
					return rows.length >= 50 && rows.every((d) => d.outcome === "succeeded") ? rows : null;
				},
			);
			expect(Date.now() - restartedAt).toBeLessThan(FINAL_WITHIN_MS);
			expect(deliveries).toHaveLength(50);
			expect(new Set(deliveries.map((d) => d.event_id)).size).toBe(50);
			for (const d of deliveries) {
				const receipts = slow.received.filter((r) => r.eventId === d.event_id);
				expect(receipts.length, d.event_id).toBeGreaterThanOrEqual(1);
				// A repeat carries the same webhook-id, which receivers dedupe on.
				expect(new Set(receipts.map((r) => r.deliveryId))).toEqual(new Set([d.id]));
			}
			const repeats = slow.received.length - new Set(slow.received.map((r) => r.deliveryId)).size;
			console.log(
				`deliveries in flight: ${heldAtKill} held and ${receivedAtKill} received at the kill; ` +
					`${slow.received.length} requests for 50 deliveries after the restart (${repeats} repeats)`,
			);
		} finally {
			slow.server.close();
		}
	});

	it("mid-create, with admissions held: none is held longer than the orphan sweep's period after the restart", async () => {
		const start = await profile(service);
		/** Interviews this test created (the timing bulk's and those that survived a kill). */
		let created = 0;
		let orphaned = 0;
		let attempts = 0;
		const tries: string[] = [];
		// A bulk of 100 is admitted in one D1 batch and written in the next, the larger one. One
		// bulk answered without a kill measures how long a bulk takes; then each try kills at a
		// different point early in that time, to land while a write is running (a transaction
		// the kill aborts, after the admission's committed). Up to 14 tries to leave
		// admissions without interviews.
		const bulkOf = (position: string, tag: string) =>
			fetch(`${service.baseUrl}/v1/interviews/bulk`, {
				method: "POST",
				headers: { Authorization: `Bearer ${service.keys.live}`, "Content-Type": "application/json" },
				body: JSON.stringify({
					interviews: Array.from({ length: 100 }, (_, i) => ({
						candidate_email: `admit-${tag}-${i}@example.com`,
						position,
						skills: ["SQL"],
						scheduled_at: new Date(Date.now() + 3 * 24 * 3_600_000).toISOString(),
					})),
				}),
			});
		// The second of two timed bulks (the first warms the code paths up).
		let bulkMs = 0;
		for (const tag of ["timing-1", "timing-2"]) {
			const timed = Date.now();
			expect((await bulkOf("Admission timing", tag)).status).toBe(200);
			bulkMs = Date.now() - timed;
			created += 100;
		}
		// Admission and write come early (the rest of a bulk's time sends what it owes: e-mails,
		// webhook deliveries, wake messages). Each try sends three bulks at once, whose admissions
		// and writes D1 runs one batch at a time, so admissions are held without interviews for
		// longer than one bulk's write. A search for the moment: a kill before any admission
		// (nothing taken) moves the next one later, a kill after every write (all created)
		// earlier; timing varies between tries, so a range that has closed opens again.
		let early = 0;
		let late = bulkMs * 0.6;
		while (attempts < 14 && orphaned === 0) {
			attempts++;
			if (late - early < 40) {
				early = Math.max(0, early - 80);
				late += 80;
			}
			const delay = (early + late) / 2;
			const position = `Admission ${attempts} ${Date.now()}`;
			const before = await credits(service);
			const bulk = Promise.all(
				[1, 2, 3].map((k) =>
					bulkOf(position, `${attempts}-${k}`)
						.then((r) => r.status)
						.catch(() => null),
				),
			);
			await new Promise((resolve) => setTimeout(resolve, delay));
			await restart();
			const status = (await bulk).map((s) => s ?? "no answer").join("/");
			const listed = await api(
				service,
				"GET",
				`/v1/interviews?position=${encodeURIComponent(position)}&limit=1`,
				{ key: service.keys.live },
			);
			const made = listed.body.pagination.total_count as number;
			const taken = before - (await credits(service));
			created += made;
			orphaned += taken - made;
			if (taken === 0) early = delay;
			else if (made === taken) late = delay;
			tries.push(`${Math.round(delay)} ms: ${status}, ${made} created, ${taken - made} held without one`);
		}
		const restartedAt = Date.now();
		console.log(
			`mid-create: a bulk takes ${bulkMs} ms; killed after ${tries.join("; ")}; ${orphaned} admissions held without an interview`,
		);

		// Within the sweep's period (plus two housekeeping runs and a margin), every admission
		// left has its interview: the balance and the month's count are what the interviews justify.
		const within = (ORPHAN_AFTER_S + 2 * Number(SHORT.CRON_INTERVAL_S)) * 1000 + 60_000;
		let last = "";
		await waitFor(
			() => `admissions given back (last seen: ${last})`,
			within,
			async () => {
				const now = await profile(service);
				last = JSON.stringify(now);
				return now.credits_balance === start.credits_balance - created &&
					now.usage.monthly_interviews_used === start.usage.monthly_interviews_used + created
					? now
					: null;
			},
		);
		expect(Date.now() - restartedAt).toBeLessThan(within);
		// Given back by the orphan sweep, which logs each release.
		let released = 0;
		for (const output of [...killedOutputs, service.output()]) {
			for (const m of output.matchAll(/"message":"orphan admissions given back","count":(\d+)/g)) {
				released += Number(m[1]);
			}
		}
		console.log(`mid-create: the orphan sweep gave back ${released} admissions`);
		// The kill did leave admissions without interviews, and the sweep gave them back.
		expect(orphaned).toBeGreaterThan(0);
		expect(released).toBeGreaterThanOrEqual(orphaned);
		expect((await profile(service)).usage.concurrent_interviews_in_progress).toBe(0);
	});
});
