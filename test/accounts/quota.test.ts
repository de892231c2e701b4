import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AuthContext } from "../../src/accounts/auth-context";
import { effectiveLimits } from "../../src/accounts/plans";
import { revokeAdmission } from "../../src/accounts/quota-repo";
import { createInterviewBody } from "../../src/interviews/api/schemas";
import { createdCheck } from "../../src/interviews/creation/creation";
import { createInterview as createThroughService } from "../../src/interviews/service";
import { getDb } from "../../src/platform/db/client";
import { OutcomeUnknownError } from "../../src/platform/http/errors";
import { call, newAccount, validInterview } from "../support/helpers";
import { createInterview, ledgerOf, startInterview } from "../support/lifecycle-helpers";
import { countRows, profile, setLimits } from "../support/limits-helpers";

function nextMonthStart(now: number): string {
	const d = new Date(now);
	return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString();
}

const create = (key: string, body: Record<string, unknown> = {}) =>
	call("POST", "/v1/interviews", { key, body: validInterview(body) });

describe("the monthly interview limit", () => {
	it("refuses the 11th live interview of the month on the free plan, before looking at credits", async () => {
		const account = await newAccount({ plan: "free" });
		for (let i = 0; i < 10; i++) expect((await create(account.live)).status).toBe(201);
		const refused = await create(account.live);
		expect(refused.status).toBe(429);
		expect(refused.body.error).toMatchObject({
			code: "QUOTA_EXCEEDED",
			details: { resource: "monthly_interviews", limit: 10, used: 10, resets_at: nextMonthStart(Date.now()) },
		});
		// The account's limit (a plan's, or an admin's override of it), not necessarily the plan's.
		expect(refused.body.error.message).toBe(
			`The account's limit of 10 live interviews this month is reached; it resets at ${nextMonthStart(Date.now())}.`,
		);
		expect(refused.headers.get("X-RateLimit-Resource")).toBe("monthly_interviews");
		expect(refused.headers.get("X-RateLimit-Limit")).toBe("10");
		expect(refused.headers.get("X-RateLimit-Remaining")).toBe("0");
		expect(refused.headers.get("X-RateLimit-Reset")).toBe(
			String(Date.parse(nextMonthStart(Date.now())) / 1000),
		);
		expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
		// Credits are spent too (10 of 10): the quota is checked first, as decisions.md orders.
		expect((await profile(account.live)).credits_balance).toBe(0);
		expect((await ledgerOf(account.id)).filter((e) => e.kind === "debit")).toHaveLength(10);
	});

	it("does not count test-mode or dev interviews", async () => {
		const account = await newAccount({ plan: "free", credits: 50 });
		await setLimits(account.id, { monthly_interviews: 1 });
		expect((await create(account.live)).status).toBe(201);
		expect((await create(account.live, { test_mode: true })).status).toBe(201);
		expect((await create(account.test)).status).toBe(201);
		expect((await create(account.dev)).status).toBe(201);
		expect((await create(account.live)).status).toBe(429);
		expect((await profile(account.live)).usage).toMatchObject({
			monthly_interviews_used: 1,
			monthly_interviews_limit: 1,
		});
	});

	it("releases the count when a scheduled interview is cancelled, not when an in-progress one is", async () => {
		const account = await newAccount({ plan: "free", credits: 50 });
		await setLimits(account.id, { monthly_interviews: 2 });
		const scheduled = await createInterview(account.live);
		const running = await startInterview(account.live);
		expect((await create(account.live)).status).toBe(429);

		expect((await call("DELETE", `/v1/interviews/${running.id}`, { key: account.live })).status).toBe(200);
		expect((await create(account.live)).status).toBe(429);

		const cancelled = await call("DELETE", `/v1/interviews/${scheduled.id}?refund_credits=false`, {
			key: account.live,
		});
		expect(cancelled.status).toBe(200);
		expect((await profile(account.live)).usage.monthly_interviews_used).toBe(1);
		expect((await create(account.live)).status).toBe(201);
		expect((await create(account.live)).status).toBe(429);
	});

	it("lets exactly L of 2L parallel creations through at a remaining quota of L", async () => {
		const account = await newAccount({ plan: "free", credits: 100 });
		for (let i = 0; i < 4; i++) expect((await create(account.live)).status).toBe(201);
		const results = await Promise.all(Array.from({ length: 12 }, () => create(account.live)));
		expect(results.filter((r) => r.status === 201)).toHaveLength(6);
		expect(results.filter((r) => r.body.error?.code === "QUOTA_EXCEEDED")).toHaveLength(6);
		expect((await ledgerOf(account.id)).filter((e) => e.kind === "debit")).toHaveLength(10);
		expect(
			await countRows(
				"SELECT count(*) AS n FROM monthly_interview_usage WHERE account_id = ? AND released_at IS NULL",
				account.id,
			),
		).toBe(10);
	});

	it("counts by calendar month in UTC: last month's interviews do not count this month", async () => {
		const account = await newAccount({ plan: "free", credits: 50 });
		const auth: AuthContext = {
			accountId: account.id,
			companyName: "Acme Testing",
			plan: "free",
			limits: effectiveLimits("free", { monthly_interviews: 1 }),
			keyId: "key_test",
			keyEnvironment: "live",
			dataEnvironment: "production",
			permissions: ["interviews:write"],
			expiresAt: null,
		};
		const body = createInterviewBody.parse(validInterview());
		const at = (now: number) =>
			createThroughService(env, auth, body, { scheduledAt: now, now, appUrl: "https://app.test" }).then(
				() => "created",
				(e: { code?: string; details?: Record<string, unknown> }) => e,
			);
		const lastMinuteOfJanuary = Date.UTC(2031, 0, 31, 23, 59, 59, 999);
		expect(await at(lastMinuteOfJanuary)).toBe("created");
		expect(await at(lastMinuteOfJanuary)).toMatchObject({
			code: "QUOTA_EXCEEDED",
			details: { used: 1, limit: 1, resets_at: "2031-02-01T00:00:00.000Z" },
		});
		expect(await at(Date.UTC(2031, 1, 1))).toBe("created");
	});
});

describe("a creation whose D1 batch commits but reports a failure", () => {
	function authOf(account: { id: string }): AuthContext {
		return {
			accountId: account.id,
			companyName: "Acme Testing",
			plan: "starter",
			limits: effectiveLimits("starter", {}),
			keyId: "key_test",
			keyEnvironment: "live",
			dataEnvironment: "production",
			permissions: ["interviews:write"],
			expiresAt: null,
		};
	}

	/**
	 * D1 whose next batch of at least `size` statements is written and then reported as failed;
	 * with `silentAfter`, every statement prepared after that fails too (D1 unreachable).
	 */
	function lossyD1(size: number, options: { silentAfter?: boolean } = {}): D1Database {
		let armed = true;
		let silent = false;
		return new Proxy(env.DB, {
			get(target, property) {
				if (property === "batch") {
					return async (statements: D1PreparedStatement[]) => {
						const results = await target.batch(statements);
						if (armed && statements.length >= size) {
							armed = false;
							silent = options.silentAfter === true;
							throw new Error("D1_ERROR: Network connection lost.");
						}
						return results;
					};
				}
				if (property === "prepare" && silent) {
					return () => {
						throw new Error("D1_ERROR: Network connection lost.");
					};
				}
				const value = Reflect.get(target, property);
				return typeof value === "function" ? value.bind(target) : value;
			},
		});
	}

	it("keeps the interview, charged and counted once, instead of giving back what it took", async () => {
		const account = await newAccount({ plan: "starter", credits: 5 });
		const body = createInterviewBody.parse(validInterview());
		const now = Date.now();
		// The creation batch is the one with the seed, projection, event and deliveries read.
		const state = await createThroughService({ ...env, DB: lossyD1(4) }, authOf(account), body, {
			scheduledAt: now,
			now,
			appUrl: "https://app.test",
		});
		expect(state.id).toMatch(/^int_/);
		const fetched = await call("GET", `/v1/interviews/${state.id}`, { key: account.live });
		expect(fetched.status).toBe(200);
		expect((await profile(account.live)).credits_balance).toBe(4);
		expect((await profile(account.live)).usage.monthly_interviews_used).toBe(1);
		expect((await ledgerOf(account.id)).filter((e) => e.kind === "debit")).toHaveLength(1);
	});

	it("says so when D1 cannot tell whether it was created, and gives nothing back", async () => {
		const account = await newAccount({ plan: "starter", credits: 5 });
		const body = createInterviewBody.parse(validInterview());
		const now = Date.now();
		const delays = createdCheck.retryMs;
		createdCheck.retryMs = [1, 1];
		const error = await createThroughService(
			{ ...env, DB: lossyD1(4, { silentAfter: true }) },
			authOf(account),
			body,
			{ scheduledAt: now, now, appUrl: "https://app.test" },
		)
			.then(() => null)
			.catch((e: unknown) => e)
			.finally(() => {
				createdCheck.retryMs = delays;
			});
		expect(error).toBeInstanceOf(OutcomeUnknownError);
		const details = (error as OutcomeUnknownError).details as { outcome: string; interview_ids: string[] };
		expect(details.outcome).toBe("unknown");
		// It was created: the interview, its charge and its count stay (nothing given back).
		const [id] = details.interview_ids;
		expect((await call("GET", `/v1/interviews/${id}`, { key: account.live })).status).toBe(200);
		expect((await profile(account.live)).credits_balance).toBe(4);
		expect((await ledgerOf(account.id)).filter((e) => e.kind === "debit")).toHaveLength(1);
	});

	it("gives back what an admission batch took when it reports a failure after committing, so a retry is admitted", async () => {
		const account = await newAccount({ plan: "starter", credits: 1 });
		const body = createInterviewBody.parse(validInterview());
		const now = Date.now();
		const options = { scheduledAt: now, now, appUrl: "https://app.test" };
		// The admission batch (the count, the debit, the outcome read) is the first of 3 statements.
		const failed = await createThroughService(
			{ ...env, DB: lossyD1(3) },
			authOf(account),
			body,
			options,
		).then(
			() => null,
			(e: unknown) => e,
		);
		expect(String(failed)).toContain("Network connection lost");
		const before = await profile(account.live);
		expect(before.credits_balance).toBe(1);
		expect(before.usage.monthly_interviews_used).toBe(0);
		expect(await ledgerOf(account.id)).toEqual([expect.objectContaining({ kind: "grant" })]);
		// The retry gets the credit the failed attempt had taken.
		const state = await createThroughService(env, authOf(account), body, options);
		expect((await call("GET", `/v1/interviews/${state.id}`, { key: account.live })).status).toBe(200);
		expect((await profile(account.live)).credits_balance).toBe(0);
	});

	it("never gives back the admission of an interview that exists", async () => {
		const account = await newAccount({ plan: "starter", credits: 5 });
		const created = await createInterview(account.live);
		const debit = await env.DB.prepare(
			"SELECT id FROM credit_ledger WHERE interview_id = ? AND kind = 'debit'",
		)
			.bind(created.id)
			.first<{ id: string }>();
		expect(debit).not.toBeNull();
		await revokeAdmission(getDb(env.DB), created.id, debit!.id);
		expect((await profile(account.live)).credits_balance).toBe(4);
		expect((await profile(account.live)).usage.monthly_interviews_used).toBe(1);
	});
});

describe("credits", () => {
	it("lets an account with 2 credits create 2 live interviews, refuses the third, and refunds on cancellation", async () => {
		const account = await newAccount({ plan: "starter", credits: 2 });
		const first = await createInterview(account.live);
		await createInterview(account.live);
		const refused = await create(account.live);
		expect(refused.status).toBe(402);
		expect(refused.body.error).toMatchObject({
			code: "INSUFFICIENT_CREDITS",
			details: { required: 1, available: 0 },
		});
		expect((await create(account.live, { test_mode: true })).status).toBe(201);
		const cancelled = await call("DELETE", `/v1/interviews/${first.id}`, { key: account.live });
		expect(cancelled.body.data.refund_details).toMatchObject({ credits_refunded: 1 });
		expect((await create(account.live)).status).toBe(201);
		expect((await profile(account.live)).credits_balance).toBe(0);
	});

	it("never spends more credits than the balance under parallel creations", async () => {
		const account = await newAccount({ plan: "enterprise", credits: 5 });
		const results = await Promise.all(Array.from({ length: 10 }, () => create(account.live)));
		expect(results.filter((r) => r.status === 201)).toHaveLength(5);
		expect(results.filter((r) => r.body.error?.code === "INSUFFICIENT_CREDITS")).toHaveLength(5);
		expect((await profile(account.live)).credits_balance).toBe(0);
	});
});

describe("the profile's usage", () => {
	it("shows the monthly count and the concurrent slots with the plan's limits", async () => {
		const account = await newAccount({ plan: "starter", credits: 20 });
		await createInterview(account.live);
		await startInterview(account.live);
		await startInterview(account.test);
		const data = await profile(account.dev);
		expect(data.usage).toEqual({
			monthly_interviews_used: 2,
			monthly_interviews_limit: 100,
			monthly_interviews_resets_at: nextMonthStart(Date.now()),
			concurrent_interviews_in_progress: 1,
			concurrent_interviews_limit: 5,
		});
		expect(data.credits_balance).toBe(18);
	});

	it("shows an unlimited monthly limit as null", async () => {
		const account = await newAccount({ plan: "enterprise" });
		expect((await profile(account.live)).usage.monthly_interviews_limit).toBeNull();
	});
});
