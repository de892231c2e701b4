import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type Service, startService } from "./harness";

let service: Service;

beforeAll(async () => {
	service = await startService();
});

afterAll(async () => {
	await service?.stop();
});

const interview = { candidate_email: "lin@example.com", position: "SRE", skills: ["Linux"] };

describe("plans and limits on the local service", () => {
	it("creates once for parallel retries with one Idempotency-Key, and replays afterwards", async () => {
		const before = await api(service, "GET", "/v1/account/profile", { key: service.keys.live });
		const headers = { "Idempotency-Key": "e2e-create-1" };
		const responses = await Promise.all(
			Array.from({ length: 5 }, () =>
				api(service, "POST", "/v1/interviews", { key: service.keys.live, body: interview, headers }),
			),
		);
		const ids = new Set(responses.filter((r) => r.status === 201).map((r) => r.body.data.id));
		expect(ids.size).toBe(1);
		for (const r of responses.filter((r) => r.status !== 201)) {
			expect(r.body.error.code).toBe("IDEMPOTENCY_KEY_IN_USE");
		}
		const replay = await api(service, "POST", "/v1/interviews", {
			key: service.keys.live,
			body: interview,
			headers,
		});
		expect(replay.status).toBe(201);
		expect(replay.headers.get("idempotent-replayed")).toBe("true");
		expect(ids.has(replay.body.data.id)).toBe(true);
		const after = await api(service, "GET", "/v1/account/profile", { key: service.keys.live });
		expect(after.body.data.credits_balance).toBe(before.body.data.credits_balance - 1);
		expect(after.body.data.usage.monthly_interviews_used).toBe(
			before.body.data.usage.monthly_interviews_used + 1,
		);
		expect(after.headers.get("x-ratelimit-limit")).toBe("300");
	});

	it("drives a test interview to completion with the test helper, and hides the helper from live keys", async () => {
		const created = await api(service, "POST", "/v1/interviews", { key: service.keys.test, body: interview });
		const id = created.body.data.id;
		const live = await api(service, "POST", `/v1/interviews/${id}/test/advance`, {
			key: service.keys.live,
			body: { to: "completed" },
		});
		expect(live.status).toBe(404);
		const done = await api(service, "POST", `/v1/interviews/${id}/test/advance`, {
			key: service.keys.test,
			body: { to: "completed" },
		});
		expect(done.status).toBe(200);
		expect(done.body.data.status).toBe("completed");
		const events = await api(service, "GET", `/v1/events?interview_id=${id}`, { key: service.keys.test });
		expect(events.body.data.map((e: { type: string }) => e.type).reverse()).toEqual([
			"interview.scheduled",
			"candidate.joined",
			"interview.started",
			"interview.completed",
			"results.analyzed",
			"analysis.ready",
		]);
	});
});
