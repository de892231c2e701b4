// The main flows through the generated typed client (client/index.ts, openapi-fetch over
// client/schema.d.ts) against the real local service: what an integrator's code does. Every
// answer is also checked against the OpenAPI document by the harness's middleware.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type Service, startService } from "./harness";

let service: Service;

beforeAll(async () => {
	service = await startService();
});

afterAll(async () => {
	await service?.stop();
});

describe("the typed client", () => {
	it("creates, lists, fetches, updates and cancels an interview", async () => {
		const api = client(service, service.keys.test);
		const created = await api.POST("/v1/interviews", {
			body: { candidate_email: "typed@example.com", position: "Platform Engineer", skills: ["Go", "SQL"] },
			headers: { "Idempotency-Key": `typed-${Date.now()}` },
		});
		expect(created.response.status).toBe(201);
		const id = created.data!.data.id;
		expect(created.data!.data).toMatchObject({
			status: "scheduled",
			test_mode: true,
			estimated_duration: 30,
		});

		const list = await api.GET("/v1/interviews", { params: { query: { limit: 5, status: "scheduled" } } });
		expect(list.data!.data.map((i) => i.id)).toContain(id);
		expect(list.data!.pagination.total_count).toBeGreaterThanOrEqual(1);

		const fetched = await api.GET("/v1/interviews/{id}", {
			params: { path: { id }, query: { include_results: true } },
		});
		expect(fetched.data!.data).toMatchObject({
			id,
			candidate: { email: "typed@example.com" },
			results: null,
		});

		const updated = await api.PATCH("/v1/interviews/{id}", {
			params: { path: { id } },
			body: { position: "Staff Platform Engineer", send_notification: false },
		});
		expect(updated.data!.data).toMatchObject({ id, position: "Staff Platform Engineer" });

		const advanced = await api.POST("/v1/interviews/{id}/test/advance", {
			params: { path: { id } },
			body: { to: "completed" },
		});
		expect(advanced.data!.data.status).toBe("completed");

		const other = await api.POST("/v1/interviews", {
			body: { candidate_email: "typed2@example.com", position: "QA", skills: ["Testing"] },
		});
		const cancelled = await api.DELETE("/v1/interviews/{id}", {
			params: { path: { id: other.data!.data.id }, query: { reason: "Filled", send_notification: false } },
		});
		expect(cancelled.data!.data).toMatchObject({ status: "cancelled", cancellation_reason: "Filled" });
	});

	it("answers errors in the typed error envelope", async () => {
		const api = client(service, service.keys.test);
		const missing = await api.GET("/v1/interviews/{id}", { params: { path: { id: "int_doesnotexist" } } });
		expect(missing.response.status).toBe(404);
		expect(missing.error!.error.code).toBe("INTERVIEW_NOT_FOUND");
		const invalid = await api.POST("/v1/interviews", {
			body: { candidate_email: "not-an-email", position: "QA", skills: ["Testing"] },
		});
		expect(invalid.response.status).toBe(400);
		expect(invalid.error!.error).toMatchObject({ code: "VALIDATION_ERROR" });
	});

	it("narrows a bulk item's error on its code", async () => {
		const api = client(service, service.keys.test);
		const bulk = await api.POST("/v1/interviews/bulk", {
			body: { interviews: [{ candidate_email: "not-an-email", position: "QA", skills: ["Testing"] }] },
		});
		const [failed] = bulk.data!.data.failed;
		expect(failed?.error.code).toBe("INVALID_EMAIL");
		if (failed?.error.code === "INVALID_EMAIL") {
			// Typed as each failing field's message, as VALIDATION_ERROR's details are.
			const messages: Record<string, string> = failed.error.details;
			expect(messages.candidate_email).toEqual(expect.any(String));
		}
	});

	it("reads the account, the event log and manages a webhook endpoint", async () => {
		const api = client(service, service.keys.live);
		const profile = await api.GET("/v1/account/profile");
		expect(profile.data!.data.account_id).toBe(service.accountId);
		const events = await api.GET("/v1/events", { params: { query: { limit: 3 } } });
		expect(Array.isArray(events.data!.data)).toBe(true);
		const endpoint = await api.POST("/v1/webhooks", {
			body: { url: "https://hooks.example.com/typed", events: ["interview.completed"] },
		});
		expect(endpoint.response.status).toBe(201);
		const id = endpoint.data!.data.id;
		const listed = await api.GET("/v1/webhooks");
		expect(listed.data!.data.map((w) => w.id)).toContain(id);
		const deleted = await api.DELETE("/v1/webhooks/{id}", { params: { path: { id } } });
		expect(deleted.data!.data).toEqual({ id, deleted: true });
	});
});
