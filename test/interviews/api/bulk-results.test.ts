import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ANALYSIS_DELAY_MS } from "../../../src/interviews/core/state-machine";
import { interviewStub } from "../../../src/interviews/stub";
import { call, newAccount } from "../../support/helpers";
import { createInterview, fireAlarmAt } from "../../support/lifecycle-helpers";

const HOUR = 3_600_000;

/**
 * Completes an interview an hour from now, so its analysis timer cannot fire by itself during
 * the test; `analyzed` fires it by hand.
 */
async function completed(key: string, analyzed: boolean) {
	const created = await createInterview(key);
	const stub = interviewStub(env, created.id);
	const joined = await stub.join(created.token, Date.now());
	if (joined.status !== "ok") throw new Error(`join failed: ${JSON.stringify(joined)}`);
	const finishedAt = Date.now() + HOUR;
	const finished = await stub.finish("candidate_ended", finishedAt);
	if (finished.status !== "ok") throw new Error(`finish failed: ${JSON.stringify(finished)}`);
	if (analyzed) await fireAlarmAt(created.id, finishedAt + ANALYSIS_DELAY_MS);
	return created.id;
}

const UNKNOWN = "int_000000000000000000000000";

describe("POST /v1/interviews/bulk-results", () => {
	it("answers one element per requested id, in request order, telling found, pending and missing apart", async () => {
		const account = await newAccount();
		const other = await newAccount();
		const scheduled = (await createInterview(account.live)).id;
		const analyzed = await completed(account.live, true);
		const analyzing = await completed(account.live, false);
		const cancelled = (await createInterview(account.live)).id;
		await call("DELETE", `/v1/interviews/${cancelled}`, { key: account.live });
		const foreign = (await createInterview(other.live)).id;

		const ids = [analyzed, UNKNOWN, scheduled, foreign, analyzing, cancelled, "nonsense", analyzed];
		const res = await call("POST", "/v1/interviews/bulk-results", {
			key: account.live,
			body: { interview_ids: ids, include_results: true, include_transcripts: true },
		});
		expect(res.status).toBe(200);
		expect(res.body.meta?.request_id).toBeDefined();
		const data: any[] = res.body.data;
		expect(data.map((e) => e.interview_id)).toEqual(ids);
		expect(data.map((e) => e.found)).toEqual([true, false, true, false, true, true, false, true]);
		expect(data.map((e) => e.results_status)).toEqual([
			"available",
			undefined,
			"not_completed",
			undefined,
			"analyzing",
			"cancelled",
			undefined,
			"available",
		]);

		const [done, , waiting, , pending, gone] = data;
		expect(done).toMatchObject({
			id: analyzed,
			status: "completed",
			candidate: { email: "ada@example.com" },
			position: "Backend Engineer",
			skills: ["TypeScript", "SQL"],
			schedule: { completed_at: expect.any(String) },
			duration: { estimated_minutes: 30, actual_minutes: expect.any(Number) },
			results: {
				overall_score: expect.any(Number),
				recommendation: expect.stringMatching(/^(hire|maybe|no_hire)$/),
				skill_assessments: expect.any(Array),
			},
			analytics: expect.any(Object),
			transcript: expect.any(Array),
		});
		expect(pending).toMatchObject({ status: "completed", results: null, transcript: expect.any(Array) });
		expect(waiting).toMatchObject({ status: "scheduled", results: null, transcript: null });
		expect(gone).toMatchObject({ status: "cancelled", results: null, transcript: null });
		// A duplicate id repeats the same element.
		expect(data[7]).toEqual(done);

		const fetched = await call("GET", `/v1/interviews/${analyzed}?include_results=true`, {
			key: account.live,
		});
		expect(done.results).toEqual(fetched.body.data.results);
	});

	it("makes another account's id look exactly like an unknown id", async () => {
		const account = await newAccount();
		const other = await newAccount();
		const foreign = (await createInterview(other.live)).id;
		const res = await call("POST", "/v1/interviews/bulk-results", {
			key: account.live,
			body: { interview_ids: [foreign, UNKNOWN] },
		});
		const [theirs, unknown] = res.body.data;
		const blank = (element: any, id: string) => JSON.parse(JSON.stringify(element).replaceAll(id, "ID"));
		expect(blank(theirs, foreign)).toEqual(blank(unknown, UNKNOWN));
		expect(unknown).toEqual({
			interview_id: UNKNOWN,
			found: false,
			error: { code: "INTERVIEW_NOT_FOUND", message: `No interview with id '${UNKNOWN}' exists.` },
		});
	});

	it("keeps the dev sandbox apart from production", async () => {
		const account = await newAccount();
		const live = (await createInterview(account.live)).id;
		const res = await call("POST", "/v1/interviews/bulk-results", {
			key: account.dev,
			body: { interview_ids: [live] },
		});
		expect(res.body.data[0].found).toBe(false);
	});

	it("leaves results and transcripts out unless asked", async () => {
		const account = await newAccount();
		const id = await completed(account.live, true);
		const res = await call("POST", "/api/v1/interviews/bulk-results/", {
			key: account.live,
			body: { interview_ids: [id] },
		});
		expect(res.status).toBe(200);
		expect(res.body.data[0]).toMatchObject({ found: true, results_status: "available", status: "completed" });
		expect(res.body.data[0]).not.toHaveProperty("results");
		expect(res.body.data[0]).not.toHaveProperty("analytics");
		expect(res.body.data[0]).not.toHaveProperty("transcript");
	});

	it("answers empty, malformed and overlong ids with their not-found element, as an unknown id", async () => {
		const account = await newAccount();
		const id = (await createInterview(account.live)).id;
		const long = `int_${"x".repeat(100_000)}`;
		const ids = ["", "nonsense", id.replace("int_", "wh_"), `${id}0`, long, id];
		const res = await call("POST", "/v1/interviews/bulk-results", {
			key: account.live,
			body: { interview_ids: ids },
		});
		expect(res.status).toBe(200);
		const data: any[] = res.body.data;
		expect(data.map((e) => e.interview_id)).toEqual(ids);
		expect(data.map((e) => e.found)).toEqual([false, false, false, false, false, true]);
		expect(data[0]).toEqual({
			interview_id: "",
			found: false,
			error: { code: "INTERVIEW_NOT_FOUND", message: "No interview with id '' exists." },
		});
		// The overlong id is echoed once, as sent, and not again in the message.
		expect(data[4].error.code).toBe("INTERVIEW_NOT_FOUND");
		expect(data[4].error.message).not.toContain("xxxxxxxxxx");
	});

	it("reads afresh when a request is retried with its Idempotency-Key, storing no answer", async () => {
		const account = await newAccount();
		const id = (await createInterview(account.live)).id;
		const read = () =>
			call("POST", "/v1/interviews/bulk-results", {
				key: account.live,
				body: { interview_ids: [id] },
				headers: { "Idempotency-Key": `bulk-results-${id}` },
			});
		const first = await read();
		expect(first.body.data[0].results_status).toBe("not_completed");
		await call("DELETE", `/v1/interviews/${id}`, { key: account.live });
		const retried = await read();
		expect(retried.status).toBe(200);
		expect(retried.headers.get("Idempotent-Replayed")).toBeNull();
		expect(retried.body.data[0].results_status).toBe("cancelled");
	});

	it("answers a retry with the same Idempotency-Key at once when the answer is larger than D1 keeps in a row", async () => {
		const account = await newAccount();
		const created = await createInterview(account.live);
		const stub = interviewStub(env, created.id);
		const joined = await stub.join(created.token, Date.now());
		if (joined.status !== "ok") throw new Error(`join failed: ${JSON.stringify(joined)}`);
		for (let i = 0; i < 2; i++) {
			const question = (await stub.get())?.currentQuestion;
			if (!question) break;
			await stub.answer(question.id, `${i}${"a".repeat(19_999)}`, null, Date.now());
		}
		await stub.finish("candidate_ended", Date.now() + HOUR);
		// Local D1 stores longer strings than D1 does (about 2 MB a row): refuse them as it would.
		await env.DB.exec(
			"CREATE TRIGGER refuse_large_idempotent_bodies BEFORE UPDATE ON idempotency_keys WHEN length(NEW.response_body) > 2000000 BEGIN SELECT RAISE(ABORT, 'string or blob too big'); END",
		);
		try {
			const read = () =>
				call("POST", "/v1/interviews/bulk-results", {
					key: account.live,
					body: { interview_ids: Array.from({ length: 100 }, () => created.id), include_transcripts: true },
					headers: { "Idempotency-Key": `large-${created.id}` },
				});
			const first = await read();
			expect(first.status).toBe(200);
			expect(JSON.stringify(first.body).length).toBeGreaterThan(2_000_000);
			const retried = await read();
			expect(retried.status).toBe(200);
			expect(retried.body.data).toEqual(first.body.data);
		} finally {
			await env.DB.exec("DROP TRIGGER refuse_large_idempotent_bodies");
		}
	});

	it.each([
		["no ids", { interview_ids: [] }, "interview_ids"],
		["a missing id list", {}, "interview_ids"],
		["101 ids", { interview_ids: Array.from({ length: 101 }, () => UNKNOWN) }, "interview_ids"],
		["an id that is not a string", { interview_ids: [UNKNOWN, 7] }, "interview_ids.1"],
		["a non-boolean flag", { interview_ids: [UNKNOWN], include_results: "yes" }, "include_results"],
		[
			"the singular transcript flag",
			{ interview_ids: [UNKNOWN], include_transcript: true },
			"include_transcript",
		],
	])("refuses %s with 400 naming %s", async (_, body, field) => {
		const account = await newAccount();
		const res = await call("POST", "/v1/interviews/bulk-results", { key: account.live, body });
		expect(res.status).toBe(400);
		expect(res.body.error.code).toBe("VALIDATION_ERROR");
		expect(res.body.error.details).toHaveProperty(field);
	});

	it("accepts 100 ids and needs interviews:read", async () => {
		const account = await newAccount();
		const id = (await createInterview(account.live)).id;
		const ids = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? id : UNKNOWN));
		const res = await call("POST", "/v1/interviews/bulk-results", {
			key: account.live,
			body: { interview_ids: ids },
		});
		expect(res.status).toBe(200);
		expect(res.body.data).toHaveLength(100);
		expect(res.body.data.filter((e: any) => e.found)).toHaveLength(50);
		const writeOnly = await account.key("live", { permissions: ["interviews:write"] });
		const refused = await call("POST", "/v1/interviews/bulk-results", {
			key: writeOnly,
			body: { interview_ids: [id] },
		});
		expect(refused.status).toBe(403);
		expect(refused.body.error.details.required_permission).toBe("interviews:read");
	});
});
