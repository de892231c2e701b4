// Structured logs: the Worker's console output captured in workerd while real requests run
// through it. One JSON line per request with the fields decisions need, and never a key, a join
// token, a webhook secret or a query string.
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { logsEveryRequest } from "../../src/platform/http/logging";
import { BASE, call, newAccount, validInterview } from "../support/helpers";
import { createWebhook } from "../support/webhooks";

function capture() {
	const lines: string[] = [];
	const record = (...args: unknown[]) => {
		lines.push(args.map(String).join(" "));
	};
	vi.spyOn(console, "log").mockImplementation(record);
	vi.spyOn(console, "warn").mockImplementation(record);
	vi.spyOn(console, "error").mockImplementation(record);
	vi.spyOn(console, "info").mockImplementation(record);
	vi.spyOn(console, "debug").mockImplementation(record);
	return lines;
}

afterEach(() => {
	vi.restoreAllMocks();
});

describe("LOG_REQUESTS", () => {
	it("logs every request unless set to errors, whatever else it says", () => {
		expect(logsEveryRequest(undefined)).toBe(true);
		expect(logsEveryRequest("all")).toBe(true);
		expect(logsEveryRequest("everything")).toBe(true);
		expect(logsEveryRequest("errors")).toBe(false);
		expect(logsEveryRequest(" Errors ")).toBe(false);
	});
});

describe("request logs", () => {
	it("write one JSON line per request with level, time, request id, account, route, method, status and duration", async () => {
		const account = await newAccount();
		const lines = capture();
		const created = await call("POST", "/v1/interviews", { key: account.test, body: validInterview() });
		expect(created.status).toBe(201);
		const missing = await call("GET", "/v1/interviews/int_nothing", { key: account.test });
		expect(missing.status).toBe(404);
		const unrouted = await call("GET", "/interviews");
		expect(unrouted.status).toBe(404);
		vi.restoreAllMocks();

		const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
		const requests = records.filter((r) => r.message === "request");
		expect(requests).toHaveLength(3);
		const [ok, notFound, noRoute] = requests;
		expect(ok).toEqual({
			level: "info",
			time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
			message: "request",
			request_id: created.body.meta?.request_id,
			account_id: account.id,
			route: "/v1/interviews",
			method: "POST",
			status: 201,
			duration_ms: expect.any(Number),
		});
		expect(notFound).toMatchObject({
			level: "warn",
			request_id: missing.body.meta?.request_id,
			account_id: account.id,
			route: "/v1/interviews/:id",
			method: "GET",
			status: 404,
			error_code: "INTERVIEW_NOT_FOUND",
		});
		expect(noRoute).toMatchObject({
			level: "warn",
			account_id: null,
			route: null,
			status: 404,
			error_code: "NOT_FOUND",
		});
	});

	it("of a wrong method on a known route carry the 405 the client received, not the 404 it replaced", async () => {
		const lines = capture();
		const res = await call("PUT", "/v1/interviews");
		vi.restoreAllMocks();
		expect(res.status).toBe(405);
		expect(res.body.error?.code).toBe("METHOD_NOT_ALLOWED");

		const requests = lines
			.map((line) => JSON.parse(line) as Record<string, unknown>)
			.filter((r) => r.message === "request");
		expect(requests).toEqual([
			{
				level: "warn",
				time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
				message: "request",
				request_id: res.body.meta?.request_id,
				account_id: null,
				route: null,
				method: "PUT",
				status: 405,
				duration_ms: expect.any(Number),
				error_code: "METHOD_NOT_ALLOWED",
			},
		]);
	});

	it("never contain a key, a join token, a webhook secret or a query string", async () => {
		const account = await newAccount();
		const created = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		const joinUrl = new URL(created.body.data.interview_url);
		const token = joinUrl.searchParams.get("token") as string;
		expect(token.length).toBeGreaterThan(10);
		const lines = capture();
		await exports.default.fetch(`${BASE}${joinUrl.pathname}?token=${token}`);
		await exports.default.fetch(`${BASE}/join/${created.body.data.id}?token=wrong-${token}`);
		await exports.default.fetch(`${BASE}/interview/${created.body.data.id}/?token=${account.live}`);
		await call("GET", `/v1/interviews?candidate_email=secret%40example.com&token=${token}`, {
			key: account.live,
		});
		await call("GET", "/v1/interviews", { key: `${account.live}x` });
		await call("POST", "/v1/webhooks/secret/rotate", { key: account.live });
		vi.restoreAllMocks();

		expect(lines.length).toBeGreaterThanOrEqual(6);
		const text = lines.join("\n");
		for (const secret of [token, account.live, account.test, account.webhookSecret, "secret@example.com"]) {
			expect(text).not.toContain(secret);
		}
		expect(text).not.toContain("token=");
		expect(text).not.toContain("?");
		for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
	});

	it("of an unhandled error keep a failed statement's reason and drop its values", async () => {
		const account = await newAccount();
		const hook = await createWebhook(account.live, { url: "https://hooks.example.com/a", events: ["*"] });
		const marker = `Secret${crypto.randomUUID().replaceAll("-", "")}`;
		// The database refuses this one update, as a failing D1 would.
		const trigger = `refuse_${marker}`;
		await env.DB.prepare(
			`CREATE TRIGGER ${trigger} BEFORE UPDATE ON webhook_endpoints WHEN NEW.url LIKE '%${marker}%'
			 BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
		).run();
		try {
			const lines = capture();
			const res = await call("PATCH", `/v1/webhooks/${hook.id}`, {
				key: account.live,
				body: { url: `https://hooks.example.com/services/${marker}` },
			});
			vi.restoreAllMocks();
			expect([res.status, res.body.error?.code]).toEqual([500, "INTERNAL_ERROR"]);
			const line = lines.find((l) => l.includes('"unhandled error"'));
			expect(line).toBeDefined();
			expect(line).toContain("(values not logged)");
			expect(line).toContain("refused by the test");
			expect(lines.join("\n")).not.toContain(marker);
		} finally {
			await env.DB.prepare(`DROP TRIGGER ${trigger}`).run();
		}
	});
});
