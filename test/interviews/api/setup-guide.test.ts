import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ANALYSIS_DELAY_MS } from "../../../src/interviews/core/state-machine";
import { interviewStub } from "../../../src/interviews/stub";
import { call, newAccount, validInterview } from "../../support/helpers";
import { createInterview, fireAlarmAt } from "../../support/lifecycle-helpers";

const guideBody = (overrides: Record<string, unknown> = {}) => ({
	job: {
		title: "Platform Engineer",
		description: "Runs the build and deploy platform.",
		requirements: "Five years with Kubernetes; on-call experience.",
	},
	candidate_email: "grace@example.com",
	skills_to_assess: ["Kubernetes", "Go"],
	difficulty_level: "senior",
	duration_minutes: 45,
	...overrides,
});

describe("POST /api/v1/interviews/ with the setup guide's body", () => {
	it("creates an interview that the /v1 endpoints show, answering session_id and candidate_link", async () => {
		const account = await newAccount({ company_name: "Initech" });
		const res = await call("POST", "/api/v1/interviews/", { key: account.live, body: guideBody() });
		expect(res.status).toBe(201);
		const data = res.body.data;
		expect(data).toEqual({
			id: expect.stringMatching(/^int_[0-9A-Za-z]{24}$/),
			session_id: data.id,
			status: "scheduled",
			candidate_email: "grace@example.com",
			position: "Platform Engineer",
			skills: ["Kubernetes", "Go"],
			difficulty: "senior",
			company_name: "Initech",
			interview_url: expect.stringMatching(/^http:\/\/service\.test\/join\/int_\w+\?token=\w{32}$/),
			candidate_link: data.interview_url,
			scheduled_at: expect.any(String),
			estimated_duration: 45,
			test_mode: false,
			created_at: expect.any(String),
		});

		const fetched = await call("GET", `/v1/interviews/${data.id}`, { key: account.live });
		expect(fetched.status).toBe(200);
		expect(fetched.body.data).toMatchObject({
			id: data.id,
			position: "Platform Engineer",
			skills: ["Kubernetes", "Go"],
			difficulty: "senior",
			duration: { estimated_minutes: 45 },
			urls: { interview_url: data.interview_url },
		});
		const list = await call("GET", "/v1/interviews?position=platform", { key: account.live });
		expect(list.body.data.map((i: any) => i.id)).toEqual([data.id]);

		const state = await interviewStub(env, data.id).get();
		expect(state?.jobDescription).toBe("Runs the build and deploy platform.");
		expect(state?.jobRequirements).toBe("Five years with Kubernetes; on-call experience.");
	});

	it("updates and cancels under /api/v1 too, with or without the trailing slash", async () => {
		const account = await newAccount();
		for (const slash of ["", "/"]) {
			const created = await call("POST", `/api/v1/interviews${slash}`, {
				key: account.live,
				body: guideBody(),
			});
			expect(created.status).toBe(201);
			const id: string = created.body.data.session_id;
			const updated = await call("PATCH", `/api/v1/interviews/${id}${slash}`, {
				key: account.live,
				body: { position: "Staff Engineer" },
			});
			expect([updated.status, updated.body.data?.position]).toEqual([200, "Staff Engineer"]);
			const cancelled = await call("DELETE", `/api/v1/interviews/${id}${slash}?reason=filled`, {
				key: account.live,
			});
			expect([cancelled.status, cancelled.body.data?.status]).toEqual([200, "cancelled"]);
			const fetched = await call("GET", `/v1/interviews/${id}`, { key: account.live });
			expect([fetched.body.data?.status, fetched.body.data?.position]).toEqual([
				"cancelled",
				"Staff Engineer",
			]);
		}
	});

	it("recognises the body by skills_to_assess alone and applies the create defaults", async () => {
		const account = await newAccount();
		const res = await call("POST", "/api/v1/interviews", {
			key: account.test,
			body: { job: { title: "Data Analyst" }, candidate_email: "hal@example.com", skills_to_assess: ["SQL"] },
		});
		expect(res.status).toBe(201);
		expect(res.body.data).toMatchObject({
			difficulty: "intermediate",
			estimated_duration: 30,
			test_mode: true,
		});
		const state = await interviewStub(env, res.body.data.id).get();
		expect(state?.jobDescription).toBeUndefined();
	});

	it.each([
		["job.title", guideBody({ job: { description: "no title" } })],
		["job.description", guideBody({ job: { title: "T", description: 5 } })],
		["job.salary", guideBody({ job: { title: "T", salary: "lots" } })],
		["job", guideBody({ job: "Platform Engineer" })],
		["skills_to_assess", guideBody({ skills_to_assess: [] })],
		["difficulty_level", guideBody({ difficulty_level: "wizard" })],
		["position", guideBody({ position: "Both forms at once" })],
		["candidate_email", guideBody({ candidate_email: "nope" })],
	])("refuses a bad %s with VALIDATION_ERROR in dotted form", async (field, body) => {
		const account = await newAccount();
		const res = await call("POST", "/api/v1/interviews/", { key: account.live, body });
		expect(res.status).toBe(400);
		expect(res.body.error.code).toBe("VALIDATION_ERROR");
		expect(res.body.error.details).toHaveProperty(field);
		const list = await call("GET", "/v1/interviews", { key: account.live });
		expect(list.body.pagination?.total_count).toBe(0);
	});

	it("takes the /v1 body too under /api/v1 and names the id and link the setup guide's way", async () => {
		const account = await newAccount();
		const res = await call("POST", "/api/v1/interviews/", { key: account.live, body: validInterview() });
		expect(res.status).toBe(201);
		expect(res.body.data.session_id).toBe(res.body.data.id);
		expect(res.body.data.candidate_link).toBe(res.body.data.interview_url);
	});

	it("keeps /v1/interviews to the /v1 body", async () => {
		const account = await newAccount();
		const res = await call("POST", "/v1/interviews", { key: account.live, body: guideBody() });
		expect(res.status).toBe(400);
		expect(res.body.error.details).toMatchObject({ job: "Unknown field", position: "Required" });
		const plain = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		expect(plain.body.data).not.toHaveProperty("session_id");
	});
});

describe("GET /api/v1/interviews/{session_id}/results/", () => {
	it("gives a test-mode interview deterministic mock results at once", async () => {
		const account = await newAccount();
		const created = await call("POST", "/api/v1/interviews/", {
			key: account.live,
			body: guideBody({ test_mode: true }),
		});
		const id = created.body.data.session_id;
		const res = await call("GET", `/api/v1/interviews/${id}/results/`, { key: account.live });
		expect(res.status).toBe(200);
		const data = res.body.data;
		expect(data).toEqual({
			session_id: id,
			status: "scheduled",
			results_status: "mock",
			overall_score: expect.any(Number),
			skill_scores: { Kubernetes: expect.any(Number), Go: expect.any(Number) },
			recommendations: [
				{
					type: expect.stringMatching(/^(hire|maybe|no_hire)$/),
					confidence: expect.any(Number),
					reasoning: expect.stringContaining(`Overall score ${data.overall_score} of 100`),
				},
			],
			test_mode: true,
		});
		for (const score of Object.values<number>(data.skill_scores)) {
			expect(score).toBeGreaterThanOrEqual(45);
			expect(score).toBeLessThanOrEqual(95);
		}
		expect(data.overall_score).toBe(Math.round((data.skill_scores.Kubernetes + data.skill_scores.Go) / 2));
		expect(data.recommendations[0].confidence).toBeGreaterThanOrEqual(0.5);
		expect(data.recommendations[0].confidence).toBeLessThanOrEqual(0.95);
		const again = await call("GET", `/api/v1/interviews/${id}/results`, { key: account.live });
		expect(again.body.data).toEqual(data);
	});

	it("answers null scores for a live interview that has not been analyzed", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.live);
		const res = await call("GET", `/api/v1/interviews/${id}/results/`, { key: account.live });
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual({
			session_id: id,
			status: "scheduled",
			results_status: "not_completed",
			overall_score: null,
			skill_scores: null,
			recommendations: [],
			test_mode: false,
		});
	});

	it("derives scores and the recommendation from the real results once analyzed", async () => {
		const account = await newAccount();
		const created = await createInterview(account.live);
		const stub = interviewStub(env, created.id);
		await stub.join(created.token, Date.now());
		const finishedAt = Date.now() + 3_600_000;
		await stub.finish("candidate_ended", finishedAt);
		const before = await call("GET", `/api/v1/interviews/${created.id}/results/`, { key: account.live });
		expect(before.body.data).toMatchObject({
			status: "completed",
			results_status: "analyzing",
			overall_score: null,
		});
		await fireAlarmAt(created.id, finishedAt + ANALYSIS_DELAY_MS);

		const full = await call("GET", `/v1/interviews/${created.id}?include_results=true`, {
			key: account.live,
		});
		const results = full.body.data.results;
		const res = await call("GET", `/api/v1/interviews/${created.id}/results/`, { key: account.live });
		expect(res.body.data).toMatchObject({
			session_id: created.id,
			status: "completed",
			results_status: "available",
			overall_score: results.overall_score,
			skill_scores: Object.fromEntries(results.skill_assessments.map((s: any) => [s.skill, s.score])),
			recommendations: [{ type: results.recommendation, confidence: expect.any(Number) }],
			test_mode: false,
		});
	});

	it("answers 404 for another account's interview and an unknown id, and needs interviews:read", async () => {
		const account = await newAccount();
		const other = await newAccount();
		const { id } = await createInterview(other.live);
		for (const path of [
			`/api/v1/interviews/${id}/results/`,
			"/api/v1/interviews/int_000000000000000000000000/results/",
		]) {
			const res = await call("GET", path, { key: account.live });
			expect(res.status).toBe(404);
			expect(res.body.error.code).toBe("INTERVIEW_NOT_FOUND");
		}
		const writeOnly = await other.key("live", { permissions: ["interviews:write"] });
		const refused = await call("GET", `/api/v1/interviews/${id}/results/`, { key: writeOnly });
		expect(refused.status).toBe(403);
	});
});
