import { env } from "cloudflare:workers";
import { verify } from "@octokit/webhooks-methods";
import { describe, expect, it } from "vitest";
import type { EventRecord } from "../../src/events/events-repo";
import { consumeWebhookBatch } from "../../src/webhooks/consumer";
import { publishEvents } from "../../src/webhooks/publish";
import { call, newAccount, validInterview } from "../support/helpers";
import { receiver } from "../support/receiver-client";
import { attemptsOf, createWebhook, deliveriesOf, deliveryRow, runConsumer } from "../support/webhooks";

const rx = receiver();
let routeCount = 0;
const routeName = (label: string) => `delivery-${label}-${++routeCount}-${crypto.randomUUID().slice(0, 8)}`;

async function interviewEvents(interviewId: string): Promise<EventRecord[]> {
	const rows = await env.DB.prepare("SELECT * FROM events WHERE interview_id = ? ORDER BY seq")
		.bind(interviewId)
		.all<Record<string, any>>();
	return rows.results.map((r) => ({
		id: r.id,
		accountId: r.account_id,
		environment: r.environment,
		type: r.type,
		interviewId: r.interview_id,
		testMode: r.test_mode === 1,
		data: JSON.parse(r.data),
		createdAt: r.created_at,
	}));
}

async function createInterview(key: string) {
	const res = await call("POST", "/v1/interviews", { key, body: validInterview({ candidate_name: "Ada" }) });
	expect(res.status).toBe(201);
	return res.body.data as { id: string; scheduled_at: string };
}

describe("webhook delivery of lifecycle events", () => {
	it("posts a signed interview.scheduled envelope with every header of the contract", async () => {
		const account = await newAccount({ company_name: "Signed Co" });
		const name = routeName("signed");
		const url = await rx.route(name, { secret: account.webhookSecret });
		const endpoint = await createWebhook(account.live, { url, events: ["interview.scheduled"] });
		const interview = await createInterview(account.live);
		const [event] = await interviewEvents(interview.id);
		expect(event?.type).toBe("interview.scheduled");

		const [delivery] = await deliveriesOf(endpoint.id);
		expect(delivery).toMatchObject({ id: expect.stringMatching(/^dlv_[0-9A-F]{24}$/), eventId: event!.id });
		expect((await deliveryRow(delivery!.id))?.enqueued_at).not.toBeNull();

		const { result, messageIds } = await runConsumer([delivery!]);
		expect(result.explicitAcks).toEqual(messageIds);
		expect(result.retryMessages).toEqual([]);

		const [request, ...more] = await rx.requests(name);
		expect(more).toEqual([]);
		expect(request!.method).toBe("POST");
		expect(request!.headers).toMatchObject({
			"content-type": "application/json",
			"user-agent": "Service-Webhooks/1.0",
			"x-service-event": "interview.scheduled",
			"x-service-event-id": event!.id,
			"x-service-delivery": delivery!.id,
			"x-service-signature": expect.stringMatching(/^sha256=[0-9a-f]{64}$/),
			"x-service-timestamp": expect.stringMatching(/^\d{10}$/),
			"webhook-id": delivery!.id,
			"webhook-timestamp": request!.headers["x-service-timestamp"],
			"webhook-signature": expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
		});
		expect(request!.headers["x-service-signature-previous"]).toBeUndefined();
		// The Standard Webhooks scheme, checked with the standardwebhooks library only.
		expect(request!.standardSignatureValid).toBe(true);
		// Two independent verifications: node's crypto in the receiver, and @octokit/webhooks-methods.
		expect(request!.signatureValid).toBe(true);
		expect(request!.envelopeSignatureValid).toBe(true);
		expect(await verify(account.webhookSecret, request!.body, request!.headers["x-service-signature"]!)).toBe(
			true,
		);

		const body = JSON.parse(request!.body);
		expect(body).toEqual({
			event: "interview.scheduled",
			data: event!.data,
			webhook: {
				id: endpoint.id,
				event_id: event!.id,
				timestamp: expect.any(String),
				signature: expect.stringMatching(/^sha256=[0-9a-f]{64}$/),
			},
			account: { id: account.id, name: "Signed Co" },
		});
		expect(body.data).toMatchObject({
			id: interview.id,
			candidate_email: "ada@example.com",
			position: "Backend Engineer",
			scheduled_at: interview.scheduled_at,
		});
		expect(Math.floor(Date.parse(body.webhook.timestamp) / 1000)).toBe(
			Number(request!.headers["x-service-timestamp"]),
		);
		const emptied = request!.body.replace(`"signature":"${body.webhook.signature}"`, '"signature":""');
		expect(await verify(account.webhookSecret, emptied, body.webhook.signature)).toBe(true);

		const log = await attemptsOf(endpoint.id);
		expect(log).toMatchObject([
			{ delivery_id: delivery!.id, attempt: 1, outcome: "succeeded", status_code: 200 },
		]);
		expect((await deliveryRow(delivery!.id))?.outcome).toBe("succeeded");
	});

	it("fans out only to active endpoints of the event's account and environment that subscribe to it", async () => {
		const account = await newAccount();
		const other = await newAccount();
		const url = await rx.route(routeName("fanout"));
		const all = await createWebhook(account.live, { url, events: ["*"] });
		const scheduled = await createWebhook(account.live, { url, events: ["interview.scheduled"] });
		const cancelledOnly = await createWebhook(account.live, { url, events: ["interview.cancelled"] });
		const inactive = await createWebhook(account.live, { url, events: ["*"], active: false });
		const devEndpoint = await createWebhook(account.dev, { url, events: ["*"] });
		const foreign = await createWebhook(other.live, { url, events: ["*"] });

		await createInterview(account.live);
		await createInterview(account.test);
		const count = async (id: string) => (await deliveriesOf(id)).length;
		expect(await count(all.id)).toBe(2);
		expect(await count(scheduled.id)).toBe(2);
		expect(await count(cancelledOnly.id)).toBe(0);
		expect(await count(inactive.id)).toBe(0);
		expect(await count(devEndpoint.id)).toBe(0);
		expect(await count(foreign.id)).toBe(0);

		await createInterview(account.dev);
		expect(await count(devEndpoint.id)).toBe(1);
		expect(await count(all.id)).toBe(2);
	});

	it("makes no second delivery when the same events are published again", async () => {
		const account = await newAccount();
		const endpoint = await createWebhook(account.live, {
			url: await rx.route(routeName("again")),
			events: ["*"],
		});
		const interview = await createInterview(account.live);
		const events = await interviewEvents(interview.id);
		await publishEvents(env, events);
		await publishEvents(env, events);
		const deliveries = await deliveriesOf(endpoint.id);
		expect(deliveries).toHaveLength(1);
		expect(deliveries[0]!.eventId).toBe(events[0]!.id);
	});

	it("records a bulk's deliveries in multi-row statements, exactly one per event and endpoint", async () => {
		const account = await newAccount();
		const url = await rx.route(routeName("bulk"));
		const endpoints = await Promise.all(
			[1, 2, 3].map(() => createWebhook(account.live, { url, events: ["*"] })),
		);
		const bulk = await call("POST", "/v1/interviews/bulk", {
			key: account.live,
			body: {
				interviews: Array.from({ length: 7 }, (_, i) =>
					validInterview({ candidate_email: `b${i}@example.com` }),
				),
			},
		});
		expect(bulk.status).toBe(200);
		const ids: string[] = bulk.body.data.successful.map((s: { interview: { id: string } }) => s.interview.id);
		const events = (await Promise.all(ids.map(interviewEvents))).flat();
		expect(events).toHaveLength(7);
		// 21 deliveries, recorded with the events and sent once each, also when published again.
		await publishEvents(env, events);
		const expected = events.map((e) => e.id).sort();
		for (const endpoint of endpoints) {
			const deliveries = await deliveriesOf(endpoint.id);
			expect(deliveries.map((d) => d.eventId).sort()).toEqual(expected);
			for (const d of deliveries) expect((await deliveryRow(d.id))?.enqueued_at).not.toBeNull();
		}
	});

	it("keeps a delivery recorded but unsent when the queue fails, and sends it on the next publish", async () => {
		const account = await newAccount();
		const endpoint = await createWebhook(account.live, {
			url: await rx.route(routeName("repair")),
			events: ["*"],
		});
		const interview = await createInterview(account.live);
		const events = await interviewEvents(interview.id);
		const [recorded] = await deliveriesOf(endpoint.id);
		// As if the sender had failed between recording the event and sending its delivery.
		await env.DB.prepare("UPDATE webhook_deliveries SET enqueued_at = NULL WHERE id = ?")
			.bind(recorded!.id)
			.run();
		const brokenQueue = {
			send: async () => {
				throw new Error("queue unavailable");
			},
			sendBatch: async () => {
				throw new Error("queue unavailable");
			},
		} as unknown as Queue;
		await expect(publishEvents({ ...env, WEBHOOK_QUEUE: brokenQueue }, events)).rejects.toThrow(
			"queue unavailable",
		);
		expect((await deliveryRow(recorded!.id))?.enqueued_at).toBeNull();

		await publishEvents(env, events);
		const after = await deliveriesOf(endpoint.id);
		expect(after.map((d) => d.id)).toEqual([recorded!.id]);
		expect((await deliveryRow(recorded!.id))?.enqueued_at).not.toBeNull();
	});

	it("never sends an event to an endpoint created, enabled or subscribed after it, however often it is published", async () => {
		const account = await newAccount();
		const url = await rx.route(routeName("later"));
		const before = await createWebhook(account.live, { url, events: ["*"] });
		const narrow = await createWebhook(account.live, { url, events: ["interview.completed"] });
		const off = await createWebhook(account.live, { url, events: ["*"], active: false });
		const interview = await createInterview(account.live);
		const events = await interviewEvents(interview.id);
		expect(events.map((e) => e.type)).toEqual(["interview.scheduled"]);

		const created = await createWebhook(account.live, { url, events: ["*"] });
		for (const [id, body] of [
			[narrow.id, { events: ["*"] }],
			[off.id, { active: true }],
		] as const) {
			const res = await call("PATCH", `/v1/webhooks/${id}`, { key: account.live, body });
			expect(res.status).toBe(200);
		}
		// The interview's object adopts its creation on first use and publishes what it owes again.
		expect((await call("GET", `/v1/interviews/${interview.id}`, { key: account.live })).status).toBe(200);
		await publishEvents(env, events);
		const count = async (id: string) => (await deliveriesOf(id)).length;
		expect(await count(before.id)).toBe(1);
		for (const later of [created.id, narrow.id, off.id]) expect(await count(later)).toBe(0);

		// What happens from now on reaches all four.
		const cancelled = await call("DELETE", `/v1/interviews/${interview.id}`, { key: account.live });
		expect(cancelled.status).toBe(200);
		const all = (await interviewEvents(interview.id)).map((e) => e.id);
		const since = all.slice(1);
		expect(since.length).toBeGreaterThan(0);
		const eventsOf = async (id: string) => (await deliveriesOf(id)).map((d) => d.eventId).sort();
		expect(await eventsOf(before.id)).toEqual([...all].sort());
		for (const id of [created.id, narrow.id, off.id]) expect(await eventsOf(id)).toEqual([...since].sort());
	});

	it("makes each attempt once when two messages carry the same delivery, however its attempts go", async () => {
		const account = await newAccount();
		const name = routeName("twice");
		const endpoint = await createWebhook(account.live, {
			url: await rx.route(name, { fallback: "500" }),
			events: ["*"],
		});
		await createInterview(account.live);
		const [delivery] = await deliveriesOf(endpoint.id);
		// Both copies arrive together, then again at each retry.
		for (const attempt of [1, 2, 3]) {
			await runConsumer([
				{ ...delivery!, attempts: attempt },
				{ ...delivery!, attempts: attempt },
			]);
		}
		expect(await rx.requests(name)).toHaveLength(3);
		expect((await attemptsOf(endpoint.id)).map((a) => a.attempt)).toEqual([1, 2, 3]);
		expect((await deliveryRow(delivery!.id))?.attempt_count).toBe(3);
	});

	it("sends nothing more for a duplicate message of a settled delivery", async () => {
		const account = await newAccount();
		const name = routeName("dup");
		const endpoint = await createWebhook(account.live, { url: await rx.route(name), events: ["*"] });
		await createInterview(account.live);
		const [delivery] = await deliveriesOf(endpoint.id);
		await runConsumer([delivery!]);
		const { result, messageIds } = await runConsumer([{ ...delivery!, attempts: 1 }]);
		expect(result.explicitAcks).toEqual(messageIds);
		expect(await rx.requests(name)).toHaveLength(1);
		expect(await attemptsOf(endpoint.id)).toHaveLength(1);
	});

	it("cancels pending deliveries of a disabled endpoint and drops those of a deleted one", async () => {
		const account = await newAccount();
		const name = routeName("gone");
		const url = await rx.route(name);
		const disabled = await createWebhook(account.live, { url, events: ["*"] });
		const deleted = await createWebhook(account.live, { url, events: ["*"] });
		await createInterview(account.live);
		const [toDisabled] = await deliveriesOf(disabled.id);
		const [toDeleted] = await deliveriesOf(deleted.id);
		await call("PATCH", `/v1/webhooks/${disabled.id}`, { key: account.live, body: { active: false } });
		await call("DELETE", `/v1/webhooks/${deleted.id}`, { key: account.live });

		const { result, messageIds } = await runConsumer([toDisabled!, toDeleted!]);
		expect(result.explicitAcks.sort()).toEqual([...messageIds].sort());
		expect(await rx.requests(name)).toEqual([]);
		expect((await deliveryRow(toDisabled!.id))?.outcome).toBe("cancelled");
		expect(await deliveryRow(toDeleted!.id)).toBeNull();
	});

	it("checks the URL again at delivery and refuses a development URL in production", async () => {
		const account = await newAccount();
		const name = routeName("recheck");
		const endpoint = await createWebhook(account.live, { url: await rx.route(name), events: ["*"] });
		await createInterview(account.live);
		const [delivery] = await deliveriesOf(endpoint.id);
		const { createMessageBatch } = await import("cloudflare:test");
		const batch = createMessageBatch("interview-webhooks", [
			{
				id: "m1",
				timestamp: new Date(),
				attempts: 1,
				body: { v: 1, delivery_id: delivery!.id, endpoint_id: endpoint.id, event_id: delivery!.eventId },
			},
		]);
		await consumeWebhookBatch(batch, env, { environment: "production" });
		expect(await rx.requests(name)).toEqual([]);
		expect(await attemptsOf(endpoint.id)).toMatchObject([
			{ attempt: 1, outcome: "failed", error_type: "url_refused", status_code: null },
		]);
		expect((await deliveryRow(delivery!.id))?.outcome).toBe("pending");
	});
});
