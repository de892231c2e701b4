import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BASE, call, newAccount, validInterview } from "../../support/helpers";

describe("POST /v1/interviews", () => {
	it("creates a scheduled interview with the contract's defaults and the flat response", async () => {
		const account = await newAccount({ company_name: "Globex" });
		const res = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		expect(res.status).toBe(201);
		expect(res.body.meta?.request_id).toBe(res.headers.get("X-Request-Id"));
		const data = res.body.data;
		expect(data).toEqual({
			id: expect.stringMatching(/^int_[0-9A-Za-z]{24}$/),
			status: "scheduled",
			candidate_email: "ada@example.com",
			position: "Backend Engineer",
			skills: ["TypeScript", "SQL"],
			difficulty: "intermediate",
			company_name: "Globex",
			interview_url: expect.stringMatching(
				new RegExp(`^http://service.test/join/${data.id}\\?token=[0-9A-Za-z]{32}$`),
			),
			scheduled_at: data.created_at,
			estimated_duration: 30,
			test_mode: false,
			created_at: expect.any(String),
		});
	});

	it("links to the origin the request came to, port included, when APP_URL is unset", async () => {
		const account = await newAccount();
		for (const [url, origin] of [
			["http://Service.TEST:8443/v1/interviews", "http://service.test:8443"],
			["https://service.test:443/v1/interviews", "https://service.test"],
			["http://127.0.0.1:8787/v1/interviews/", "http://127.0.0.1:8787"],
		] as const) {
			const res = await exports.default.fetch(url, {
				method: "POST",
				headers: { Authorization: `Bearer ${account.live}`, "Content-Type": "application/json" },
				body: JSON.stringify(validInterview()),
			});
			const data = ((await res.json()) as { data: { id: string; interview_url: string } }).data;
			expect(res.status, url).toBe(201);
			expect(data.interview_url.startsWith(`${origin}/join/${data.id}?token=`), data.interview_url).toBe(
				true,
			);
		}
	});

	it("keeps every given field", async () => {
		const account = await newAccount();
		const scheduled = new Date(Date.now() + 86_400_000).toISOString();
		const res = await call("POST", "/v1/interviews", {
			key: account.live,
			body: validInterview({
				candidate_name: "Ada Lovelace",
				duration_minutes: 45,
				difficulty: "senior",
				company_name: "Analytical Engines",
				instructions: "Focus on algorithms",
				send_invitation: false,
				scheduled_at: scheduled,
				test_mode: true,
			}),
		});
		expect(res.status).toBe(201);
		expect(res.body.data).toMatchObject({
			candidate_name: "Ada Lovelace",
			estimated_duration: 45,
			difficulty: "senior",
			company_name: "Analytical Engines",
			scheduled_at: scheduled,
			test_mode: true,
		});
		const full = await call("GET", `/v1/interviews/${res.body.data.id}`, { key: account.live });
		expect(full.body.data.instructions).toBe("Focus on algorithms");
		expect(full.body.data.candidate.name).toBe("Ada Lovelace");
	});

	it.each([
		["candidate_email", { candidate_email: "not-an-email" }],
		["duration_minutes", { duration_minutes: 10 }],
		["duration_minutes", { duration_minutes: 120 }],
		["difficulty", { difficulty: "wizard" }],
		["scheduled_at", { scheduled_at: "2020-01-01T00:00:00Z" }],
		["scheduled_at", { scheduled_at: "next tuesday" }],
		["skills", { skills: "TypeScript" }],
		["position", { position: 42 }],
		["test_mode", { test_mode: "yes" }],
		["colour", { colour: "blue" }],
	])("refuses a bad %s with VALIDATION_ERROR naming it", async (field, patch) => {
		const account = await newAccount();
		const res = await call("POST", "/v1/interviews", { key: account.live, body: validInterview(patch) });
		expect(res.status).toBe(400);
		expect(res.body.error?.code).toBe("VALIDATION_ERROR");
		expect(res.body.error?.details).toHaveProperty(field);
		const list = await call("GET", "/v1/interviews", { key: account.live });
		expect(list.body.pagination?.total_count).toBe(0);
	});

	it("names every missing required field", async () => {
		const account = await newAccount();
		const res = await call("POST", "/v1/interviews", { key: account.live, body: {} });
		expect(res.status).toBe(400);
		expect(res.body.error?.details).toEqual({
			candidate_email: "Required",
			position: "Required",
			skills: "Required",
		});
	});

	it("answers a body of many unknown fields with an error smaller than the body, alone or in a bulk", async () => {
		const account = await newAccount();
		const extra = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`x${i.toString(36)}`, 0]));
		const sent = JSON.stringify(validInterview(extra));
		const one = await exports.default.fetch(`${BASE}/v1/interviews`, {
			method: "POST",
			headers: { Authorization: `Bearer ${account.live}`, "Content-Type": "application/json" },
			body: sent,
		});
		const text = await one.text();
		expect(one.status).toBe(400);
		expect(text.length).toBeLessThan(sent.length / 10);
		const error = JSON.parse(text).error;
		expect(error.details.body).toMatch(/^and [\d,]+ more unknown fields$/);
		expect(error.message).toContain(error.details.body);
		const few = Object.fromEntries(Object.entries(extra).slice(0, 800));
		const items = Array.from({ length: 100 }, () => validInterview(few));
		const bulk = await call("POST", "/v1/interviews/bulk", {
			key: account.live,
			body: { interviews: items },
		});
		expect(bulk.status).toBe(200);
		expect(JSON.stringify(bulk.body).length).toBeLessThan(JSON.stringify(items).length / 4);
		expect(bulk.body.data.failed).toHaveLength(items.length);
		for (const failed of bulk.body.data.failed)
			expect(failed.error.details.body).toMatch(/^and [\d,]+ more unknown fields$/);
	});

	it("marks interviews made with a test key as test mode", async () => {
		const account = await newAccount();
		const res = await call("POST", "/v1/interviews", { key: account.test, body: validInterview() });
		expect(res.body.data.test_mode).toBe(true);
	});

	it("is reachable under the setup guide's /api/v1 prefix with a trailing slash", async () => {
		const account = await newAccount();
		const res = await call("POST", "/api/v1/interviews/", { key: account.live, body: validInterview() });
		expect(res.status).toBe(201);
		const fetched = await call("GET", `/v1/interviews/${res.body.data.id}/`, { key: account.live });
		expect(fetched.status).toBe(200);
	});
});

describe("scheduled_at bounds", () => {
	const YEAR = 365 * 24 * 3_600_000;

	it("refuses a time more than five years ahead on create, in a bulk item and on PATCH, changing nothing", async () => {
		const account = await newAccount();
		const far = new Date(Date.now() + 5 * YEAR + 3_600_000).toISOString();
		const refused = await call("POST", "/v1/interviews", {
			key: account.live,
			body: validInterview({ scheduled_at: "3000-01-01T00:00:00Z" }),
		});
		expect(refused.status).toBe(400);
		expect(refused.body.error).toMatchObject({
			code: "VALIDATION_ERROR",
			details: { scheduled_at: "Must be at most 5 years ahead" },
		});

		const bulk = await call("POST", "/v1/interviews/bulk", {
			key: account.live,
			body: { interviews: [validInterview({ scheduled_at: far })] },
		});
		expect(bulk.body.data.failed).toEqual([
			expect.objectContaining({
				index: 0,
				error: expect.objectContaining({
					code: "VALIDATION_ERROR",
					details: { scheduled_at: "Must be at most 5 years ahead" },
				}),
			}),
		]);

		// Four years and a half ahead is fine, and the interview's object can arm its timers.
		const near = new Date(Date.now() + 4.5 * YEAR).toISOString();
		const created = await call("POST", "/v1/interviews", {
			key: account.live,
			body: validInterview({ scheduled_at: near }),
		});
		expect(created.status).toBe(201);
		const id = created.body.data.id;
		const patched = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { scheduled_at: "3000-01-01T00:00:00Z", position: "Changed" },
		});
		expect(patched.status).toBe(400);
		expect(patched.body.error.details).toEqual({ scheduled_at: "Must be at most 5 years ahead" });
		const fetched = await call("GET", `/v1/interviews/${id}`, { key: account.live });
		expect(fetched.status).toBe(200);
		expect(fetched.body.data).toMatchObject({
			position: "Backend Engineer",
			schedule: { scheduled_at: created.body.data.scheduled_at },
		});
		const events = await call("GET", `/v1/events?interview_id=${id}`, { key: account.live });
		expect(events.body.data.map((e: { type: string }) => e.type)).toEqual(["interview.scheduled"]);
		const profile = await call("GET", "/v1/account/profile", { key: account.live });
		expect(profile.body.data.usage.monthly_interviews_used).toBe(1);
	});

	it("refuses a date that is not on the calendar instead of moving it", async () => {
		const account = await newAccount();
		const res = await call("POST", "/v1/interviews", {
			key: account.live,
			body: validInterview({ scheduled_at: "2099-02-30T10:00:00Z" }),
		});
		expect(res.status).toBe(400);
		expect(Object.keys(res.body.error.details)).toEqual(["scheduled_at"]);
	});
});

describe("skills", () => {
	const REPEAT = "Repeats item 0 (skills are compared without regard to case)";

	it("refuses a skill named twice on create, in a bulk item, in the setup guide's body and on PATCH, changing nothing", async () => {
		const account = await newAccount();
		const refused = await call("POST", "/v1/interviews", {
			key: account.live,
			body: validInterview({ skills: ["Go", "SQL", " go "] }),
		});
		expect(refused.status).toBe(400);
		expect(refused.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { "skills.2": REPEAT } });

		const bulk = await call("POST", "/v1/interviews/bulk", {
			key: account.live,
			body: { interviews: [validInterview({ skills: ["Go", "GO"] }), validInterview()] },
		});
		expect(bulk.status).toBe(200);
		expect(bulk.body.data.failed).toEqual([
			expect.objectContaining({
				index: 0,
				error: expect.objectContaining({ code: "VALIDATION_ERROR", details: { "skills.1": REPEAT } }),
			}),
		]);
		expect(bulk.body.data.successful).toHaveLength(1);

		const guide = await call("POST", "/api/v1/interviews/", {
			key: account.live,
			body: {
				job: { title: "Engineer", description: "Builds things", requirements: "Go" },
				candidate_email: "ada@example.com",
				skills_to_assess: ["Go", "go"],
			},
		});
		expect(guide.status).toBe(400);
		expect(guide.body.error.details).toEqual({ "skills_to_assess.1": REPEAT });

		const id = bulk.body.data.successful[0].interview.id;
		const patched = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { skills: ["Go", "Rust", "go"], position: "Changed" },
		});
		expect(patched.status).toBe(400);
		expect(patched.body.error.details).toEqual({ "skills.2": REPEAT });
		const fetched = await call("GET", `/v1/interviews/${id}`, { key: account.live });
		expect(fetched.body.data).toMatchObject({
			position: "Backend Engineer",
			skills: validInterview().skills,
		});
		const profile = await call("GET", "/v1/account/profile", { key: account.live });
		expect(profile.body.data.usage.monthly_interviews_used).toBe(1);

		// Different skills that share words are different skills.
		const kept = await call("POST", "/v1/interviews", {
			key: account.live,
			body: validInterview({ skills: ["Go", "Go concurrency", "SQL"] }),
		});
		expect(kept.status).toBe(201);
	});
});

describe("GET /v1/interviews/{id}", () => {
	it("returns the full form without meta, with unknown facts as null", async () => {
		const account = await newAccount();
		const created = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		const id = created.body.data.id;
		const res = await call("GET", `/v1/interviews/${id}`, { key: account.live });
		expect(res.status).toBe(200);
		expect(res.body.meta).toBeUndefined();
		expect(res.headers.get("X-Request-Id")).toMatch(/^req_/);
		expect(res.body.data).toEqual({
			id,
			status: "scheduled",
			candidate: { email: "ada@example.com", joined_at: null },
			position: "Backend Engineer",
			skills: ["TypeScript", "SQL"],
			difficulty: "intermediate",
			company_name: "Acme Testing",
			instructions: null,
			duration: { estimated_minutes: 30, actual_minutes: null },
			schedule: { scheduled_at: created.body.data.scheduled_at, started_at: null, completed_at: null },
			urls: {
				interview_url: created.body.data.interview_url,
				dashboard_url: `http://service.test/dashboard/interviews/${id}`,
				results_url: null,
			},
			test_mode: false,
			created_at: created.body.data.created_at,
			updated_at: created.body.data.created_at,
		});
	});

	it("adds results and analytics (null until completed) only with include_results=true", async () => {
		const account = await newAccount();
		const created = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		const res = await call("GET", `/v1/interviews/${created.body.data.id}?include_results=true`, {
			key: account.live,
		});
		expect(res.body.data.results).toBeNull();
		expect(res.body.data.analytics).toBeNull();
	});

	it("answers 404 for another account's interview, an unknown id and a malformed id", async () => {
		const a = await newAccount();
		const b = await newAccount();
		const created = await call("POST", "/v1/interviews", { key: a.live, body: validInterview() });
		for (const [key, id] of [
			[b.live, created.body.data.id],
			[a.live, "int_AAAAAAAAAAAAAAAAAAAAAAAA"],
			[a.live, "nonsense"],
		]) {
			const res = await call("GET", `/v1/interviews/${id}`, { key });
			expect(res.status).toBe(404);
			expect(res.body.error?.code).toBe("INTERVIEW_NOT_FOUND");
		}
	});

	it("keeps the dev sandbox and production apart", async () => {
		const account = await newAccount();
		const live = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		const dev = await call("POST", "/v1/interviews", { key: account.dev, body: validInterview() });
		expect((await call("GET", `/v1/interviews/${live.body.data.id}`, { key: account.dev })).status).toBe(404);
		expect((await call("GET", `/v1/interviews/${dev.body.data.id}`, { key: account.live })).status).toBe(404);
		expect((await call("GET", `/v1/interviews/${live.body.data.id}`, { key: account.test })).status).toBe(
			200,
		);
		const devList = await call("GET", "/v1/interviews", { key: account.dev });
		expect(devList.body.data.map((i: { id: string }) => i.id)).toEqual([dev.body.data.id]);
	});
});

describe("the D1 projection", () => {
	it("records interview.scheduled once in the event log", async () => {
		const account = await newAccount();
		const created = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		const events = await env.DB.prepare("SELECT type, data FROM events WHERE interview_id = ?")
			.bind(created.body.data.id)
			.all<{ type: string; data: string }>();
		expect(events.results.map((e) => e.type)).toEqual(["interview.scheduled"]);
		expect(JSON.parse(events.results[0]!.data)).toEqual({
			id: created.body.data.id,
			candidate_email: "ada@example.com",
			position: "Backend Engineer",
			scheduled_at: created.body.data.scheduled_at,
			test_mode: false,
		});
	});
});
