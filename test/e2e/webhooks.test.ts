// End-to-end: the real local service (wrangler dev, real local queue) delivering to a real
// receiver on 127.0.0.1 in this process, with one-second retry delays.
import { verify } from "@octokit/webhooks-methods";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordedRequest, RouteConfig, WebhookReceiver } from "../support/webhook-receiver";
import { startWebhookReceiver } from "../support/webhook-receiver";
import { api, openApiValidator, type Service, startService } from "./harness";

let service: Service;
let rx: WebhookReceiver;
let secret: string;

async function route(name: string, config: RouteConfig): Promise<string> {
	const res = await fetch(`http://127.0.0.1:${rx.port}/__control/routes/${name}`, {
		method: "PUT",
		body: JSON.stringify(config),
	});
	expect(res.status).toBe(200);
	return `http://127.0.0.1:${rx.port}/hook/${name}`;
}

/** The deliveries `name` received; each body is checked against its event in the OpenAPI document. */
async function requestsOf(name: string): Promise<RecordedRequest[]> {
	const requests = (await (
		await fetch(`http://127.0.0.1:${rx.port}/__control/requests/${name}`)
	).json()) as RecordedRequest[];
	const validator = await openApiValidator(service);
	for (const request of requests) {
		if (request.method !== "POST" || !request.body) continue;
		const problems = validator.checkWebhook(JSON.parse(request.body));
		if (problems.length > 0)
			throw new Error(`A delivery does not match the document:\n${problems.join("\n")}`);
	}
	return requests;
}

/** Polls until `check` returns a value, for at most `timeoutMs`. */
async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

beforeAll(async () => {
	rx = await startWebhookReceiver();
	service = await startService({ vars: { WEBHOOK_RETRY_DELAYS: "1,1,1,1,1" } });
	const account = await api(service, "GET", `/admin/accounts/${service.accountId}`, {
		key: service.adminToken,
	});
	secret = account.body.data.webhook_secret;
});

afterAll(async () => {
	await service?.stop();
	await rx?.close();
});

describe("webhooks through the real local queue", () => {
	it("delivers a signed interview.scheduled, retrying once after a 500", async () => {
		const url = await route("e2e-scheduled", { secret, modes: ["500"], fallback: "ok" });
		const created = await api(service, "POST", "/v1/webhooks", {
			key: service.keys.live,
			body: { url, events: ["interview.scheduled"] },
		});
		expect(created.status).toBe(201);
		const webhookId: string = created.body.data.id;

		const interview = await api(service, "POST", "/v1/interviews", {
			key: service.keys.live,
			body: { candidate_email: "lin@example.com", position: "SRE", skills: ["Linux"] },
		});
		expect(interview.status).toBe(201);

		const [failed, succeeded] = await eventually(async () => {
			const seen = await requestsOf("e2e-scheduled");
			return seen.length >= 2 ? seen : undefined;
		});
		expect(failed!.status).toBe(500);
		expect(succeeded!.status).toBe(200);
		for (const r of [failed!, succeeded!]) {
			expect(r.signatureValid).toBe(true);
			expect(r.envelopeSignatureValid).toBe(true);
			expect(await verify(secret, r.body, r.headers["x-service-signature"]!)).toBe(true);
			expect(r.standardSignatureValid).toBe(true);
			expect(r.headers["webhook-id"]).toBe(r.headers["x-service-delivery"]);
			expect(r.headers["webhook-timestamp"]).toBe(r.headers["x-service-timestamp"]);
			expect(r.headers).toMatchObject({
				"content-type": "application/json",
				"user-agent": "Service-Webhooks/1.0",
				"x-service-event": "interview.scheduled",
				"x-service-delivery": expect.stringMatching(/^dlv_/),
				"x-service-event-id": expect.stringMatching(/^evt_/),
				"x-service-timestamp": expect.stringMatching(/^\d+$/),
			});
			const body = JSON.parse(r.body);
			expect(body).toMatchObject({
				event: "interview.scheduled",
				data: { id: interview.body.data.id, candidate_email: "lin@example.com", position: "SRE" },
				webhook: { id: webhookId, event_id: r.headers["x-service-event-id"] },
				account: { id: service.accountId },
			});
		}
		expect(succeeded!.headers["x-service-delivery"]).toBe(failed!.headers["x-service-delivery"]);
		expect(succeeded!.headers["x-service-event-id"]).toBe(failed!.headers["x-service-event-id"]);
		expect(succeeded!.receivedAt - failed!.receivedAt).toBeGreaterThanOrEqual(900);

		const log = await eventually(async () => {
			const res = await api(service, "GET", `/v1/webhooks/${webhookId}/deliveries`, {
				key: service.keys.live,
			});
			const [delivery] = res.body.data;
			return delivery?.outcome === "succeeded" ? delivery : undefined;
		});
		expect(log.id).toBe(failed!.headers["x-service-delivery"]);
		expect(
			log.attempts.map((a: { outcome: string; status_code: number }) => [a.outcome, a.status_code]),
		).toEqual([
			["failed", 500],
			["succeeded", 200],
		]);
	});

	it("sends a test event on request and answers with the attempt", async () => {
		const url = await route("e2e-test", { secret });
		const created = await api(service, "POST", "/v1/webhooks", {
			key: service.keys.live,
			body: { url, events: ["*"] },
		});
		const res = await api(service, "POST", `/v1/webhooks/${created.body.data.id}/test`, {
			key: service.keys.live,
		});
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ event: "webhook.test", outcome: "succeeded" });
		const [request] = await requestsOf("e2e-test");
		expect(request!.signatureValid).toBe(true);
		expect(request!.standardSignatureValid).toBe(true);
	});

	it("stops after six attempts and marks the delivery failed", async () => {
		const url = await route("e2e-down", { secret, fallback: "503" });
		const created = await api(service, "POST", "/v1/webhooks", {
			key: service.keys.live,
			body: { url, events: ["interview.scheduled"] },
		});
		const webhookId: string = created.body.data.id;
		await api(service, "POST", "/v1/interviews", {
			key: service.keys.live,
			body: { candidate_email: "kim@example.com", position: "QA", skills: ["Testing"] },
		});
		const delivery = await eventually(async () => {
			const res = await api(service, "GET", `/v1/webhooks/${webhookId}/deliveries`, {
				key: service.keys.live,
			});
			const [d] = res.body.data;
			return d?.outcome === "failed" ? d : undefined;
		}, 60_000);
		expect(delivery.attempt_count).toBe(6);
		expect(delivery.attempts.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
		// Give a seventh attempt time to happen if the queue were to make one.
		await new Promise((resolve) => setTimeout(resolve, 3000));
		const requests = await requestsOf("e2e-down");
		expect(requests).toHaveLength(6);
		expect(new Set(requests.map((r) => r.headers["x-service-delivery"]))).toEqual(new Set([delivery.id]));
	});

	it("delivers every event the lifecycle produces, each with the envelope, every header and a valid signature", async () => {
		const url = await route("e2e-lifecycle", { secret });
		const created = await api(service, "POST", "/v1/webhooks", {
			key: service.keys.live,
			body: { url, events: ["*"] },
		});
		const webhookId: string = created.body.data.id;
		const body = { candidate_email: "ines@example.com", position: "Analyst", skills: ["SQL"] };

		const live = await api(service, "POST", "/v1/interviews", { key: service.keys.live, body });
		const liveId: string = live.body.data.id;
		await api(service, "PATCH", `/v1/interviews/${liveId}`, {
			key: service.keys.live,
			body: {
				scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
				reschedule_reason: "Panel moved",
			},
		});
		await api(service, "DELETE", `/v1/interviews/${liveId}?reason=Filled`, { key: service.keys.live });

		const done = await api(service, "POST", "/v1/interviews", { key: service.keys.test, body });
		const advanced = await api(service, "POST", `/v1/interviews/${done.body.data.id}/test/advance`, {
			key: service.keys.test,
			body: { to: "completed" },
		});
		expect(advanced.status).toBe(200);
		const missed = await api(service, "POST", "/v1/interviews", { key: service.keys.test, body });
		await api(service, "POST", `/v1/interviews/${missed.body.data.id}/test/advance`, {
			key: service.keys.test,
			body: { to: "no_show" },
		});

		const expected = [
			"interview.scheduled",
			"interview.updated",
			"interview.rescheduled",
			"interview.cancelled",
			"credits.refunded",
			"candidate.notified",
			"candidate.joined",
			"interview.started",
			"interview.completed",
			"results.analyzed",
			"analysis.ready",
			"candidate.no_show",
		];
		const requests = await eventually(async () => {
			const seen = await requestsOf("e2e-lifecycle");
			const types = new Set(seen.map((r) => r.headers["x-service-event"]));
			return expected.every((t) => types.has(t)) ? seen : undefined;
		}, 60_000);
		for (const r of requests) {
			const event = r.headers["x-service-event"];
			expect(r.signatureValid).toBe(true);
			expect(r.envelopeSignatureValid).toBe(true);
			expect(await verify(secret, r.body, r.headers["x-service-signature"]!)).toBe(true);
			expect(r.standardSignatureValid).toBe(true);
			expect(r.headers["webhook-id"]).toBe(r.headers["x-service-delivery"]);
			expect(r.headers["webhook-timestamp"]).toBe(r.headers["x-service-timestamp"]);
			expect(r.headers).toMatchObject({
				"user-agent": "Service-Webhooks/1.0",
				"x-service-delivery": expect.stringMatching(/^dlv_/),
				"x-service-event-id": expect.stringMatching(/^evt_/),
				"x-service-timestamp": expect.stringMatching(/^\d+$/),
			});
			const envelope = JSON.parse(r.body);
			expect(envelope).toMatchObject({
				event,
				data: expect.any(Object),
				webhook: {
					id: webhookId,
					event_id: r.headers["x-service-event-id"],
					signature: expect.stringMatching(/^sha256=/),
				},
				account: { id: service.accountId, name: "Demo Company" },
			});
			expect(typeof envelope.data.test_mode).toBe("boolean");
		}
		const byType = (type: string) =>
			JSON.parse(requests.find((r) => r.headers["x-service-event"] === type)!.body).data;
		expect(byType("interview.rescheduled")).toMatchObject({ id: liveId, reason: "Panel moved" });
		expect(byType("credits.refunded")).toMatchObject({ interview_id: liveId, credits_refunded: 1 });
		expect(byType("results.analyzed")).toMatchObject({ results: { overall_score: expect.any(Number) } });
		expect(byType("candidate.no_show")).toMatchObject({ interview_id: missed.body.data.id });
	});
});
