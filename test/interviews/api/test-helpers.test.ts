import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { interviewStub } from "../../../src/interviews/stub";
import { call, newAccount } from "../../support/helpers";
import { createInterview, eventsOf, fireAlarmAt } from "../../support/lifecycle-helpers";
import { connect } from "../../support/room-helpers";

const inTwoDays = () => new Date(Date.now() + 48 * 3_600_000).toISOString();

const advance = (key: string, id: string, to: unknown, headers?: Record<string, string>) =>
	call("POST", `/v1/interviews/${id}/test/advance`, { key, body: { to }, headers });

describe("test-mode helpers", () => {
	it("advances a test interview to in_progress through the join and start, even before its join window", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.test, { scheduled_at: inTwoDays() });
		const res = await advance(account.test, id, "in_progress");
		expect(res.status).toBe(200);
		expect(res.body.meta?.request_id).toBeDefined();
		expect(res.body.data).toMatchObject({
			id,
			status: "in_progress",
			test_mode: true,
			candidate: { joined_at: expect.any(String) },
			schedule: { started_at: expect.any(String), completed_at: null },
		});
		const events = await eventsOf(id);
		expect(events.map((e) => e.type)).toEqual([
			"interview.scheduled",
			"candidate.joined",
			"interview.started",
		]);
		expect(events.every((e) => e.data.test_mode === true)).toBe(true);
		const again = await advance(account.test, id, "in_progress");
		expect(again.status).toBe(200);
		expect(await eventsOf(id)).toHaveLength(3);
	});

	it("completes a test interview with generated results, emitting the real path's events", async () => {
		const account = await newAccount();
		const helped = await createInterview(account.test, { skills: ["Go", "SQL", "Kafka"] });
		const res = await advance(account.test, helped.id, "completed");
		expect(res.status).toBe(200);
		expect(res.body.data.status).toBe("completed");
		expect(res.body.data.results).toMatchObject({
			overall_score: expect.any(Number),
			recommendation: expect.stringMatching(/^(hire|maybe|no_hire)$/),
		});
		expect(res.body.data.results.skill_assessments.map((s: { skill: string }) => s.skill)).toEqual([
			"Go",
			"SQL",
			"Kafka",
		]);
		const helpedEvents = await eventsOf(helped.id);
		const completed = helpedEvents.find((e) => e.type === "interview.completed");
		expect(completed?.data).toMatchObject({
			completion_reason: "test_helper",
			results: {
				overall_score: res.body.data.results.overall_score,
				recommendation: res.body.data.results.recommendation,
			},
			test_mode: true,
		});
		const fetched = await call("GET", `/v1/interviews/${helped.id}?include_results=true`, {
			key: account.live,
		});
		expect(fetched.body.data.results).toEqual(res.body.data.results);

		// The real path: the candidate joins, the interview finishes, the analysis timer fires.
		const real = await createInterview(account.test);
		await interviewStub(env, real.id).join(real.token, Date.now());
		await interviewStub(env, real.id).finish("candidate_ended", Date.now());
		await fireAlarmAt(real.id, Date.now() + 10_000);
		const realEvents = await eventsOf(real.id);
		expect(helpedEvents.map((e) => e.type)).toEqual(realEvents.map((e) => e.type));
		// The interface's data shapes, field by field, on the real path.
		const data = (type: string) => realEvents.find((e) => e.type === type)?.data as Record<string, any>;
		const isoTime = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
		expect(data("interview.started")).toEqual(
			expect.objectContaining({
				id: real.id,
				candidate: expect.objectContaining({ email: "ada@example.com", joined_at: isoTime }),
				started_at: isoTime,
				test_mode: true,
			}),
		);
		expect(data("interview.completed")).toEqual(
			expect.objectContaining({
				id: real.id,
				completed_at: isoTime,
				duration_minutes: expect.any(Number),
				results: { overall_score: expect.any(Number), recommendation: expect.any(String) },
			}),
		);
		const analyzed = data("results.analyzed");
		expect(analyzed).toEqual(
			expect.objectContaining({
				interview_id: real.id,
				results: expect.objectContaining({
					overall_score: expect.any(Number),
					technical_score: expect.any(Number),
					communication_score: expect.any(Number),
					recommendation: expect.any(String),
					strengths: expect.any(Array),
					areas_for_improvement: expect.any(Array),
				}),
				test_mode: true,
			}),
		);
		expect(data("analysis.ready")).toEqual(analyzed);
		expect(helpedEvents.map((e) => e.type)).toEqual([
			"interview.scheduled",
			"candidate.joined",
			"interview.started",
			"interview.completed",
			"results.analyzed",
			"analysis.ready",
		]);
	});

	it("gives a completion nobody answered a sample transcript matching its results, and keeps real answers", async () => {
		const account = await newAccount();
		const helped = await createInterview(account.test, { skills: ["Go", "SQL"], difficulty: "senior" });
		await advance(account.test, helped.id, "completed");
		const fetched = await call(
			"GET",
			`/v1/interviews/${helped.id}?include_results=true&include_transcript=true`,
			{
				key: account.test,
			},
		);
		const { results, analytics, transcript } = fetched.body.data;
		expect(transcript).toHaveLength(2);
		transcript.forEach((entry: any, i: number) => {
			const skill = results.skill_assessments[i].skill;
			expect(entry).toMatchObject({
				question: { id: `mock_${i}`, skill, difficulty: "senior", index: i },
				answer: `(Test mode) A sample answer on ${skill}.`,
				score: results.skill_assessments[i].score,
			});
			expect(entry.question.text).toContain(skill);
			expect(Date.parse(entry.answered_at)).toBeGreaterThan(Date.parse(entry.asked_at));
			expect(analytics.question_difficulty_progression[i].question_id).toBe(entry.question.id);
		});
		expect(Date.parse(transcript[1].asked_at)).toBeGreaterThan(Date.parse(transcript[0].asked_at));

		// A candidate answered one question before the helper completed it: the real answer stays.
		const made = await createInterview(account.test, { skills: ["Go"] });
		const id = made.id;
		const { room } = await connect(id, made.token);
		const question = await room!.next((m) => m.type === "question");
		room!.send({
			type: "candidate_response",
			session_id: id,
			question_id: question.question.id,
			response: "Goroutines and channels",
			timestamp: new Date().toISOString(),
		});
		await room!.next((m) => m.type === "question" && m.question.id !== question.question.id);
		room!.close();
		await advance(account.test, id, "completed");
		const real = await call("GET", `/v1/interviews/${id}?include_transcript=true`, { key: account.test });
		expect(real.body.data.transcript[0]).toMatchObject({
			question: { id: question.question.id },
			answer: "Goroutines and channels",
		});
		expect(real.body.data.transcript.some((e: any) => e.answer?.startsWith("(Test mode)"))).toBe(false);
	});

	it("takes a test interview past its no-show time once; the interview stays scheduled", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.test, { scheduled_at: inTwoDays() });
		const res = await advance(account.test, id, "no_show");
		expect(res.status).toBe(200);
		expect(res.body.data.status).toBe("scheduled");
		expect((await advance(account.test, id, "no_show")).status).toBe(200);
		const noShows = (await eventsOf(id)).filter((e) => e.type === "candidate.no_show");
		expect(noShows).toHaveLength(1);
		expect(noShows[0]?.data).toMatchObject({ interview_id: id, test_mode: true });
		// The real timer, firing later, does not emit it again.
		await fireAlarmAt(id, Date.now() + 49 * 3_600_000);
		expect((await eventsOf(id)).filter((e) => e.type === "candidate.no_show")).toHaveLength(1);
	});

	it("works for dev keys on sandbox interviews", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.dev);
		const res = await advance(account.dev, id, "completed");
		expect(res.status).toBe(200);
		expect(res.body.data.status).toBe("completed");
		expect((await advance(account.test, id, "completed")).body.error.code).toBe("INTERVIEW_NOT_FOUND");
	});

	it("does not exist for live keys", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.test);
		const res = await advance(account.live, id, "in_progress");
		expect(res.status).toBe(404);
		expect(res.body.error.code).toBe("NOT_FOUND");
	});

	it("refuses to advance a live interview, even with a test key", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.live);
		const res = await advance(account.test, id, "completed");
		expect(res.status).toBe(409);
		expect(res.body.error).toMatchObject({ code: "INVALID_OPERATION", details: { test_mode: false } });
		expect((await interviewStub(env, id).get())?.status).toBe("scheduled");
	});

	it("lets a test key read a live interview but not change or cancel it: nothing changes, nothing is refunded", async () => {
		const account = await newAccount({ plan: "starter", credits: 5 });
		const { id } = await createInterview(account.live, { position: "Live role" });
		const before = await call("GET", "/v1/account/profile", { key: account.live });
		expect((await call("GET", `/v1/interviews/${id}`, { key: account.test })).status).toBe(200);

		const patched = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.test,
			body: { position: "Changed by a test key" },
		});
		expect(patched.status).toBe(409);
		expect(patched.body.error).toMatchObject({ code: "INVALID_OPERATION", details: { test_mode: false } });
		const cancelled = await call("DELETE", `/v1/interviews/${id}?refund_credits=true`, { key: account.test });
		expect(cancelled.status).toBe(409);
		expect(cancelled.body.error).toMatchObject({ code: "INVALID_OPERATION", details: { test_mode: false } });

		const state = await interviewStub(env, id).get();
		expect(state).toMatchObject({ status: "scheduled", position: "Live role" });
		const after = await call("GET", "/v1/account/profile", { key: account.live });
		expect(after.body.data.credits_balance).toBe(before.body.data.credits_balance);
		expect((await eventsOf(id)).map((e) => e.type)).toEqual(["interview.scheduled"]);
		// The live key still changes it.
		expect((await call("DELETE", `/v1/interviews/${id}`, { key: account.live })).status).toBe(200);
	});

	it("lets a test key change its own test-mode interviews", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.test);
		const patched = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.test,
			body: { position: "Renamed" },
		});
		expect(patched.status).toBe(200);
		const cancelled = await call("DELETE", `/v1/interviews/${id}`, { key: account.test });
		expect(cancelled.status).toBe(200);
		// The cancellation result says it was a test-mode interview, as every form of one does.
		expect(cancelled.body.data).toMatchObject({ status: "cancelled", test_mode: true, refund_details: null });
	});

	it("refuses states the interview has passed with 409 INVALID_OPERATION", async () => {
		const account = await newAccount();
		const done = await createInterview(account.test);
		await advance(account.test, done.id, "completed");
		expect((await advance(account.test, done.id, "in_progress")).body.error).toMatchObject({
			code: "INVALID_OPERATION",
			details: { current_status: "completed" },
		});
		expect((await advance(account.test, done.id, "no_show")).status).toBe(409);
		expect((await advance(account.test, done.id, "completed")).status).toBe(200);

		const cancelled = await createInterview(account.test);
		await call("DELETE", `/v1/interviews/${cancelled.id}`, { key: account.test });
		expect((await advance(account.test, cancelled.id, "completed")).status).toBe(409);

		const joined = await createInterview(account.test);
		await advance(account.test, joined.id, "in_progress");
		expect((await advance(account.test, joined.id, "no_show")).status).toBe(409);
	});

	it("checks scope, then the body, then the interview", async () => {
		const account = await newAccount();
		const readOnly = await account.key("test", { permissions: ["interviews:read"] });
		const { id } = await createInterview(account.test);
		const scope = await advance(readOnly, id, "completed");
		expect(scope.status).toBe(403);
		expect(scope.body.error.details.required_permission).toBe("interviews:write");
		const bad = await advance(account.test, "int_unknown", "finished");
		expect(bad.status).toBe(400);
		expect(bad.body.error.details.to).toMatch(/in_progress, completed, no_show/);
		const extra = await call("POST", `/v1/interviews/${id}/test/advance`, {
			key: account.test,
			body: { to: "completed", at: "now" },
		});
		expect(extra.body.error.details).toEqual({ at: "Unknown field" });
		const other = await newAccount();
		expect((await advance(other.test, id, "completed")).status).toBe(404);
		expect((await advance(account.test, "int_unknown", "completed")).body.error.code).toBe(
			"INTERVIEW_NOT_FOUND",
		);
	});

	it("is served under /api/v1 with a trailing slash", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.test);
		const res = await call("POST", `/api/v1/interviews/${id}/test/advance/`, {
			key: account.test,
			body: { to: "in_progress" },
		});
		expect(res.status).toBe(200);
	});
});
