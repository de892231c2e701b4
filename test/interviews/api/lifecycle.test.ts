import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { interviewStub } from "../../../src/interviews/stub";
import { call, newAccount } from "../../support/helpers";
import {
	completeInterview,
	createInterview,
	eventsOf,
	fireAlarmAt,
	ledgerOf,
	projectionOf,
	startInterview,
} from "../../support/lifecycle-helpers";

const future = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

describe("PATCH /v1/interviews/{id}", () => {
	const scheduledCells: [string, Record<string, unknown>][] = [
		["scheduled_at", { scheduled_at: future(48) }],
		["candidate_email", { candidate_email: "grace@example.com" }],
		["position", { position: "Staff Engineer" }],
		["skills", { skills: ["Go", "Kubernetes"] }],
		["duration_minutes", { duration_minutes: 60 }],
		["difficulty", { difficulty: "expert" }],
		["instructions", { instructions: "Ask about testing" }],
		["company_name", { company_name: "Globex" }],
	];

	it.each(scheduledCells)(
		"updates %s of a scheduled interview and answers the flat form",
		async (field, body) => {
			const account = await newAccount();
			const { id } = await createInterview(account.live, { scheduled_at: future(24) });
			const res = await call("PATCH", `/v1/interviews/${id}`, { key: account.live, body });
			expect(res.status).toBe(200);
			expect(res.body.meta?.request_id).toBeDefined();
			expect(Object.keys(res.body.data).sort()).toEqual(
				[
					"id",
					"status",
					"candidate_email",
					"interview_url",
					"position",
					"skills",
					"scheduled_at",
					"duration_minutes",
					"difficulty",
					"company_name",
					"instructions",
					"test_mode",
					"created_at",
					"updated_at",
					"notification_sent",
				].sort(),
			);
			expect(res.body.data[field]).toEqual(body[field]);
			expect(res.body.data.notification_sent).toBe(true);
			const fetched = await call("GET", `/v1/interviews/${id}`, { key: account.live });
			expect(fetched.body.data.updated_at).toBe(res.body.data.updated_at);
			// The join link as it now stands: a new one after an address change.
			expect(res.body.data.interview_url).toBe(fetched.body.data.urls.interview_url);
			const types = (await eventsOf(id)).map((e) => e.type);
			expect(types).toEqual(
				field === "scheduled_at"
					? ["interview.scheduled", "interview.updated", "interview.rescheduled"]
					: ["interview.scheduled", "interview.updated"],
			);
		},
	);

	it("answers the candidate's name and join link as create does: a new address gets a new link and no name", async () => {
		const account = await newAccount();
		const { id, data } = await createInterview(account.live, {
			scheduled_at: future(24),
			candidate_name: "Ada Lovelace",
		});
		const moved = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { position: "Staff" },
		});
		expect(moved.body.data.candidate_name).toBe("Ada Lovelace");
		expect(moved.body.data.interview_url).toBe(data.interview_url);
		const readdressed = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { candidate_email: "grace@example.com" },
		});
		expect(readdressed.status).toBe(200);
		expect("candidate_name" in readdressed.body.data).toBe(false);
		expect(readdressed.body.data.interview_url).not.toBe(data.interview_url);
		const fetched = await call("GET", `/v1/interviews/${id}`, { key: account.live });
		expect(readdressed.body.data.interview_url).toBe(fetched.body.data.urls.interview_url);
	});

	it.each(scheduledCells.filter(([f]) => f !== "company_name" && f !== "instructions"))(
		"refuses %s of an in-progress interview with 409 INTERVIEW_IN_PROGRESS",
		async (_field, body) => {
			const account = await newAccount();
			const { id } = await startInterview(account.live);
			const res = await call("PATCH", `/v1/interviews/${id}`, { key: account.live, body });
			expect(res.status).toBe(409);
			expect(res.body.error.code).toBe("INTERVIEW_IN_PROGRESS");
			expect(res.body.error.details).toMatchObject({
				current_status: "in_progress",
				started_at: expect.any(String),
				allowed_updates: ["company_name", "instructions"],
			});
		},
	);

	it("allows company_name and extended instructions while in progress, without notifying the candidate", async () => {
		const account = await newAccount();
		const { id } = await startInterview(account.live, { instructions: "Be kind." });
		const company = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { company_name: "Initech" },
		});
		expect(company.status).toBe(200);
		expect(company.body.data).toMatchObject({
			company_name: "Initech",
			status: "in_progress",
			notification_sent: false,
		});
		const extended = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { instructions: "Be kind. Probe caching." },
		});
		expect(extended.status).toBe(200);
		const rewritten = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { instructions: "Be strict." },
		});
		expect(rewritten.status).toBe(409);
		expect(rewritten.body.error.code).toBe("INTERVIEW_IN_PROGRESS");
	});

	it.each(scheduledCells)(
		"refuses %s of a completed interview with 409 INVALID_OPERATION",
		async (_f, body) => {
			const account = await newAccount();
			const { id } = await completeInterview(account.live);
			const res = await call("PATCH", `/v1/interviews/${id}`, { key: account.live, body });
			expect(res.status).toBe(409);
			expect(res.body.error).toMatchObject({
				code: "INVALID_OPERATION",
				details: { current_status: "completed", completed_at: expect.any(String), allowed_updates: [] },
			});
		},
	);

	it("refuses updates to a cancelled interview with 409 INVALID_OPERATION", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.live);
		await call("DELETE", `/v1/interviews/${id}`, { key: account.live });
		const res = await call("PATCH", `/v1/interviews/${id}`, { key: account.live, body: { position: "X" } });
		expect(res.status).toBe(409);
		expect(res.body.error.details).toMatchObject({ current_status: "cancelled", allowed_updates: [] });
	});

	it("validates the body: past time, bad fields, nothing to update", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.live);
		for (const [body, field] of [
			[{ scheduled_at: "2020-01-01T00:00:00Z" }, "scheduled_at"],
			[{ duration_minutes: 5 }, "duration_minutes"],
			[{ candidate_email: "nope" }, "candidate_email"],
			[{ status: "completed" }, "status"],
			[{ send_notification: false }, "body"],
		] as const) {
			const res = await call("PATCH", `/v1/interviews/${id}`, { key: account.live, body });
			expect(res.status).toBe(400);
			expect(res.body.error.details).toHaveProperty(field);
		}
	});

	it("answers 404 for another account's interview and changes nothing", async () => {
		const a = await newAccount();
		const b = await newAccount();
		const { id } = await createInterview(a.live);
		const res = await call("PATCH", `/v1/interviews/${id}`, { key: b.live, body: { position: "Hijacked" } });
		expect(res.status).toBe(404);
		expect(res.body.error.code).toBe("INTERVIEW_NOT_FOUND");
		expect((await projectionOf(id))?.position).toBe("Backend Engineer");
	});

	it("says notification_sent false when asked not to notify, and for test interviews", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.live);
		const quiet = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { position: "Lead", send_notification: false },
		});
		expect(quiet.body.data.notification_sent).toBe(false);
		const test = await createInterview(account.test);
		const res = await call("PATCH", `/v1/interviews/${test.id}`, {
			key: account.test,
			body: { position: "Lead" },
		});
		expect(res.body.data.notification_sent).toBe(false);
	});
});

describe("DELETE /v1/interviews/{id}", () => {
	it("cancels a scheduled interview, refunds its credit and notifies the candidate", async () => {
		const account = await newAccount({ credits: 5 });
		const { id } = await createInterview(account.live);
		const res = await call("DELETE", `/v1/interviews/${id}?reason=Position%20filled`, { key: account.live });
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual({
			id,
			status: "cancelled",
			cancelled_at: expect.any(String),
			cancellation_reason: "Position filled",
			refund_details: { credits_refunded: 1, refund_reason: expect.any(String) },
			notification_sent: true,
			test_mode: false,
		});
		expect((await ledgerOf(account.id)).map((e) => [e.kind, e.amount])).toEqual([
			["grant", 5],
			["debit", -1],
			["refund", 1],
		]);
		const profile = await call("GET", "/v1/account/profile", { key: account.live });
		expect(profile.body.data.credits_balance).toBe(5);
		expect((await eventsOf(id)).map((e) => e.type)).toEqual([
			"interview.scheduled",
			"interview.cancelled",
			"credits.refunded",
		]);
		expect((await projectionOf(id))?.status).toBe("cancelled");
		const fetched = await call("GET", `/v1/interviews/${id}`, { key: account.live });
		expect(fetched.body.data.cancellation).toEqual({
			cancelled_at: res.body.data.cancelled_at,
			reason: "Position filled",
		});
	});

	it("keeps the credit with refund_credits=false and stays quiet with send_notification=false", async () => {
		const account = await newAccount({ credits: 5 });
		const { id } = await createInterview(account.live);
		const res = await call("DELETE", `/v1/interviews/${id}?refund_credits=false&send_notification=false`, {
			key: account.live,
		});
		expect(res.body.data).toMatchObject({ refund_details: null, notification_sent: false });
		expect((await ledgerOf(account.id)).map((e) => e.kind)).toEqual(["grant", "debit"]);
		expect((await eventsOf(id)).map((e) => e.type)).not.toContain("credits.refunded");
	});

	it("cancels an in-progress interview without refund or notification", async () => {
		const account = await newAccount({ credits: 5 });
		const { id } = await startInterview(account.live);
		const res = await call("DELETE", `/v1/interviews/${id}`, { key: account.live });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({
			status: "cancelled",
			refund_details: null,
			notification_sent: false,
		});
		expect((await ledgerOf(account.id)).map((e) => e.kind)).toEqual(["grant", "debit"]);
	});

	it("refuses a completed interview with 409 INVALID_OPERATION", async () => {
		const account = await newAccount();
		const { id } = await completeInterview(account.live);
		const res = await call("DELETE", `/v1/interviews/${id}`, { key: account.live });
		expect(res.status).toBe(409);
		expect(res.body.error).toMatchObject({
			code: "INVALID_OPERATION",
			details: { current_status: "completed", completed_at: expect.any(String) },
		});
	});

	it("refuses a cancelled interview with 409 INTERVIEW_ALREADY_CANCELLED", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.live);
		await call("DELETE", `/v1/interviews/${id}?reason=Duplicate`, { key: account.live });
		const res = await call("DELETE", `/v1/interviews/${id}`, { key: account.live });
		expect(res.status).toBe(409);
		expect(res.body.error).toMatchObject({
			code: "INTERVIEW_ALREADY_CANCELLED",
			details: { cancelled_at: expect.any(String), cancellation_reason: "Duplicate" },
		});
	});

	it("needs interviews:delete and hides other accounts' interviews", async () => {
		const account = await newAccount();
		const writer = await account.key("live", { permissions: ["interviews:write", "interviews:read"] });
		const { id } = await createInterview(account.live);
		expect((await call("DELETE", `/v1/interviews/${id}`, { key: writer })).status).toBe(403);
		const other = await newAccount();
		expect((await call("DELETE", `/v1/interviews/${id}`, { key: other.live })).status).toBe(404);
		expect((await projectionOf(id))?.status).toBe("scheduled");
	});

	it("gives exactly one success to 20 parallel cancellations", async () => {
		const account = await newAccount({ credits: 3 });
		const { id } = await createInterview(account.live);
		const results = await Promise.all(
			Array.from({ length: 20 }, () => call("DELETE", `/v1/interviews/${id}`, { key: account.live })),
		);
		expect(results.filter((r) => r.status === 200)).toHaveLength(1);
		const refused = results.filter((r) => r.status === 409);
		expect(refused).toHaveLength(19);
		expect(refused.every((r) => r.body.error.code === "INTERVIEW_ALREADY_CANCELLED")).toBe(true);
		expect((await ledgerOf(account.id)).filter((e) => e.kind === "refund")).toHaveLength(1);
		expect((await eventsOf(id)).filter((e) => e.type === "interview.cancelled")).toHaveLength(1);
	});

	it("leaves D1 and the object agreeing after parallel updates and a cancellation", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.live);
		await Promise.all([
			...Array.from({ length: 8 }, (_, i) =>
				call("PATCH", `/v1/interviews/${id}`, { key: account.live, body: { position: `Role ${i}` } }),
			),
			call("DELETE", `/v1/interviews/${id}`, { key: account.live }),
		]);
		const state = await interviewStub(env, id).get();
		const row = await projectionOf(id);
		expect(row).toMatchObject({ status: state?.status, version: state?.version, position: state?.position });
		expect(state?.status).toBe("cancelled");
	});
});

describe("timers", () => {
	it("emits candidate.no_show once however often the alarm fires, and rescheduling moves it", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.live);
		const state = await interviewStub(env, id).get();
		const due = (state?.scheduledAt ?? 0) + 15 * 60_000;
		await fireAlarmAt(id, due - 1);
		expect((await eventsOf(id)).map((e) => e.type)).not.toContain("candidate.no_show");
		await fireAlarmAt(id, due);
		await fireAlarmAt(id, due + 1000);
		const noShows = (await eventsOf(id)).filter((e) => e.type === "candidate.no_show");
		expect(noShows).toHaveLength(1);
		expect(noShows[0]?.data).toMatchObject({ interview_id: id, timeout_at: new Date(due).toISOString() });

		const later = Date.now() + 2 * 86_400_000;
		await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { scheduled_at: new Date(later).toISOString() },
		});
		await fireAlarmAt(id, due + 2000);
		expect((await eventsOf(id)).filter((e) => e.type === "candidate.no_show")).toHaveLength(1);
		await fireAlarmAt(id, later + 15 * 60_000);
		expect((await eventsOf(id)).filter((e) => e.type === "candidate.no_show")).toHaveLength(2);
	});

	it("completes an interview when its duration has passed, then publishes the analysis", async () => {
		const account = await newAccount();
		const { id } = await startInterview(account.live, { duration_minutes: 15 });
		const started = (await interviewStub(env, id).get())?.startedAt ?? 0;
		await fireAlarmAt(id, started + 15 * 60_000);
		const done = await call("GET", `/v1/interviews/${id}?include_results=true`, { key: account.live });
		expect(done.body.data.status).toBe("completed");
		expect(done.body.data.results).toBeNull();
		const completedAt = (await interviewStub(env, id).get())?.completedAt ?? 0;
		await fireAlarmAt(id, completedAt + 3_000);
		const analyzed = await call("GET", `/v1/interviews/${id}?include_results=true`, { key: account.live });
		expect(analyzed.body.data.results).toMatchObject({
			overall_score: expect.any(Number),
			recommendation: expect.any(String),
		});
		expect(analyzed.body.data.analytics).toMatchObject({ engagement_level: expect.any(String) });
		const events = await eventsOf(id);
		expect(events.map((e) => e.type)).toEqual([
			"interview.scheduled",
			"candidate.joined",
			"interview.started",
			"interview.completed",
			"results.analyzed",
			"analysis.ready",
		]);
		expect(events.find((e) => e.type === "interview.completed")?.data).toMatchObject({
			id,
			completion_reason: "duration_elapsed",
			duration_minutes: 15,
		});
		const list = await call("GET", "/v1/interviews?status=completed&include_results=true", {
			key: account.live,
		});
		expect(list.body.data[0]).toMatchObject({ id, results: { overall_score: expect.any(Number) } });
	});
});
