import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type Service, startService } from "../e2e/harness";

/** The housekeeping period and resend period the restarted service runs with. */
const SHORT = { CRON_INTERVAL_S: "5" };
const VARS = { DELIVERY_RESEND_AFTER_S: "10" };
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

describe("SIGKILL and restart on the same state", () => {
	let service: Service;
	let receiver: Awaited<ReturnType<typeof startReceiver>>;

	beforeAll(async () => {
		receiver = await startReceiver();
		service = await startService({ env: SHORT, vars: VARS });
		await api(service, "PATCH", `/admin/accounts/${service.accountId}`, {
			key: service.adminToken,
			// Polling the delivery log every 2 s must not meet the rate limit.
			body: { credits_delta: 1_000, limits: { requests_per_minute: 100_000 } },
		});
	});

	afterAll(async () => {
		await service?.stop();
		receiver?.server.close();
	});

	async function restart(): Promise<void> {
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
});
