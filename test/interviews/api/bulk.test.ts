import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { countBoundParameters, D1_MAX_BOUND_PARAMETERS } from "../../../src/platform/db/client";
import { admin, call, newAccount, validInterview } from "../../support/helpers";
import { ledgerOf } from "../../support/lifecycle-helpers";

async function interviewCount(accountId: string): Promise<number> {
	const row = await env.DB.prepare("SELECT count(*) AS n FROM interviews WHERE account_id = ?")
		.bind(accountId)
		.first<{ n: number }>();
	return row?.n ?? 0;
}

async function scheduledEventIds(accountId: string): Promise<string[]> {
	const rows = await env.DB.prepare(
		"SELECT interview_id FROM events WHERE account_id = ? AND type = 'interview.scheduled'",
	)
		.bind(accountId)
		.all<{ interview_id: string }>();
	return rows.results.map((r) => r.interview_id);
}

async function invitationsOf(interviewId: string): Promise<number> {
	const row = await env.DB.prepare("SELECT count(*) AS n FROM candidate_emails WHERE interview_id = ?")
		.bind(interviewId)
		.first<{ n: number }>();
	return row?.n ?? 0;
}

const items = (n: number) =>
	Array.from({ length: n }, (_, i) => validInterview({ candidate_email: `candidate${i}@example.com` }));

/** Records the parameters of every statement prepared on D1 (the Worker and its objects share the binding). */
async function recordingStatements<T>(work: () => Promise<T>) {
	const db = env.DB as D1Database & { prepare: D1Database["prepare"] };
	const original = db.prepare;
	const counts: number[] = [];
	db.prepare = (query: string) => {
		counts.push(countBoundParameters(query));
		return original.call(db, query);
	};
	try {
		return { result: await work(), counts };
	} finally {
		db.prepare = original;
	}
}

describe("POST /v1/interviews/bulk", () => {
	it("creates 100 interviews with one interview.scheduled each, every statement within 100 parameters", async () => {
		const account = await newAccount();
		const { result: res, counts } = await recordingStatements(() =>
			call("POST", "/v1/interviews/bulk", { key: account.live, body: { interviews: items(100) } }),
		);
		expect(res.status).toBe(200);
		expect(res.body.meta?.request_id).toBeDefined();
		expect(res.body.data.failed).toEqual([]);
		expect(res.body.data.summary).toEqual({
			total_requested: 100,
			successful_count: 100,
			failed_count: 0,
			success_rate: 1,
		});
		const successful = res.body.data.successful;
		expect(successful.map((s: any) => s.index)).toEqual([...Array(100).keys()]);
		expect(successful[7]).toEqual({
			index: 7,
			interview: {
				id: expect.stringMatching(/^int_[0-9A-Za-z]{24}$/),
				candidate_email: "candidate7@example.com",
				interview_url: expect.stringMatching(/^http:\/\/service\.test\/join\/int_\w+\?token=\w{32}$/),
				status: "scheduled",
				test_mode: false,
			},
		});
		const ids = successful.map((s: any) => s.interview.id);
		expect(new Set(ids).size).toBe(100);
		expect(await interviewCount(account.id)).toBe(100);
		expect((await scheduledEventIds(account.id)).sort()).toEqual([...ids].sort());
		expect((await ledgerOf(account.id)).filter((e) => e.kind === "debit")).toHaveLength(100);
		// The runtime guard would already have thrown; this states the limit outright. Creation sends
		// its rows as JSON parameters and reads the events' deliveries by a JSON list of their ids, so
		// no statement of a bulk grows with its size.
		expect(counts.length).toBeGreaterThan(0);
		expect(Math.max(...counts)).toBeLessThanOrEqual(D1_MAX_BOUND_PARAMETERS);

		const fetched = await call("GET", `/v1/interviews/${ids[99]}`, { key: account.live });
		expect(fetched.body.data.candidate.email).toBe("candidate99@example.com");
	}, 20_000);

	it("refuses 101 interviews with VALIDATION_ERROR and creates none", async () => {
		const account = await newAccount();
		const res = await call("POST", "/v1/interviews/bulk", {
			key: account.live,
			body: { interviews: items(101) },
		});
		expect(res.status).toBe(400);
		expect(res.body.error.code).toBe("VALIDATION_ERROR");
		expect(res.body.error.details).toEqual({ interviews: "At most 100 interviews per request" });
		expect(await interviewCount(account.id)).toBe(0);
		expect((await ledgerOf(account.id)).map((e) => e.kind)).toEqual(["grant"]);
	});

	it.each([
		["a body that is not an object", [1, 2], "body"],
		["a missing interviews array", { defaults: {} }, "interviews"],
		["an empty interviews array", { interviews: [] }, "interviews"],
		["interviews that are not an array", { interviews: { a: 1 } }, "interviews"],
		[
			"a bad default duration",
			{ interviews: items(2), defaults: { duration_minutes: 5 } },
			"defaults.duration_minutes",
		],
		[
			"a bad default difficulty",
			{ interviews: items(2), defaults: { difficulty: "wizard" } },
			"defaults.difficulty",
		],
		[
			"a default outside the four",
			{ interviews: items(2), defaults: { instructions: "x" } },
			"defaults.instructions",
		],
		["defaults that are not an object", { interviews: items(2), defaults: "senior" }, "defaults"],
		["an unknown top-level field", { interviews: items(2), colour: "blue" }, "colour"],
	])("refuses %s with 400 naming %s and creates nothing", async (_, body, field) => {
		const account = await newAccount();
		const res = await call("POST", "/v1/interviews/bulk", { key: account.live, body });
		expect(res.status).toBe(400);
		expect(res.body.error.code).toBe("VALIDATION_ERROR");
		expect(res.body.error.details).toHaveProperty(field);
		expect(await interviewCount(account.id)).toBe(0);
	});

	it("reports bad e-mails, a bad duration and the items past the last credit at their indexes, and creates the rest", async () => {
		const account = await newAccount({ credits: 3 });
		const body = {
			interviews: [
				validInterview({ candidate_email: "a0@example.com" }),
				validInterview({ candidate_email: "not-an-email" }),
				validInterview({ candidate_email: "a2@example.com" }),
				validInterview({ candidate_email: "a3@example.com", duration_minutes: 10 }),
				validInterview({ candidate_email: "a4@example.com" }),
				validInterview({ candidate_email: "a5@example.com" }),
				validInterview({ candidate_email: "a6@@example" }),
				// Refused for credits after parsing: still reported as sent, padding included.
				validInterview({ candidate_email: "  a7@example.com " }),
				validInterview({ candidate_email: "a8@example.com", test_mode: true }),
			],
		};
		const res = await call("POST", "/v1/interviews/bulk", { key: account.live, body });
		expect(res.status).toBe(200);
		const { successful, failed, summary } = res.body.data;
		expect(successful.map((s: any) => [s.index, s.interview.candidate_email])).toEqual([
			[0, "a0@example.com"],
			[2, "a2@example.com"],
			[4, "a4@example.com"],
			[8, "a8@example.com"],
		]);
		expect(failed).toEqual([
			{
				index: 1,
				candidate_email: "not-an-email",
				error: {
					code: "INVALID_EMAIL",
					message: expect.stringContaining("candidate_email"),
					details: { candidate_email: "Must be a valid e-mail address" },
				},
			},
			{
				index: 3,
				candidate_email: "a3@example.com",
				error: {
					code: "VALIDATION_ERROR",
					message: expect.stringContaining("duration_minutes"),
					details: { duration_minutes: "Must be an integer from 15 to 90" },
				},
			},
			{
				index: 5,
				candidate_email: "a5@example.com",
				error: {
					code: "INSUFFICIENT_CREDITS",
					message: expect.any(String),
					details: { required: 1, available: 0 },
				},
			},
			{ index: 6, candidate_email: "a6@@example", error: expect.objectContaining({ code: "INVALID_EMAIL" }) },
			{
				index: 7,
				candidate_email: "  a7@example.com ",
				error: expect.objectContaining({ code: "INSUFFICIENT_CREDITS" }),
			},
		]);
		expect(summary).toEqual({
			total_requested: 9,
			successful_count: 4,
			failed_count: 5,
			success_rate: 0.4444,
		});
		expect(successful[3].interview.test_mode).toBe(true);
		expect(await interviewCount(account.id)).toBe(4);
		expect(await scheduledEventIds(account.id)).toHaveLength(4);
		const profile = await call("GET", "/v1/account/profile", { key: account.live });
		expect(profile.body.data.credits_balance).toBe(0);
	});

	it("refuses the items past the monthly limit with QUOTA_EXCEEDED, before credits, and creates the rest", async () => {
		const account = await newAccount({ credits: 10 });
		const limited = await admin("PATCH", `/accounts/${account.id}`, { limits: { monthly_interviews: 2 } });
		expect(limited.status).toBe(200);
		const res = await call("POST", "/v1/interviews/bulk", {
			key: account.live,
			body: {
				interviews: [...items(3), validInterview({ candidate_email: "t@example.com", test_mode: true })],
			},
		});
		expect(res.status).toBe(200);
		const { successful, failed } = res.body.data;
		expect(successful.map((s: any) => s.index)).toEqual([0, 1, 3]);
		expect(failed).toEqual([
			{
				index: 2,
				candidate_email: expect.any(String),
				error: {
					code: "QUOTA_EXCEEDED",
					message: expect.any(String),
					details: { resource: "monthly_interviews", limit: 2, used: 2, resets_at: expect.any(String) },
				},
			},
		]);
		const profile = await call("GET", "/v1/account/profile", { key: account.live });
		expect(profile.body.data.credits_balance).toBe(8);
		expect(profile.body.data.usage.monthly_interviews_used).toBe(2);
	});

	it("never spends more credits than the account has when bulks run at the same time", async () => {
		const account = await newAccount({ credits: 6 });
		const [a, b] = await Promise.all(
			[0, 1].map(() =>
				call("POST", "/v1/interviews/bulk", { key: account.live, body: { interviews: items(5) } }),
			),
		);
		const created =
			(a?.body.data.summary.successful_count ?? 0) + (b?.body.data.summary.successful_count ?? 0);
		expect(created).toBe(6);
		// Within each request the credits went to the earliest items.
		for (const res of [a, b]) {
			const n = res?.body.data.summary.successful_count;
			expect(res?.body.data.successful.map((s: any) => s.index)).toEqual([...Array(n).keys()]);
		}
		expect(await interviewCount(account.id)).toBe(6);
		const profile = await call("GET", "/v1/account/profile", { key: account.live });
		expect(profile.body.data.credits_balance).toBe(0);
	});

	it("fails items that are not objects, carry unknown fields or are scheduled in the past, alone", async () => {
		const account = await newAccount();
		const res = await call("POST", "/v1/interviews/bulk", {
			key: account.live,
			body: {
				interviews: [
					"ada@example.com",
					validInterview({ colour: "blue" }),
					validInterview({ scheduled_at: "2020-01-01T00:00:00Z" }),
					{ position: "Backend Engineer", skills: ["SQL"] },
					validInterview({ candidate_email: 42 }),
					validInterview(),
				],
			},
		});
		expect(res.status).toBe(200);
		const failed = res.body.data.failed;
		expect(failed.map((f: any) => [f.index, f.candidate_email, f.error.code, f.error.details])).toEqual([
			[0, null, "VALIDATION_ERROR", { item: "Must be a JSON object" }],
			[1, "ada@example.com", "VALIDATION_ERROR", { colour: "Unknown field" }],
			[2, "ada@example.com", "VALIDATION_ERROR", { scheduled_at: "Must not be in the past" }],
			[3, null, "VALIDATION_ERROR", { candidate_email: "Required" }],
			[
				4,
				null,
				"VALIDATION_ERROR",
				{ candidate_email: "Must be a string (expected string, received number)" },
			],
		]);
		expect(res.body.data.successful.map((s: any) => s.index)).toEqual([5]);
	});

	it("applies defaults to items that leave a field out, and an item's own value wins", async () => {
		const account = await newAccount({ company_name: "Account Co" });
		const res = await call("POST", "/v1/interviews/bulk", {
			key: account.live,
			body: {
				defaults: {
					duration_minutes: 45,
					difficulty: "senior",
					company_name: "Defaults Inc",
					send_invitation: false,
				},
				interviews: [
					validInterview({ candidate_email: "d0@example.com" }),
					validInterview({
						candidate_email: "d1@example.com",
						duration_minutes: 60,
						difficulty: "junior",
						company_name: "Own Ltd",
						send_invitation: true,
					}),
					validInterview({ candidate_email: "d2@example.com", difficulty: "expert" }),
				],
			},
		});
		expect(res.status).toBe(200);
		const ids: string[] = res.body.data.successful.map((s: any) => s.interview.id);
		expect(ids).toHaveLength(3);
		const full = await Promise.all(
			ids.map((id) => call("GET", `/v1/interviews/${id}`, { key: account.live })),
		);
		expect(
			full.map((f) => [
				f.body.data.duration.estimated_minutes,
				f.body.data.difficulty,
				f.body.data.company_name,
			]),
		).toEqual([
			[45, "senior", "Defaults Inc"],
			[60, "junior", "Own Ltd"],
			[45, "expert", "Defaults Inc"],
		]);
		expect(await Promise.all(ids.map(invitationsOf))).toEqual([0, 1, 0]);
	});

	it("without defaults, items take the single create's defaults", async () => {
		const account = await newAccount({ company_name: "Account Co" });
		const res = await call("POST", "/v1/interviews/bulk/", {
			key: account.live,
			body: { interviews: items(1) },
		});
		const id = res.body.data.successful[0].interview.id;
		const full = await call("GET", `/v1/interviews/${id}`, { key: account.live });
		expect(full.body.data).toMatchObject({
			duration: { estimated_minutes: 30 },
			difficulty: "intermediate",
			company_name: "Account Co",
		});
		expect(await invitationsOf(id)).toBe(1);
	});

	it("needs interviews:write, and is served under /api/v1 too", async () => {
		const account = await newAccount();
		const readOnly = await account.key("live", { permissions: ["interviews:read"] });
		const refused = await call("POST", "/v1/interviews/bulk", {
			key: readOnly,
			body: { interviews: items(1) },
		});
		expect(refused.status).toBe(403);
		expect(refused.body.error.details.required_permission).toBe("interviews:write");
		const api = await call("POST", "/api/v1/interviews/bulk/", {
			key: account.test,
			body: { interviews: items(2) },
		});
		expect(api.status).toBe(200);
		expect(api.body.data.successful.map((s: any) => s.interview.test_mode)).toEqual([true, true]);
		expect(await interviewCount(account.id)).toBe(2);
	});
});
