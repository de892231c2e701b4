import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, call } from "../support/helpers";

describe("the admin API", () => {
	it("refuses a missing or wrong admin token", async () => {
		const missing = await call("GET", "/admin/accounts");
		expect(missing.status).toBe(401);
		expect(missing.body.error?.code).toBe("AUTHENTICATION_REQUIRED");
		expect(missing.body.error?.details).toEqual({ header_missing: "Authorization" });
		const wrong = await call("GET", "/admin/accounts", { key: "wrong-token-value" });
		expect(wrong.status).toBe(401);
		expect(wrong.body.error?.code).toBe("INVALID_API_KEY");
		expect(wrong.body.error?.details).toEqual({ key_prefix: "wrong-token-" });
	});

	it("creates accounts with the plan's credits by default and lowercase plan ids", async () => {
		for (const [plan, credits] of [
			["free", 10],
			["starter", 100],
			["professional", 500],
			["enterprise", 1000],
		] as const) {
			const res = await admin("POST", "/accounts", { company_name: `Co ${plan}`, plan });
			expect(res.status).toBe(201);
			expect(res.body.data).toEqual({
				id: expect.stringMatching(/^acc_[0-9A-Za-z]{24}$/),
				company_name: `Co ${plan}`,
				plan,
				credits,
				webhook_secret: expect.stringMatching(/^whsec_/),
			});
		}
		const bad = await admin("POST", "/accounts", { company_name: "X", plan: "Free" });
		expect(bad.status).toBe(400);
		expect(bad.body.error?.details).toHaveProperty("plan");
	});

	it("creates keys with every scope by default, shown once, and lists them without the value", async () => {
		const account = await admin("POST", "/accounts", { company_name: "Keys Inc", plan: "free", credits: 3 });
		const id = account.body.data.id;
		const key = await admin("POST", `/accounts/${id}/keys`, { name: "CI", environment: "test" });
		expect(key.status).toBe(201);
		expect(key.body.data).toMatchObject({
			id: expect.stringMatching(/^key_/),
			key: expect.stringMatching(/^svc_test_/),
			name: "CI",
			environment: "test",
			expires_at: null,
		});
		expect(key.body.data.permissions).toHaveLength(7);
		const fetched = await admin("GET", `/accounts/${id}`);
		expect(fetched.body.data.credits).toBe(3);
		expect(fetched.body.data.keys).toHaveLength(1);
		expect(JSON.stringify(fetched.body.data.keys)).not.toContain(key.body.data.key);
		const badScope = await admin("POST", `/accounts/${id}/keys`, {
			name: "x",
			environment: "live",
			permissions: ["all"],
		});
		expect(badScope.status).toBe(400);
		expect(badScope.body.error?.details).toHaveProperty("permissions.0");
	});

	it("refuses a key whose expires_at is not in the future, and creates none", async () => {
		const account = await admin("POST", "/accounts", { company_name: "Expiry Inc", plan: "free" });
		const id = account.body.data.id;
		for (const expires_at of [new Date(Date.now() - 60_000).toISOString(), "2001-01-01T00:00:00Z"]) {
			const res = await admin("POST", `/accounts/${id}/keys`, {
				name: "Old",
				environment: "live",
				expires_at,
			});
			expect([res.status, res.body.error?.code], expires_at).toEqual([400, "VALIDATION_ERROR"]);
			expect(res.body.error?.details).toEqual({ expires_at: "Must be in the future" });
		}
		const fetched = await admin("GET", `/accounts/${id}`);
		expect(fetched.body.data.keys).toEqual([]);
		const future = new Date(Date.now() + 3_600_000).toISOString();
		const later = await admin("POST", `/accounts/${id}/keys`, {
			name: "New",
			environment: "live",
			expires_at: future,
		});
		expect(later.status).toBe(201);
		expect(later.body.data.expires_at).toBe(future);
	});

	it("updates plan, overrides and credits, never below zero", async () => {
		const account = await admin("POST", "/accounts", { company_name: "Grow", plan: "free" });
		const id = account.body.data.id;
		const res = await admin("PATCH", `/accounts/${id}`, {
			plan: "starter",
			credits_delta: 5,
			limits: { requests_per_minute: 5000 },
		});
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({
			plan: "starter",
			credits: 15,
			limits: { requests_per_minute: 5000, concurrent_interviews: 5, monthly_interviews: 100 },
		});
		const negative = await admin("PATCH", `/accounts/${id}`, { credits_delta: -16 });
		expect(negative.status).toBe(400);
		expect(negative.body.error?.details).toHaveProperty("credits_delta");
		const reset = await admin("PATCH", `/accounts/${id}`, { limits: { requests_per_minute: null } });
		expect(reset.body.data.limits.requests_per_minute).toBe(180);
	});

	it("changes credits and fields together or not at all, so a retry after a failure adds the credits once", async () => {
		const account = await admin("POST", "/accounts", { company_name: "Atomic", plan: "free" });
		const id = account.body.data.id;
		const refused = await admin("PATCH", `/accounts/${id}`, { credits_delta: -11, plan: "starter" });
		expect(refused.status).toBe(400);
		expect((await admin("GET", `/accounts/${id}`)).body.data).toMatchObject({ plan: "free", credits: 10 });
		// The account's row cannot be updated: the whole change fails, credits included.
		await env.DB.exec(
			"CREATE TRIGGER admin_test_no_update BEFORE UPDATE ON accounts BEGIN SELECT RAISE(ABORT, 'unavailable'); END",
		);
		try {
			const failed = await admin("PATCH", `/accounts/${id}`, { credits_delta: 5, plan: "starter" });
			expect(failed.status).toBe(500);
		} finally {
			await env.DB.exec("DROP TRIGGER admin_test_no_update");
		}
		expect((await admin("GET", `/accounts/${id}`)).body.data).toMatchObject({ plan: "free", credits: 10 });
		const retried = await admin("PATCH", `/accounts/${id}`, { credits_delta: 5, plan: "starter" });
		expect(retried.body.data).toMatchObject({ plan: "starter", credits: 15 });
	});

	it("pages through accounts with a cursor", async () => {
		for (let i = 0; i < 3; i++) await admin("POST", "/accounts", { company_name: `Page ${i}`, plan: "free" });
		const first = await admin("GET", "/accounts?limit=2");
		expect(first.body.data).toHaveLength(2);
		expect(first.body.pagination?.has_more).toBe(true);
		const second = await admin("GET", `/accounts?limit=2&cursor=${first.body.pagination?.next_cursor}`);
		const ids = [...first.body.data, ...second.body.data].map((a: { id: string }) => a.id);
		expect(new Set(ids).size).toBe(ids.length);
		const total = await env.DB.prepare("SELECT COUNT(*) AS n FROM accounts").first<{ n: number }>();
		expect(first.body.pagination?.total_count).toBe(total?.n);
	});

	it("answers 404 for unknown accounts and keys", async () => {
		expect((await admin("GET", "/accounts/acc_missing")).body.error?.code).toBe("ACCOUNT_NOT_FOUND");
		const account = await admin("POST", "/accounts", { company_name: "K", plan: "free" });
		const res = await admin("DELETE", `/accounts/${account.body.data.id}/keys/key_missing`);
		expect(res.status).toBe(404);
		expect(res.body.error?.code).toBe("API_KEY_NOT_FOUND");
	});
});
