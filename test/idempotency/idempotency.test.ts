import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AuthContext } from "../../src/accounts/auth-context";
import { createApp, unrouted } from "../../src/app";
import { idempotent } from "../../src/idempotency/middleware";
import type { AppBindings } from "../../src/platform/http/context";
import { AppError, OutcomeUnknownError } from "../../src/platform/http/errors";
import { runHousekeeping } from "../../src/scheduled";
import { ADMIN_TOKEN, BASE, call, newAccount, validInterview, withTableRenamed } from "../support/helpers";
import { ledgerOf } from "../support/lifecycle-helpers";
import { countRows, profile, setLimits } from "../support/limits-helpers";

const withKey = (key: string) => ({ "Idempotency-Key": key });

async function interviewsOf(accountId: string): Promise<number> {
	return countRows("SELECT count(*) AS n FROM interviews WHERE account_id = ?", accountId);
}

async function scheduledEventsOf(accountId: string): Promise<number> {
	return countRows(
		"SELECT count(*) AS n FROM events WHERE account_id = ? AND type = 'interview.scheduled'",
		accountId,
	);
}

describe("idempotency keys", () => {
	it("creates one interview, one debit and one interview.scheduled from 20 parallel creates with one key", async () => {
		const account = await newAccount({ credits: 30 });
		const body = validInterview();
		const responses = await Promise.all(
			Array.from({ length: 20 }, () =>
				call("POST", "/v1/interviews", { key: account.live, body, headers: withKey("parallel-create-1") }),
			),
		);
		const created = responses.filter((r) => r.status === 201);
		const others = responses.filter((r) => r.status !== 201);
		expect(created.length).toBeGreaterThanOrEqual(1);
		const ids = new Set(created.map((r) => r.body.data.id));
		expect(ids.size).toBe(1);
		for (const r of others) {
			expect(r.status).toBe(409);
			expect(r.body.error.code).toBe("IDEMPOTENCY_KEY_IN_USE");
		}
		expect(await interviewsOf(account.id)).toBe(1);
		expect((await ledgerOf(account.id)).filter((e) => e.kind === "debit")).toHaveLength(1);
		expect(await scheduledEventsOf(account.id)).toBe(1);

		const replay = await call("POST", "/v1/interviews", {
			key: account.live,
			body,
			headers: withKey("parallel-create-1"),
		});
		expect(replay.status).toBe(201);
		expect(replay.body.data.id).toBe([...ids][0]);
	});

	it("replays the stored status and body with Idempotent-Replayed, charging nothing again", async () => {
		const account = await newAccount({ credits: 5 });
		const body = validInterview({ candidate_email: "Grace@Example.com" });
		const first = await call("POST", "/v1/interviews", { key: account.live, body, headers: withKey("k-1") });
		expect(first.status).toBe(201);
		expect(first.headers.get("Idempotent-Replayed")).toBeNull();
		// Same parameters in another order are the same request.
		const reordered = JSON.parse(
			JSON.stringify({ skills: body.skills, position: body.position, candidate_email: body.candidate_email }),
		);
		const again = await call("POST", "/v1/interviews", {
			key: account.live,
			body: reordered,
			headers: withKey("k-1"),
		});
		expect(again.status).toBe(201);
		expect(again.headers.get("Idempotent-Replayed")).toBe("true");
		expect(again.headers.get("Original-Request-Id")).toBe(first.body.meta?.request_id);
		expect(again.headers.get("X-Request-Id")).not.toBe(first.body.meta?.request_id);
		expect(again.headers.get("X-RateLimit-Limit")).not.toBeNull();
		expect(again.body).toEqual(first.body);
		expect(await interviewsOf(account.id)).toBe(1);
		expect((await profile(account.live)).credits_balance).toBe(4);
	});

	it("refuses the same key with another body or path with 422 IDEMPOTENCY_KEY_REUSED", async () => {
		const account = await newAccount();
		const first = await call("POST", "/v1/interviews", {
			key: account.live,
			body: validInterview(),
			headers: withKey("k-reuse"),
		});
		const id = first.body.data.id;
		const otherBody = await call("POST", "/v1/interviews", {
			key: account.live,
			body: validInterview({ position: "Data Engineer" }),
			headers: withKey("k-reuse"),
		});
		expect(otherBody.status).toBe(422);
		expect(otherBody.body.error).toMatchObject({
			code: "IDEMPOTENCY_KEY_REUSED",
			details: { idempotency_key: "k-reuse" },
		});
		const otherPath = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { position: "Data Engineer" },
			headers: withKey("k-reuse"),
		});
		expect(otherPath.status).toBe(422);
		expect(await interviewsOf(account.id)).toBe(1);
	});

	it("stores 4xx results: a retry after topping up credits still gets the 402", async () => {
		const account = await newAccount({ credits: 0 });
		const body = validInterview();
		const refused = await call("POST", "/v1/interviews", {
			key: account.live,
			body,
			headers: withKey("k-402"),
		});
		expect(refused.status).toBe(402);
		await call("PATCH", `/admin/accounts/${account.id}`, { key: ADMIN_TOKEN, body: { credits_delta: 5 } });
		const retried = await call("POST", "/v1/interviews", {
			key: account.live,
			body,
			headers: withKey("k-402"),
		});
		expect(retried.status).toBe(402);
		expect(retried.headers.get("Idempotent-Replayed")).toBe("true");
		const fresh = await call("POST", "/v1/interviews", {
			key: account.live,
			body,
			headers: withKey("k-402b"),
		});
		expect(fresh.status).toBe(201);
	});

	it("does not store a request refused by validation, which comes before idempotency", async () => {
		const account = await newAccount();
		const invalid = await call("POST", "/v1/interviews", {
			key: account.live,
			body: validInterview({ duration_minutes: 5 }),
			headers: withKey("k-invalid"),
		});
		expect(invalid.status).toBe(400);
		const valid = await call("POST", "/v1/interviews", {
			key: account.live,
			body: validInterview(),
			headers: withKey("k-invalid"),
		});
		expect(valid.status).toBe(201);
		// Validation still answers first once the key holds another request's result.
		const invalidAgain = await call("POST", "/v1/interviews", {
			key: account.live,
			body: validInterview({ duration_minutes: 5 }),
			headers: withKey("k-invalid"),
		});
		expect(invalidAgain.status).toBe(400);
	});

	it("refuses a time in the past, a bad webhook URL or an unknown id's past reschedule before idempotency", async () => {
		const account = await newAccount();
		const past = new Date(Date.now() - 60_000).toISOString();
		const future = new Date(Date.now() + 86_400_000).toISOString();
		const steps: { method: string; path: string; bad: unknown; good: unknown; ok: number }[] = [
			{
				method: "POST",
				path: "/v1/interviews",
				bad: validInterview({ scheduled_at: past }),
				good: validInterview({ scheduled_at: future }),
				ok: 201,
			},
			{
				method: "POST",
				path: "/v1/webhooks",
				bad: { url: "https://10.0.0.1/hook", events: ["interview.scheduled"] },
				good: { url: "https://hooks.example.com/in", events: ["interview.scheduled"] },
				ok: 201,
			},
		];
		for (const step of steps) {
			const key = withKey(`k-late-${step.path}`);
			const bad = await call(step.method, step.path, { key: account.live, body: step.bad, headers: key });
			expect([bad.status, bad.body.error?.code], step.path).toEqual([400, "VALIDATION_ERROR"]);
			const good = await call(step.method, step.path, { key: account.live, body: step.good, headers: key });
			expect(good.status, step.path).toBe(step.ok);
		}
		const created = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		const id: string = created.body.data.id;
		const bad = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { scheduled_at: past },
			headers: withKey("k-late-patch"),
		});
		expect(bad.body.error?.details).toEqual({ scheduled_at: "Must not be in the past" });
		const good = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { scheduled_at: future },
			headers: withKey("k-late-patch"),
		});
		expect([good.status, good.body.data?.scheduled_at]).toEqual([200, future]);
		// Validation before existence: an unknown id's past time is a 400, not a 404.
		const unknown = await call("PATCH", "/v1/interviews/int_AAAAAAAAAAAAAAAAAAAAAAAA", {
			key: account.live,
			body: { scheduled_at: past },
		});
		expect([unknown.status, unknown.body.error?.code]).toEqual([400, "VALIDATION_ERROR"]);
		const webhook = await call("PATCH", "/v1/webhooks/wh_AAAAAAAAAAAAAAAAAAAAAAAA", {
			key: account.live,
			body: { url: "http://example.com/hook" },
		});
		expect([webhook.status, webhook.body.error?.code]).toEqual([400, "VALIDATION_ERROR"]);
	});

	it("replays a create and a reschedule whose scheduled_at has passed since, instead of refusing the retry", async () => {
		const account = await newAccount({ credits: 5 });
		const soon = () => new Date(Date.now() + 1_200).toISOString();
		const createKey = withKey("k-passed-create");
		const body = validInterview({ scheduled_at: soon() });
		const first = await call("POST", "/v1/interviews", { key: account.live, body, headers: createKey });
		expect(first.status).toBe(201);
		const patchKey = withKey("k-passed-patch");
		const change = { scheduled_at: soon() };
		const path = `/v1/interviews/${first.body.data.id}`;
		const moved = await call("PATCH", path, { key: account.live, body: change, headers: patchKey });
		expect(moved.status).toBe(200);
		// Both times pass; the retries (their answers lost, say) are the same requests.
		await new Promise((r) => setTimeout(r, 1_500));
		const created = await call("POST", "/v1/interviews", { key: account.live, body, headers: createKey });
		expect([created.status, created.headers.get("Idempotent-Replayed")]).toEqual([201, "true"]);
		expect(created.body).toEqual(first.body);
		const rescheduled = await call("PATCH", path, { key: account.live, body: change, headers: patchKey });
		expect([rescheduled.status, rescheduled.headers.get("Idempotent-Replayed")]).toEqual([200, "true"]);
		expect(rescheduled.body).toEqual(moved.body);
		// Charged once; a new key with the same past time is refused and stores nothing.
		expect((await profile(account.live)).credits_balance).toBe(4);
		const late = await call("POST", "/v1/interviews", {
			key: account.live,
			body,
			headers: withKey("k-passed-new"),
		});
		expect([late.status, late.body.error?.details]).toEqual([
			400,
			{ scheduled_at: "Must not be in the past" },
		]);
		const fresh = validInterview({ scheduled_at: new Date(Date.now() + 86_400_000).toISOString() });
		const again = await call("POST", "/v1/interviews", {
			key: account.live,
			body: fresh,
			headers: withKey("k-passed-new"),
		});
		expect(again.status).toBe(201);
	});

	it("replays a QUOTA_EXCEEDED with the limit headers and Retry-After of its refusal", async () => {
		const account = await newAccount({ credits: 5 });
		await setLimits(account.id, { monthly_interviews: 1 });
		expect((await call("POST", "/v1/interviews", { key: account.live, body: validInterview() })).status).toBe(
			201,
		);
		const headers = withKey("k-quota");
		const body = validInterview();
		const refused = await call("POST", "/v1/interviews", { key: account.live, body, headers });
		expect([refused.status, refused.body.error?.code]).toEqual([429, "QUOTA_EXCEEDED"]);
		const replayed = await call("POST", "/v1/interviews", { key: account.live, body, headers });
		expect([replayed.status, replayed.headers.get("Idempotent-Replayed")]).toEqual([429, "true"]);
		expect(replayed.body).toEqual(refused.body);
		for (const name of [
			"Retry-After",
			"X-RateLimit-Resource",
			"X-RateLimit-Limit",
			"X-RateLimit-Remaining",
			"X-RateLimit-Reset",
		]) {
			expect(replayed.headers.get(name), name).toBe(refused.headers.get(name));
		}
		expect(replayed.headers.get("X-RateLimit-Resource")).toBe("monthly_interviews");
	});

	it("stores nothing for a request about something that does not exist", async () => {
		const account = await newAccount();
		const key = `k-unknown-${crypto.randomUUID()}`;
		const stored = async () =>
			(
				await env.DB.prepare("SELECT COUNT(*) AS n FROM idempotency_keys WHERE key = ?")
					.bind(key)
					.first<{ n: number }>()
			)?.n;
		for (const [method, path, body] of [
			["PATCH", "/v1/interviews/int_AAAAAAAAAAAAAAAAAAAAAAAA", { position: "Unknown" }],
			["DELETE", "/v1/interviews/int_AAAAAAAAAAAAAAAAAAAAAAAA", undefined],
			["DELETE", "/v1/webhooks/wh_AAAAAAAAAAAAAAAAAAAAAAAA", undefined],
		] as const) {
			const res = await call(method, path, { key: account.live, body, headers: withKey(key) });
			expect(res.status).toBe(404);
			expect(res.headers.get("Idempotent-Replayed")).toBeNull();
			expect(await stored()).toBe(0);
		}
		// A 4xx about something that exists is kept and replayed, as before.
		const created = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		const id = created.body.data.id;
		expect((await call("DELETE", `/v1/interviews/${id}`, { key: account.live })).status).toBe(200);
		const refused = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { position: "After the cancel" },
			headers: withKey(key),
		});
		expect(refused.status).toBe(409);
		expect(await stored()).toBe(1);
		const replayed = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { position: "After the cancel" },
			headers: withKey(key),
		});
		expect([replayed.status, replayed.headers.get("Idempotent-Replayed")]).toEqual([409, "true"]);
	});

	it("does not keep a bulk whose items failed on our side, so a retry with the key creates them", async () => {
		const account = await newAccount({ credits: 5 });
		const body = { interviews: [validInterview({ candidate_email: "b0@example.com" }), validInterview()] };
		const failed = await withTableRenamed("interview_seeds", () =>
			call("POST", "/v1/interviews/bulk", { key: account.live, body, headers: withKey("k-bulk-500") }),
		);
		expect(failed.status).toBe(200);
		expect(failed.body.data.failed.map((f: any) => f.error.code)).toEqual([
			"INTERNAL_ERROR",
			"INTERNAL_ERROR",
		]);
		const retried = await call("POST", "/v1/interviews/bulk", {
			key: account.live,
			body,
			headers: withKey("k-bulk-500"),
		});
		expect(retried.headers.get("Idempotent-Replayed")).toBeNull();
		expect(retried.body.data.summary.successful_count).toBe(2);
		expect(await interviewsOf(account.id)).toBe(2);
		expect((await profile(account.live)).credits_balance).toBe(3);
	});

	it("does not store a 5xx, so a retry runs again, and charges once", async () => {
		const account = await newAccount({ credits: 3 });
		const body = validInterview();
		const failed = await withTableRenamed("monthly_interview_usage", () =>
			call("POST", "/v1/interviews", { key: account.live, body, headers: withKey("k-500") }),
		);
		expect(failed.status).toBe(500);
		const retried = await call("POST", "/v1/interviews", {
			key: account.live,
			body,
			headers: withKey("k-500"),
		});
		expect(retried.status).toBe(201);
		expect(retried.headers.get("Idempotent-Replayed")).toBeNull();
		expect(await interviewsOf(account.id)).toBe(1);
		expect((await profile(account.live)).credits_balance).toBe(2);
	});

	it("makes a retried cancellation a replay: one refund, no INTERVIEW_ALREADY_CANCELLED", async () => {
		const account = await newAccount({ credits: 3 });
		const created = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		const id = created.body.data.id;
		const path = `/v1/interviews/${id}?reason=Filled`;
		const first = await call("DELETE", path, { key: account.live, headers: withKey("k-del") });
		const second = await call("DELETE", path, { key: account.live, headers: withKey("k-del") });
		expect(first.status).toBe(200);
		expect(second.status).toBe(200);
		expect(second.body).toEqual(first.body);
		expect((await ledgerOf(account.id)).filter((e) => e.kind === "refund")).toHaveLength(1);
		const otherQuery = await call("DELETE", `/v1/interviews/${id}?reason=Other`, {
			key: account.live,
			headers: withKey("k-del"),
		});
		expect(otherQuery.status).toBe(422);
	});

	it("keeps keys per account and per key environment", async () => {
		const a = await newAccount();
		const b = await newAccount();
		const body = validInterview({ test_mode: true });
		const headers = withKey("shared-key");
		const live = await call("POST", "/v1/interviews", { key: a.live, body, headers });
		const test = await call("POST", "/v1/interviews", { key: a.test, body, headers });
		const other = await call("POST", "/v1/interviews", { key: b.live, body, headers });
		for (const r of [live, test, other]) {
			expect(r.status).toBe(201);
			expect(r.headers.get("Idempotent-Replayed")).toBeNull();
		}
		expect(new Set([live, test, other].map((r) => r.body.data.id)).size).toBe(3);
	});

	it("refuses a malformed Idempotency-Key with VALIDATION_ERROR naming the header", async () => {
		const account = await newAccount();
		for (const key of ["has space", "x".repeat(256), ""]) {
			const res = await call("POST", "/v1/interviews", {
				key: account.live,
				body: validInterview(),
				headers: withKey(key),
			});
			expect(res.status).toBe(400);
			expect(Object.keys(res.body.error.details)).toEqual(["Idempotency-Key"]);
		}
		const longest = await call("POST", "/v1/interviews", {
			key: account.live,
			body: validInterview(),
			headers: withKey("x".repeat(255)),
		});
		expect(longest.status).toBe(201);
	});

	it("forgets a key after 24 hours, and the cron purges it", async () => {
		const account = await newAccount();
		const t0 = Date.now();
		const at = (time: number) => {
			const app = createApp({ clock: () => time });
			return async () => {
				const res = await app.fetch(
					new Request(`${BASE}/v1/interviews`, {
						method: "POST",
						headers: {
							Authorization: `Bearer ${account.live}`,
							"Content-Type": "application/json",
							"Idempotency-Key": "k-day",
						},
						body: JSON.stringify(validInterview()),
					}),
					env,
				);
				return { status: res.status, body: (await res.json()) as { data: { id: string } } };
			};
		};
		const first = await at(t0)();
		const sameDay = await at(t0 + 24 * 3_600_000 - 1)();
		expect(sameDay.body.data.id).toBe(first.body.data.id);
		const nextDay = await at(t0 + 24 * 3_600_000)();
		expect(nextDay.status).toBe(201);
		expect(nextDay.body.data.id).not.toBe(first.body.data.id);

		const stored = () =>
			countRows("SELECT count(*) AS n FROM idempotency_keys WHERE account_id = ?", account.id);
		expect(await stored()).toBe(1);
		await runHousekeeping(env, t0 + 47 * 3_600_000);
		expect(await stored()).toBe(1);
		await runHousekeeping(env, t0 + 48 * 3_600_000);
		expect(await stored()).toBe(0);
	});

	it("lets a retry take over a key whose first attempt stopped without answering, after its lease", async () => {
		const account = await newAccount();
		const body = validInterview();
		const first = await call("POST", "/v1/interviews", {
			key: account.live,
			body,
			headers: withKey("k-lease"),
		});
		// As if the first attempt's Worker had died mid-request, five minutes ago.
		await env.DB.prepare(
			"UPDATE idempotency_keys SET state = 'in_flight', locked_until = ?, response_body = NULL WHERE account_id = ?",
		)
			.bind(Date.now() - 1, account.id)
			.run();
		const retried = await call("POST", "/v1/interviews", {
			key: account.live,
			body,
			headers: withKey("k-lease"),
		});
		expect(retried.status).toBe(201);
		expect(retried.body.data.id).not.toBe(first.body.data.id);
		await env.DB.prepare(
			"UPDATE idempotency_keys SET state = 'in_flight', locked_until = ? WHERE account_id = ?",
		)
			.bind(Date.now() + 60_000, account.id)
			.run();
		const busy = await call("POST", "/v1/interviews", {
			key: account.live,
			body,
			headers: withKey("k-lease"),
		});
		expect(busy.status).toBe(409);
		expect(busy.headers.get("Retry-After")).toBe("1");
	});

	it("keeps the answer of a failure that may have made its change, and forgets other failures of ours", async () => {
		const account = await newAccount();
		const runs = { unknown: 0, failed: 0 };
		const app = new Hono<AppBindings>();
		app.onError((error, c) => c.json({ error: String(error) }, 500));
		app.use(async (c, next) => {
			c.set("requestId", `req_${crypto.randomUUID()}`);
			c.set("now", Date.now());
			c.set("auth", { accountId: account.id, keyEnvironment: "live" } as AuthContext);
			await next();
		});
		app.post("/unknown", idempotent, () => {
			runs.unknown++;
			throw new OutcomeUnknownError("It may exist.", {});
		});
		app.post("/failed", idempotent, () => {
			runs.failed++;
			throw new AppError("INTERNAL_ERROR", "Failed.");
		});
		const send = (path: string) =>
			app.request(path, { method: "POST", headers: withKey(`k-${path}`), body: "{}" }, env);
		for (const path of ["/unknown", "/failed"]) {
			expect((await send(path)).status).toBe(500);
			const again = await send(path);
			expect(again.status).toBe(500);
			expect(again.headers.get("Idempotent-Replayed")).toBe(path === "/unknown" ? "true" : null);
		}
		// Not run again where it may have made its change; run again where it surely did not.
		expect(runs).toEqual({ unknown: 1, failed: 2 });
	});

	it("is mounted on every POST, PATCH and DELETE route of the public API", () => {
		const routes = createApp().routes;
		// The wrong-method answers registered on the bulk paths refuse with 405 and change nothing.
		const refusing = new Set(
			routes.filter((r) => r.handler === unrouted).map((r) => `${r.method} ${r.path}`),
		);
		expect(refusing.has("PATCH /v1/interviews/bulk")).toBe(true);
		const mutating = new Set(
			routes
				.filter((r) => ["POST", "PATCH", "DELETE"].includes(r.method) && /^\/(api\/)?v1\//.test(r.path))
				.map((r) => `${r.method} ${r.path}`)
				.filter((route) => !refusing.has(route)),
		);
		expect(mutating.size).toBeGreaterThan(0);
		for (const route of mutating) {
			const guarded = routes.some((r) => `${r.method} ${r.path}` === route && r.handler === idempotent);
			expect(guarded, `${route} lacks the idempotent middleware`).toBe(true);
		}
	});
});
