import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, BASE, call, newAccount, validInterview } from "../support/helpers";

describe("the response envelope", () => {
	it("answers health without a key, with meta and a matching X-Request-Id", async () => {
		for (const path of ["/api/v1/health/", "/api/v1/health"]) {
			const res = await call("GET", path);
			expect(res.status).toBe(200);
			expect(res.body).toMatchObject({ success: true, data: { status: "ok" } });
			expect(res.body.meta?.request_id).toMatch(/^req_/);
			expect(res.headers.get("X-Request-Id")).toBe(res.body.meta?.request_id);
			expect(Number.isNaN(Date.parse(res.body.meta?.timestamp ?? ""))).toBe(false);
		}
	});

	it("keeps a client's well-formed X-Request-Id, in the header and in meta, on success and error", async () => {
		for (const id of ["trace-20261125_abc=", "0f3c-9a", "A", "x".repeat(128)]) {
			const ok = await call("GET", "/api/v1/health", { headers: { "X-Request-Id": id } });
			expect([ok.status, ok.headers.get("X-Request-Id"), ok.body.meta?.request_id]).toEqual([200, id, id]);
			const missing = await call("GET", "/v1/nothing", { headers: { "X-Request-Id": id } });
			expect([missing.status, missing.headers.get("X-Request-Id"), missing.body.meta?.request_id]).toEqual([
				404,
				id,
				id,
			]);
		}
	});

	it("replaces a malformed or over-long client X-Request-Id with its own req_ id", async () => {
		for (const id of ["has space", "semi;colon", "x".repeat(129), "dot.ted", "<script>"]) {
			const res = await call("GET", "/api/v1/health", { headers: { "X-Request-Id": id } });
			expect(res.status).toBe(200);
			expect(res.body.meta?.request_id).toMatch(/^req_[A-Za-z0-9]+$/);
			expect(res.headers.get("X-Request-Id")).toBe(res.body.meta?.request_id);
		}
	});

	it("marks every JSON answer no-store and nosniff: success, error, admin, create with its join token", async () => {
		const account = await newAccount();
		const created = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		expect(created.status).toBe(201);
		const answers = [
			created,
			await call("GET", "/api/v1/health"),
			await call("GET", "/v1/nowhere"),
			await call("GET", "/v1/interviews"),
			await call("GET", "/v1/interviews", { key: account.live }),
			await call("GET", `/v1/interviews/${created.body.data.id}`, { key: account.live }),
			await call("GET", "/admin/accounts", { key: ADMIN_TOKEN }),
			await call("GET", `/admin/accounts/${account.id}`, { key: ADMIN_TOKEN }),
			await call("GET", "/interview/int_x"),
		];
		for (const answer of answers) {
			expect(answer.headers.get("Content-Type")).toMatch(/^application\/json/);
			expect(answer.headers.get("Cache-Control")).toBe("no-store");
			expect(answer.headers.get("X-Content-Type-Options")).toBe("nosniff");
		}
	});

	it("answers an unknown route with 404 NOT_FOUND before asking for a key", async () => {
		for (const path of ["/v1/nothing", "/nothing", "/api/v1/interviews/x/y/z"]) {
			const res = await call("GET", path);
			expect(res.status).toBe(404);
			expect(res.body.error?.code).toBe("NOT_FOUND");
			expect(res.headers.get("X-Request-Id")).toBe(res.body.meta?.request_id);
		}
	});

	it("answers a wrong method on a known route with 405 and the allowed methods", async () => {
		const res = await call("PUT", "/v1/interviews");
		expect(res.status).toBe(405);
		expect(res.body.error?.code).toBe("METHOD_NOT_ALLOWED");
		expect(res.headers.get("Allow")).toContain("POST");
		expect(res.headers.get("Allow")).toContain("GET");
		const health = await call("POST", "/api/v1/health/");
		expect(health.status).toBe(405);
		// A route's dot is a dot: a path that only looks like it is unknown.
		expect((await exports.default.fetch(`${BASE}/room.js`, { method: "POST" })).status).toBe(405);
		expect((await call("GET", "/roomXjs")).status).toBe(404);
	});

	it("answers 405 on the bulk routes for other methods, which are not interview ids", async () => {
		for (const path of [
			"/v1/interviews/bulk",
			"/api/v1/interviews/bulk-results/",
			"/v1/interviews/bulk-results",
			"/api/v1/interviews/bulk",
		]) {
			for (const method of ["GET", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
				const res = await call(method, path);
				expect([res.status, res.body.error?.code], `${method} ${path}`).toEqual([405, "METHOD_NOT_ALLOWED"]);
				expect(res.headers.get("Allow"), `${method} ${path}`).toBe("POST");
				expect(res.body.error?.details).toEqual({ allowed_methods: ["POST"] });
				expect(res.headers.get("X-Request-Id")).toBe(res.body.meta?.request_id);
			}
		}
		for (const method of ["PUT", "OPTIONS"]) {
			const one = await call(method, "/v1/interviews/int_AAAAAAAAAAAAAAAAAAAAAAAA");
			expect(one.status).toBe(405);
			expect(one.headers.get("Allow")?.split(", ").sort()).toEqual(["DELETE", "GET", "PATCH"]);
		}
	});

	it("refuses unknown query parameters on routes that take none", async () => {
		const account = await newAccount();
		const cases: [string, string, string, unknown?][] = [
			["GET", "/v1/account/profile?verbose=1", account.live],
			["GET", "/api/v1/auth/verify/?verbose=1", account.live],
			["GET", "/v1/auth/permissions?verbose=1", account.live],
			["POST", "/v1/interviews?verbose=1", account.live, { candidate_email: "a@example.com" }],
			["GET", "/v1/webhooks/wh_AAAAAAAAAAAAAAAAAAAAAAAA?verbose=1", account.live],
			["GET", `/admin/accounts/${account.id}?verbose=1`, ADMIN_TOKEN],
		];
		for (const [method, path, key, body] of cases) {
			const res = await call(method, path, { key, body });
			expect([res.status, res.body.error?.code], path).toEqual([400, "VALIDATION_ERROR"]);
			expect(res.body.error?.details, path).toEqual({ verbose: "Unknown field" });
		}
		expect((await call("GET", "/v1/account/profile", { key: account.live })).status).toBe(200);
	});

	it("puts the rate-limit headers on refusals after the rate limit: 403, 400 and 404", async () => {
		const account = await newAccount();
		const readOnly = await account.key("live", { permissions: ["interviews:read"] });
		const refusals = [
			await call("POST", "/v1/interviews", { key: readOnly, body: {} }),
			await call("POST", "/v1/interviews", { key: account.live, body: { candidate_email: 1 } }),
			await call("GET", "/v1/interviews/int_AAAAAAAAAAAAAAAAAAAAAAAA", { key: account.live }),
		];
		expect(refusals.map((r) => r.status)).toEqual([403, 400, 404]);
		for (const res of refusals) {
			expect(res.headers.get("X-RateLimit-Limit")).toMatch(/^\d+$/);
			expect(res.headers.get("X-RateLimit-Remaining")).toMatch(/^\d+$/);
			expect(res.headers.get("X-RateLimit-Resource")).toBe("requests");
		}
	});

	it("refuses malformed JSON with VALIDATION_ERROR on body", async () => {
		const account = await newAccount();
		const res = await call("POST", "/v1/interviews", {
			key: account.live,
			rawBody: "{not json",
			headers: { "Content-Type": "application/json" },
		});
		expect(res.status).toBe(400);
		expect(res.body.error?.code).toBe("VALIDATION_ERROR");
		expect(res.body.error?.details).toHaveProperty("body");
	});

	it("refuses a body that is not declared as JSON", async () => {
		const account = await newAccount();
		const res = await call("POST", "/v1/interviews", {
			key: account.live,
			rawBody: "candidate_email=a@b.com",
			headers: { "Content-Type": "application/x-www-form-urlencoded" },
		});
		expect(res.status).toBe(400);
		expect(res.body.error?.details).toEqual({ body: "Content-Type must be application/json" });
	});

	it("refuses a body on DELETE, whose options are query parameters, and cancels nothing", async () => {
		const account = await newAccount();
		const created = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		const id = created.body.data.id as string;
		const refused = await call("DELETE", `/v1/interviews/${id}`, {
			key: account.live,
			body: { refund_credits: false, send_notification: false },
		});
		expect(refused.status).toBe(400);
		expect(refused.body.error?.code).toBe("VALIDATION_ERROR");
		expect(refused.body.error?.details).toHaveProperty("body");
		const big = await call("DELETE", `/v1/interviews/${id}`, {
			key: account.live,
			rawBody: "x".repeat(1024 * 1024 + 10),
			headers: { "Content-Type": "text/plain" },
		});
		expect(big.status).toBe(413);
		expect((await call("GET", `/v1/interviews/${id}`, { key: account.live })).body.data.status).toBe(
			"scheduled",
		);
		// An empty body is no body.
		const cancelled = await call("DELETE", `/v1/interviews/${id}?refund_credits=false`, {
			key: account.live,
			rawBody: "",
		});
		expect(cancelled.status).toBe(200);
		expect(cancelled.body.data.refund_details).toBeNull();
	});

	it("names a field called __proto__ like any other unknown field", async () => {
		const account = await newAccount();
		const res = await call("POST", "/v1/interviews", {
			key: account.live,
			rawBody: JSON.stringify(validInterview()).replace(/^\{/, '{"__proto__":1,'),
			headers: { "Content-Type": "application/json" },
		});
		expect(res.status).toBe(400);
		// (An object literal cannot hold that key: compared as the JSON sent.)
		expect(JSON.stringify(res.body.error?.details)).toBe('{"__proto__":"Unknown field"}');
		expect(res.body.error?.message).toContain("__proto__");
	});

	it("refuses bodies over 1 MiB with 413, declared or streamed", async () => {
		const account = await newAccount();
		const big = JSON.stringify({ instructions: "x".repeat(1024 * 1024 + 10) });
		const res = await call("POST", "/v1/interviews", {
			key: account.live,
			rawBody: big,
			headers: { "Content-Type": "application/json" },
		});
		expect(res.status).toBe(413);
		expect(res.body.error?.code).toBe("PAYLOAD_TOO_LARGE");

		const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
		let sent = 0;
		const stream = new ReadableStream({
			pull(controller) {
				if (sent >= 20) return controller.close();
				sent++;
				controller.enqueue(chunk);
			},
		});
		const streamed = await exports.default.fetch(`${BASE}/v1/interviews`, {
			method: "POST",
			headers: { Authorization: `Bearer ${account.live}`, "Content-Type": "application/json" },
			body: stream,
		});
		expect(streamed.status).toBe(413);
	});

	it("refuses for the key, the rate limit or the scope before looking at the body", async () => {
		const account = await newAccount();
		const readOnly = await account.key("live", { permissions: ["interviews:read"] });
		const bodies = [
			{
				rawBody: "candidate_email=a@b.com",
				headers: { "Content-Type": "application/x-www-form-urlencoded" },
			},
			{ rawBody: "x".repeat(1024 * 1024 + 10), headers: { "Content-Type": "application/json" } },
		];
		for (const body of bodies) {
			const none = await call("POST", "/v1/interviews", body);
			expect([none.status, none.body.error?.code]).toEqual([401, "AUTHENTICATION_REQUIRED"]);
			const wrong = await call("POST", "/api/v1/interviews/", { ...body, key: `svc_live_${"A".repeat(32)}` });
			expect([wrong.status, wrong.body.error?.code]).toEqual([401, "INVALID_API_KEY"]);
			const scoped = await call("PATCH", "/v1/interviews/int_AAAAAAAAAAAAAAAAAAAAAAAA", {
				...body,
				key: readOnly,
			});
			expect([scoped.status, scoped.body.error?.code]).toEqual([403, "INSUFFICIENT_PERMISSIONS"]);
			const admin = await call("POST", "/admin/accounts", body);
			expect([admin.status, admin.body.error?.code]).toEqual([401, "AUTHENTICATION_REQUIRED"]);
		}
		// Refused for its body, a request with a good key was counted (decisions.md).
		const first = await call("POST", "/v1/interviews", { ...bodies[0], key: account.live });
		const second = await call("POST", "/v1/interviews", { ...bodies[1], key: account.live });
		expect([first.status, second.status]).toEqual([400, 413]);
		const remaining = Number(first.headers.get("X-RateLimit-Remaining"));
		expect(Number(second.headers.get("X-RateLimit-Remaining"))).toBe(remaining - 1);
	});

	it("answers 429 to an account over its rate limit whatever the body", async () => {
		const account = await newAccount();
		const limited = await call("PATCH", `/admin/accounts/${account.id}`, {
			key: ADMIN_TOKEN,
			body: { limits: { requests_per_minute: 1 } },
		});
		expect(limited.status).toBe(200);
		expect((await call("GET", "/v1/auth/verify", { key: account.live })).status).toBe(200);
		const res = await call("POST", "/v1/interviews", {
			key: account.live,
			rawBody: "candidate_email=a@b.com",
			headers: { "Content-Type": "application/x-www-form-urlencoded" },
		});
		expect([res.status, res.body.error?.code]).toEqual([429, "RATE_LIMIT_EXCEEDED"]);
	});

	it("puts meta on errors too, and never a stack trace", async () => {
		const res = await call("GET", "/v1/interviews/int_doesnotexist");
		expect(res.body.meta?.request_id).toMatch(/^req_/);
		expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
	});
});

describe("error messages that teach", () => {
	it("points a path without its version to the /v1 route", async () => {
		const account = await newAccount();
		const bare = await call("GET", "/interviews", { key: account.live });
		expect(bare.status).toBe(404);
		expect(bare.body.error).toMatchObject({
			code: "NOT_FOUND",
			message: "No route for GET /interviews. Did you mean /v1/interviews?",
		});
		const one = await call("GET", "/webhooks/wh_abc", { key: account.live });
		expect(one.body.error.message).toBe(
			"No route for GET /webhooks/wh_abc. Did you mean /v1/webhooks/wh_abc?",
		);
		const unknown = await call("GET", "/nothing-here", { key: account.live });
		expect(unknown.body.error.message).toBe("No route for GET /nothing-here.");
	});

	it("says what a wrong type got, shows a date example and suggests a misspelt field", async () => {
		const account = await newAccount();
		const res = await call("POST", "/v1/interviews", {
			key: account.test,
			body: {
				candidat_email: "ada@example.com",
				position: "QA",
				skills: ["Testing"],
				duration_minutes: "30",
				scheduled_at: "next tuesday",
			},
		});
		expect(res.status).toBe(400);
		expect(res.body.error.details).toEqual({
			candidate_email: "Required",
			candidat_email: "Unknown field 'candidat_email'; did you mean 'candidate_email'?",
			duration_minutes: "Must be an integer from 15 to 90 (expected number, received string)",
			scheduled_at: "Must be an ISO 8601 date-time with a time zone, e.g. 2030-01-15T14:00:00Z",
		});
		expect(res.body.error.message).toContain("did you mean 'candidate_email'?");
	});
});
