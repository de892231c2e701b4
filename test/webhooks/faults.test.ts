import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ATTEMPTS_IN_FLIGHT } from "../../src/webhooks/consumer";
import { call, newAccount, validInterview } from "../support/helpers";
import { receiver } from "../support/receiver-client";
import type { Mode } from "../support/webhook-receiver";
import {
	attemptsOf,
	createWebhook,
	deliveriesOf,
	deliveryRow,
	type PendingDelivery,
	runConsumer,
	runConsumerWith,
} from "../support/webhooks";

const rx = receiver();
const DEFAULT_DELAYS = [60, 300, 1800, 7200, 43200];
const routeName = (label: string) => `faults-${label}-${crypto.randomUUID().slice(0, 8)}`;

/** An account, an endpoint on a fresh receiver route, and one pending delivery to it. */
async function setup(label: string, config: Parameters<typeof rx.route>[1]) {
	const account = await newAccount();
	const name = routeName(label);
	const url = await rx.route(name, { secret: account.webhookSecret, ...config });
	const endpoint = await createWebhook(account.live, { url, events: ["interview.scheduled"] });
	const created = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
	expect(created.status).toBe(201);
	const [delivery] = await deliveriesOf(endpoint.id);
	return { account, name, endpoint, delivery: delivery as PendingDelivery };
}

const FAULTS: { mode: Mode; errorType: string; statusCode: number | null }[] = [
	{ mode: "500", errorType: "server_error", statusCode: 500 },
	{ mode: "503", errorType: "server_error", statusCode: 503 },
	{ mode: "404", errorType: "client_error", statusCode: 404 },
	{ mode: "410", errorType: "client_error", statusCode: 410 },
	{ mode: "hang", errorType: "timeout", statusCode: null },
	{ mode: "reset", errorType: "connection_error", statusCode: null },
	{ mode: "redirect", errorType: "redirect", statusCode: 302 },
];

describe("webhook fault matrix", () => {
	it.each(FAULTS)(
		"logs a receiver answering $mode as $errorType, retries on schedule and delivers once it recovers",
		async ({ mode, errorType, statusCode }) => {
			const { name, endpoint, delivery } = await setup(mode, { modes: [mode, mode], fallback: "ok" });

			for (const attempt of [1, 2]) {
				const { result, messageIds } = await runConsumer([{ ...delivery, attempts: attempt }]);
				expect(result.explicitAcks).toEqual([]);
				// The queue helpers do not expose delaySeconds; the log's next_attempt_at (same value) does.
				expect(result.retryMessages.map((m) => m.msgId)).toEqual(messageIds);
			}
			const { result } = await runConsumer([{ ...delivery, attempts: 3 }]);
			expect(result.retryMessages).toEqual([]);
			expect(result.explicitAcks).toHaveLength(1);

			const log = await attemptsOf(endpoint.id);
			expect(log.map((a) => [a.attempt, a.outcome, a.error_type, a.status_code])).toEqual([
				[1, "failed", errorType, statusCode],
				[2, "failed", errorType, statusCode],
				[3, "succeeded", null, 200],
			]);
			for (const [i, a] of log.slice(0, 2).entries()) {
				expect(a.next_attempt_at).toBe(a.attempted_at + a.duration_ms + DEFAULT_DELAYS[i]! * 1000);
			}
			expect(log[2]!.next_attempt_at).toBeNull();
			expect(await deliveryRow(delivery.id)).toMatchObject({ outcome: "succeeded", attempt_count: 3 });

			const requests = await rx.requests(name);
			expect(requests.map((r) => r.answered)).toEqual([mode, mode, "ok"]);
			for (const r of requests) {
				expect(r.headers["x-service-delivery"]).toBe(delivery.id);
				expect(r.headers["x-service-event-id"]).toBe(delivery.eventId);
				expect(r.signatureValid).toBe(true);
			}
			if (mode === "redirect") {
				expect((await rx.trapped()).filter((t) => t.path.endsWith(name))).toEqual([]);
			}
			if (mode === "hang") {
				expect(log[0]!.duration_ms).toBeGreaterThanOrEqual(1000);
				expect(log[0]!.duration_ms).toBeLessThan(5000);
			}
		},
	);

	it("fails the delivery after the sixth attempt and hands the message to the dead-letter queue", async () => {
		const { endpoint, delivery } = await setup("always", { fallback: "500" });
		for (const attempt of [1, 2, 3, 4, 5]) {
			const { result, messageIds } = await runConsumer([{ ...delivery, attempts: attempt }]);
			expect(result.retryMessages.map((m) => m.msgId)).toEqual(messageIds);
			expect((await deliveryRow(delivery.id))?.outcome).toBe("pending");
		}
		const scheduled = (await attemptsOf(endpoint.id)).map(
			(a) => a.next_attempt_at! - a.attempted_at - a.duration_ms,
		);
		expect(scheduled).toEqual(DEFAULT_DELAYS.map((s) => s * 1000));
		const last = await runConsumer([{ ...delivery, attempts: 6 }]);
		// Retried past max_retries = 5: the queue moves it to interview-webhooks-dlq.
		expect(last.result.retryMessages).toEqual([{ msgId: last.messageIds[0] }]);
		expect(last.result.explicitAcks).toEqual([]);
		expect(await deliveryRow(delivery.id)).toMatchObject({
			outcome: "failed",
			attempt_count: 6,
			next_attempt_at: null,
		});
		expect((await attemptsOf(endpoint.id)).map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);

		const dead = await runConsumer([{ ...delivery, attempts: 1 }], { queue: "interview-webhooks-dlq" });
		expect(dead.result.explicitAcks).toEqual(dead.messageIds);
		expect((await deliveryRow(delivery.id))?.outcome).toBe("failed");
	});

	it("settles a delivery whose message was dead-lettered while still pending", async () => {
		const { name, delivery } = await setup("stuck", {});
		const dead = await runConsumer([{ ...delivery, attempts: 1 }], { queue: "interview-webhooks-dlq" });
		expect(dead.result.explicitAcks).toEqual(dead.messageIds);
		expect(await deliveryRow(delivery.id)).toMatchObject({ outcome: "failed" });
		expect(await rx.requests(name)).toEqual([]);
	});

	it("takes the retry delays from WEBHOOK_RETRY_DELAYS", async () => {
		const { endpoint, delivery } = await setup("custom", { fallback: "503" });
		const custom = { ...env, WEBHOOK_RETRY_DELAYS: "1,2,3,4,5" };
		for (const attempt of [1, 2, 3, 4, 5]) {
			const { result } = await runConsumer([{ ...delivery, attempts: attempt }], { env: custom });
			expect(result.retryMessages).toHaveLength(1);
		}
		const scheduled = (await attemptsOf(endpoint.id)).map(
			(a) => a.next_attempt_at! - a.attempted_at - a.duration_ms,
		);
		expect(scheduled).toEqual([1000, 2000, 3000, 4000, 5000]);
	});

	it("never follows a redirect, not even to another local port", async () => {
		const { name, delivery } = await setup("redirect-only", { fallback: "redirect" });
		await runConsumer([{ ...delivery, attempts: 1 }]);
		const [request] = await rx.requests(name);
		expect(request?.status).toBe(302);
		expect((await rx.trapped()).filter((t) => t.path.endsWith(name))).toEqual([]);
	});
});

describe("attempts of one batch", () => {
	it(`keep at most ${ATTEMPTS_IN_FLIGHT} requests in flight, so that no attempt spends its timeout waiting for a connection`, async () => {
		const account = await newAccount();
		const name = routeName("in-flight");
		const url = await rx.route(name, { secret: account.webhookSecret, fallback: "hang" });
		const endpoint = await createWebhook(account.live, { url, events: ["interview.scheduled"] });
		const count = ATTEMPTS_IN_FLIGHT * 2;
		const created = await call("POST", "/v1/interviews/bulk", {
			key: account.live,
			body: { interviews: Array.from({ length: count }, () => validInterview()) },
		});
		expect(created.status).toBe(200);
		const deliveries = await deliveriesOf(endpoint.id);
		expect(deliveries).toHaveLength(count);
		const timeoutMs = 600;
		await runConsumerWith(deliveries, { timeoutMs });
		const arrivals = (await rx.requests(name)).map((r) => r.receivedAt).sort((a, b) => a - b);
		expect(arrivals).toHaveLength(count);
		// The first lane-full hangs until its timeout; only then do the others start.
		const first = arrivals[0] as number;
		expect(arrivals.filter((t) => t < first + timeoutMs / 2)).toHaveLength(ATTEMPTS_IN_FLIGHT);
		expect(arrivals[ATTEMPTS_IN_FLIGHT] as number).toBeGreaterThanOrEqual(first + timeoutMs - 50);
		const log = await attemptsOf(endpoint.id);
		expect(log).toHaveLength(count);
		expect(log.every((a) => a.error_type === "timeout")).toBe(true);
	});
});
