import { describe, expect, it } from "vitest";
import { admin, call, newAccount, validInterview } from "../support/helpers";
import { profile, setAccountClock, setLimits } from "../support/limits-helpers";

const T = Date.UTC(2031, 4, 6, 12, 0, 0);

describe("rate limiting per account", () => {
	it("gives a free-plan burst of 80 requests exactly 60 successes, Remaining falling by one, then 20 RATE_LIMIT_EXCEEDED", async () => {
		const account = await newAccount({ plan: "free" });
		const other = await newAccount({ plan: "free" });
		await setAccountClock(account.id, T);
		const statuses: number[] = [];
		const remaining: string[] = [];
		for (let i = 0; i < 80; i++) {
			const res = await call("GET", "/v1/account/profile", { key: account.live });
			statuses.push(res.status);
			remaining.push(res.headers.get("X-RateLimit-Remaining") ?? "");
			expect(res.headers.get("X-RateLimit-Limit")).toBe("60");
			expect(res.headers.get("X-RateLimit-Resource")).toBe("requests");
			expect(res.headers.get("X-RateLimit-Reset")).toBe(String(Math.ceil((T + 60_000) / 1000)));
			// The IETF draft's headers say the same: the policy, and what remains.
			expect(res.headers.get("RateLimit-Policy")).toBe('"default";q=60;w=60');
			expect(res.headers.get("RateLimit")).toMatch(
				new RegExp(`^"default";r=${res.headers.get("X-RateLimit-Remaining")};t=\\d+$`),
			);
			if (i === 70) {
				const unaffected = await call("GET", "/v1/account/profile", { key: other.live });
				expect(unaffected.status).toBe(200);
				expect(unaffected.headers.get("X-RateLimit-Remaining")).toBe("59");
			}
		}
		expect(statuses.filter((s) => s === 200)).toHaveLength(60);
		expect(statuses.slice(60).every((s) => s === 429)).toBe(true);
		expect(remaining.slice(0, 60)).toEqual(Array.from({ length: 60 }, (_, i) => String(59 - i)));
		expect(remaining.slice(60).every((r) => r === "0")).toBe(true);

		const refused = await call("GET", "/v1/interviews", { key: account.test });
		expect(refused.status).toBe(429);
		expect(refused.body.error).toMatchObject({ code: "RATE_LIMIT_EXCEEDED", details: { retry_after: 60 } });
		expect(refused.headers.get("Retry-After")).toBe("60");
		expect(refused.headers.get("X-RateLimit-Retry-After")).toBe("60");
		expect(refused.headers.get("RateLimit")).toBe('"default";r=0;t=60');

		await setAccountClock(account.id, T + 60_000);
		const again = await call("GET", "/v1/account/profile", { key: account.live });
		expect(again.status).toBe(200);
		expect(again.headers.get("X-RateLimit-Remaining")).toBe("59");
		expect(again.body.data.rate_limit).toEqual({ requests_per_minute: 60, current_usage: 1 });
	}, 20_000);

	it("admits exactly the limit of a parallel burst, each success with its own Remaining", async () => {
		const account = await newAccount({ plan: "free" });
		await setAccountClock(account.id, T);
		const responses = await Promise.all(
			Array.from({ length: 80 }, () => call("GET", "/v1/interviews?limit=1", { key: account.live })),
		);
		const ok = responses.filter((r) => r.status === 200);
		expect(ok).toHaveLength(60);
		expect(responses.filter((r) => r.body.error?.code === "RATE_LIMIT_EXCEEDED")).toHaveLength(20);
		const left = ok.map((r) => Number(r.headers.get("X-RateLimit-Remaining"))).sort((a, b) => a - b);
		expect(left).toEqual(Array.from({ length: 60 }, (_, i) => i));
	});

	it("slides: a request is allowed again once the oldest counted one is 60 seconds old", async () => {
		const account = await newAccount();
		await setLimits(account.id, { requests_per_minute: 2 });
		await setAccountClock(account.id, T);
		expect((await call("GET", "/v1/interviews", { key: account.live })).status).toBe(200);
		await setAccountClock(account.id, T + 20_000);
		expect((await call("GET", "/v1/interviews", { key: account.live })).status).toBe(200);
		await setAccountClock(account.id, T + 59_999);
		const refused = await call("GET", "/v1/interviews", { key: account.live });
		expect(refused.status).toBe(429);
		expect(refused.body.error.details.retry_after).toBe(1);
		await setAccountClock(account.id, T + 60_000);
		const allowed = await call("GET", "/v1/interviews", { key: account.live });
		expect(allowed.status).toBe(200);
		expect(allowed.headers.get("X-RateLimit-Remaining")).toBe("0");
		expect(allowed.headers.get("X-RateLimit-Reset")).toBe(String(Math.ceil((T + 80_000) / 1000)));
	});

	it("does not count 401s, the health check, the admin API or unknown routes", async () => {
		const account = await newAccount();
		const revoked = await account.key("live");
		const listed = await admin("GET", `/accounts/${account.id}`);
		const revokedId = listed.body.data.keys.find(
			(k: { key_prefix: string; id: string }) => k.key_prefix === revoked.slice(0, 12),
		).id;
		expect((await admin("DELETE", `/accounts/${account.id}/keys/${revokedId}`)).status).toBe(200);
		await setAccountClock(account.id, T);
		for (let i = 0; i < 3; i++) {
			const refused = await call("GET", "/v1/interviews", { key: revoked });
			expect(refused.status).toBe(401);
			expect(refused.headers.get("X-RateLimit-Remaining")).toBeNull();
			expect((await call("GET", "/api/v1/health/", { key: account.live })).status).toBe(200);
			expect((await admin("GET", `/accounts/${account.id}`)).status).toBe(200);
			expect((await call("GET", "/v1/nowhere", { key: account.live })).status).toBe(404);
		}
		expect((await profile(account.live)).rate_limit.current_usage).toBe(1);
	});

	it("counts scope and validation refusals and idempotent replays, not 429s", async () => {
		const account = await newAccount();
		await setLimits(account.id, { requests_per_minute: 6 });
		const readOnly = await account.key("live", { permissions: ["interviews:read"] });
		await setAccountClock(account.id, T);
		expect((await call("POST", "/v1/interviews", { key: readOnly, body: validInterview() })).status).toBe(
			403,
		);
		expect((await call("POST", "/v1/interviews", { key: account.live, body: { position: 1 } })).status).toBe(
			400,
		);
		const headers = { "Idempotency-Key": "rate-limit-replay" };
		const body = validInterview({ test_mode: true });
		expect((await call("POST", "/v1/interviews", { key: account.live, body, headers })).status).toBe(201);
		const replay = await call("POST", "/v1/interviews", { key: account.live, body, headers });
		expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
		expect((await profile(account.live)).rate_limit.current_usage).toBe(5);

		await setAccountClock(account.id, T + 30_000);
		expect((await call("GET", "/v1/interviews", { key: account.live })).status).toBe(200);
		for (let i = 0; i < 4; i++) {
			expect((await call("GET", "/v1/interviews", { key: account.live })).status).toBe(429);
		}
		// The five requests at T have left the window; had the 429s counted, it would still be full.
		await setAccountClock(account.id, T + 60_000);
		expect((await profile(account.live)).rate_limit.current_usage).toBe(2);
	});

	it("applies an admin override of requests_per_minute at once", async () => {
		const account = await newAccount({ plan: "free" });
		await setAccountClock(account.id, T);
		await setLimits(account.id, { requests_per_minute: 1 });
		const first = await call("GET", "/v1/interviews", { key: account.live });
		expect(first.headers.get("X-RateLimit-Limit")).toBe("1");
		expect((await call("GET", "/v1/interviews", { key: account.live })).status).toBe(429);
		await setLimits(account.id, { requests_per_minute: null });
		const restored = await call("GET", "/v1/interviews", { key: account.live });
		expect(restored.status).toBe(200);
		expect(restored.headers.get("X-RateLimit-Limit")).toBe("60");
	});
	it("answers the single fetch, whose object is read beside the rate-limit call, in the contract's order of checks", async () => {
		const account = await newAccount();
		const other = await newAccount();
		const created = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		const id = created.body.data.id as string;
		const theirs = (await call("POST", "/v1/interviews", { key: other.live, body: validInterview() })).body
			.data.id as string;
		const noRead = await account.key("live", { permissions: ["interviews:write"] });
		await setLimits(account.id, { requests_per_minute: 4 });
		await setAccountClock(account.id, T);

		const fetched = await call("GET", `/v1/interviews/${id}`, { key: account.live });
		expect(fetched.status).toBe(200);
		expect(fetched.body.data).toMatchObject({ id, status: "scheduled" });
		expect(fetched.headers.get("X-RateLimit-Remaining")).toBe("3");
		// Another account's interview does not exist for this one, though its object was read.
		const foreign = await call("GET", `/v1/interviews/${theirs}`, { key: account.live });
		expect(foreign.status).toBe(404);
		expect(foreign.body.error.code).toBe("INTERVIEW_NOT_FOUND");
		// The scope is checked after the rate limit and before the interview is used.
		const refused = await call("GET", `/v1/interviews/${id}`, { key: noRead });
		expect(refused.status).toBe(403);
		expect(refused.body.error.code).toBe("INSUFFICIENT_PERMISSIONS");
		expect((await call("GET", `/v1/interviews/${id}`, { key: account.live })).status).toBe(200);
		// Over the limit the read is dropped: 429, with nothing of the interview in the answer.
		const limited = await call("GET", `/v1/interviews/${id}`, { key: account.live });
		expect(limited.status).toBe(429);
		expect(limited.body.error.code).toBe("RATE_LIMIT_EXCEEDED");
		expect(JSON.stringify(limited.body)).not.toContain(id);
	});
});
