import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { EventRecord } from "../../src/events/events-repo";
import { MAX_ATTEMPTS } from "../../src/webhooks/backoff";
import { publishEvents } from "../../src/webhooks/publish";
import { call, newAccount, validInterview } from "../support/helpers";
import { receiver } from "../support/receiver-client";
import { attemptsOf, createWebhook, deliveriesOf, drainOnce, runConsumer } from "../support/webhooks";

const rx = receiver();
const EVENTS = 200;

async function accountEvents(accountId: string): Promise<EventRecord[]> {
	const rows = await env.DB.prepare("SELECT * FROM events WHERE account_id = ? ORDER BY seq")
		.bind(accountId)
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

describe("webhook delivery under a receiver failing 30% of requests", () => {
	it("delivers every one of 200 events at least once and logs every attempt", {
		timeout: 120_000,
	}, async () => {
		const account = await newAccount();
		const name = `load-${crypto.randomUUID().slice(0, 8)}`;
		const url = await rx.route(name, {
			secret: account.webhookSecret,
			fallback: "random",
			failRate: 0.3,
			seed: 5,
		});
		const endpoint = await createWebhook(account.live, { url, events: ["interview.scheduled"] });

		for (let i = 0; i < EVENTS; i += 10) {
			const created = await Promise.all(
				Array.from({ length: 10 }, (_, j) =>
					call("POST", "/v1/interviews", {
						key: account.test,
						body: validInterview({ candidate_email: `c${i + j}@example.com` }),
					}),
				),
			);
			expect(created.map((r) => r.status)).toEqual(Array(10).fill(201));
		}
		const events = await accountEvents(account.id);
		expect(events).toHaveLength(EVENTS);
		// An outbox retry publishes the same events again: no second delivery.
		await publishEvents(env, events);
		const deliveries = await deliveriesOf(endpoint.id);
		expect(deliveries).toHaveLength(EVENTS);
		expect(new Set(deliveries.map((d) => d.eventId))).toEqual(new Set(events.map((e) => e.id)));

		// At-least-once queues: some messages arrive twice at the same moment.
		await runConsumer([...deliveries.slice(0, 5), ...deliveries.slice(0, 5)]);
		for (let round = 0; round < MAX_ATTEMPTS; round++) {
			if ((await drainOnce(endpoint.id)) === 0) break;
		}
		expect(await deliveriesOf(endpoint.id, "pending")).toEqual([]);

		// Whatever failed six times is in the log as failed, and a redelivery gets it through. Six
		// failures in a row are rare at 30 %, so when none failed the first delivery is redelivered:
		// the path is taken either way.
		const failed = await deliveriesOf(endpoint.id, "failed");
		for (const d of failed) expect(d.attemptCount).toBe(MAX_ATTEMPTS);
		const redelivered = failed.length > 0 ? failed : [deliveries[0]!];
		const copies = new Map<string, string>();
		for (const d of redelivered) {
			const res = await call("POST", `/v1/webhooks/${endpoint.id}/deliveries/${d.id}/redeliver`, {
				key: account.live,
			});
			expect(res.status).toBe(200);
			copies.set(res.body.data.id, d.eventId);
		}
		for (let round = 0; round < MAX_ATTEMPTS; round++) {
			if ((await drainOnce(endpoint.id)) === 0) break;
		}

		const requests = await rx.requests(name);
		expect(requests.length).toBeGreaterThan(EVENTS);
		const deliveryOfEvent = new Map(deliveries.map((d) => [d.eventId, d.id]));
		const eventOfDelivery = new Map<string, string>();
		const delivered = new Set<string>();
		for (const r of requests) {
			expect(r.signatureValid).toBe(true);
			expect(r.envelopeSignatureValid).toBe(true);
			const eventId = r.headers["x-service-event-id"]!;
			const deliveryId = r.headers["x-service-delivery"]!;
			expect(JSON.parse(r.body).webhook.event_id).toBe(eventId);
			// Every request of one delivery (retries and duplicates) names the same event.
			expect(eventOfDelivery.get(deliveryId) ?? eventId).toBe(eventId);
			eventOfDelivery.set(deliveryId, eventId);
			if (!redelivered.some((f) => f.eventId === eventId))
				expect(deliveryId).toBe(deliveryOfEvent.get(eventId));
			if (r.status === 200) delivered.add(eventId);
		}
		expect(delivered).toEqual(new Set(events.map((e) => e.id)));
		// Each redelivery reached the receiver under its own id, for its event, and got through.
		for (const [copy, eventId] of copies) {
			const seen = requests.filter((r) => r.headers["x-service-delivery"] === copy);
			expect(seen.length, copy).toBeGreaterThan(0);
			expect(seen.every((r) => r.headers["x-service-event-id"] === eventId)).toBe(true);
			expect(seen.some((r) => r.status === 200)).toBe(true);
		}

		// The log accounts for every request the receiver saw, with the answer it gave.
		const log = await attemptsOf(endpoint.id);
		expect(log).toHaveLength(requests.length);
		const tally = (items: { id: string; ok: boolean }[]) => {
			const counts = new Map<string, string>();
			for (const { id, ok } of items) {
				const [s, f] = (counts.get(id) ?? "0/0").split("/").map(Number);
				counts.set(id, ok ? `${s! + 1}/${f}` : `${s}/${f! + 1}`);
			}
			return counts;
		};
		expect(tally(log.map((a) => ({ id: a.delivery_id, ok: a.outcome === "succeeded" })))).toEqual(
			tally(requests.map((r) => ({ id: r.headers["x-service-delivery"]!, ok: r.status === 200 }))),
		);
		expect(log.filter((a) => a.outcome === "failed").every((a) => a.status_code === 500)).toBe(true);
	});
});
