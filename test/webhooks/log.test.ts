import { env } from "cloudflare:workers";
import { verify } from "@octokit/webhooks-methods";
import { describe, expect, it } from "vitest";
import { getDb } from "../../src/platform/db/client";
import { findEndpoint } from "../../src/webhooks/endpoints-repo";
import { loadDelivery, redeliver } from "../../src/webhooks/service";
import { admin, call, newAccount, validInterview } from "../support/helpers";
import { receiver } from "../support/receiver-client";
import {
	createWebhook,
	deliveriesOf,
	deliveryRow,
	type PendingDelivery,
	runConsumer,
	runConsumerWith,
} from "../support/webhooks";

const rx = receiver();
const routeName = (label: string) => `log-${label}-${crypto.randomUUID().slice(0, 8)}`;
const HOUR = 3600_000;

async function createInterviews(key: string, n: number) {
	for (let i = 0; i < n; i++) {
		const res = await call("POST", "/v1/interviews", { key, body: validInterview() });
		expect(res.status).toBe(201);
	}
}

describe("webhook delivery log", () => {
	it("lists deliveries newest first with every attempt, by outcome and page", async () => {
		const account = await newAccount();
		const url = await rx.route(routeName("list"), { modes: ["500"], fallback: "ok" });
		const endpoint = await createWebhook(account.live, { url, events: ["*"] });
		await createInterviews(account.live, 4);
		const all = await deliveriesOf(endpoint.id);
		expect(all).toHaveLength(4);
		const [first, second, third] = all as PendingDelivery[];
		for (const d of [first!, second!, third!]) await runConsumer([d]);
		await runConsumer([{ ...first!, attempts: 2 }]);

		const res = await call("GET", `/v1/webhooks/${endpoint.id}/deliveries`, { key: account.live });
		expect(res.status).toBe(200);
		expect(res.body.pagination).toMatchObject({ total_count: 4, has_more: false });
		const retried = res.body.data.find((d: { id: string }) => d.id === first!.id);
		expect(retried).toMatchObject({
			webhook_id: endpoint.id,
			event: "interview.scheduled",
			event_id: first!.eventId,
			kind: "event",
			outcome: "succeeded",
			attempt_count: 2,
			last_status_code: 200,
			next_attempt_at: null,
		});
		expect(retried.attempts).toEqual([
			expect.objectContaining({
				attempt: 1,
				outcome: "failed",
				status_code: 500,
				error_type: "server_error",
				next_attempt_at: expect.any(String),
				duration_ms: expect.any(Number),
				response_body: expect.stringContaining("fault 500"),
			}),
			expect.objectContaining({ attempt: 2, outcome: "succeeded", status_code: 200, next_attempt_at: null }),
		]);

		const byOutcome = async (outcome: string) =>
			(await call("GET", `/v1/webhooks/${endpoint.id}/deliveries?outcome=${outcome}`, { key: account.live }))
				.body;
		expect((await byOutcome("succeeded")).pagination?.total_count).toBe(3);
		expect((await byOutcome("pending")).data.map((d: { id: string }) => d.id)).toEqual([all[3]!.id]);
		expect((await byOutcome("failed")).data).toEqual([]);
		const bad = await call("GET", `/v1/webhooks/${endpoint.id}/deliveries?outcome=lost`, {
			key: account.live,
		});
		expect(bad.status).toBe(400);
		expect(bad.body.error?.details).toHaveProperty("outcome");

		const seen: string[] = [];
		let cursor: string | null = null;
		for (let guard = 0; guard < 5; guard++) {
			const path: string = `/v1/webhooks/${endpoint.id}/deliveries?limit=3${cursor ? `&cursor=${cursor}` : ""}`;
			const pageRes = await call("GET", path, { key: account.live });
			seen.push(...pageRes.body.data.map((d: { id: string }) => d.id));
			cursor = pageRes.body.pagination?.next_cursor ?? null;
			if (!cursor) break;
		}
		expect(seen.sort()).toEqual(all.map((d) => d.id).sort());

		// The endpoints' list and a delivery log are different lists: neither reads the other's cursor.
		await createWebhook(account.live, { url, events: ["*"] });
		const endpointsPage = await call("GET", "/v1/webhooks?limit=1", { key: account.live });
		const endpointsCursor = endpointsPage.body.pagination?.next_cursor as string;
		expect(endpointsCursor).toEqual(expect.any(String));
		const deliveriesPage = await call("GET", `/v1/webhooks/${endpoint.id}/deliveries?limit=1`, {
			key: account.live,
		});
		const deliveriesCursor = deliveriesPage.body.pagination?.next_cursor as string;
		expect(deliveriesCursor).toEqual(expect.any(String));
		for (const path of [
			`/v1/webhooks/${endpoint.id}/deliveries?cursor=${endpointsCursor}`,
			`/v1/webhooks?cursor=${deliveriesCursor}`,
		]) {
			const crossed = await call("GET", path, { key: account.live });
			expect(crossed.status).toBe(400);
			expect(crossed.body.error?.details).toHaveProperty("cursor");
		}

		const one = await call("GET", `/v1/webhooks/${endpoint.id}/deliveries/${first!.id}`, {
			key: account.live,
		});
		expect(one.body.data).toEqual(retried);
		const missing = await call("GET", `/v1/webhooks/${endpoint.id}/deliveries/dlv_${"x".repeat(24)}`, {
			key: account.live,
		});
		expect(missing.status).toBe(404);
		expect(missing.body.error?.code).toBe("DELIVERY_NOT_FOUND");

		const view = (await call("GET", `/v1/webhooks/${endpoint.id}`, { key: account.live })).body.data;
		expect(view.failure_counts).toEqual({
			consecutive: 0,
			failing_since: null,
			total_failed_attempts: 1,
			total_succeeded_attempts: 3,
		});
		expect(view.last_delivery).toMatchObject({ outcome: "succeeded", status_code: 200 });
	});

	it("redelivers as a new delivery of the same event with its own id", async () => {
		const account = await newAccount();
		const name = routeName("redeliver");
		const endpoint = await createWebhook(account.live, { url: await rx.route(name), events: ["*"] });
		await createInterviews(account.live, 1);
		const [original] = await deliveriesOf(endpoint.id);
		await runConsumer([original!]);

		const res = await call("POST", `/v1/webhooks/${endpoint.id}/deliveries/${original!.id}/redeliver`, {
			key: account.live,
		});
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({
			id: expect.stringMatching(/^dlv_/),
			kind: "redelivery",
			redelivery_of: original!.id,
			event_id: original!.eventId,
			outcome: "pending",
			attempts: [],
		});
		const copy = res.body.data.id as string;
		expect(copy).not.toBe(original!.id);
		expect((await deliveryRow(copy))?.enqueued_at).not.toBeNull();
		await runConsumer([{ id: copy, endpointId: endpoint.id, eventId: original!.eventId, attemptCount: 0 }]);
		const requests = await rx.requests(name);
		expect(requests.map((r) => r.headers["x-service-delivery"])).toEqual([original!.id, copy]);
		expect(new Set(requests.map((r) => r.headers["x-service-event-id"]))).toEqual(
			new Set([original!.eventId]),
		);

		await call("PATCH", `/v1/webhooks/${endpoint.id}`, { key: account.live, body: { active: false } });
		const refused = await call("POST", `/v1/webhooks/${endpoint.id}/deliveries/${original!.id}/redeliver`, {
			key: account.live,
		});
		expect(refused.status).toBe(409);
		expect(refused.body.error?.code).toBe("INVALID_OPERATION");
	});

	it("refuses to redeliver an event no longer kept, and cancels a redelivery the queue would not take", async () => {
		const account = await newAccount();
		const endpoint = await createWebhook(account.live, {
			url: await rx.route(routeName("gone")),
			events: ["*"],
		});
		await createInterviews(account.live, 1);
		const [original] = await deliveriesOf(endpoint.id);
		const path = `/v1/webhooks/${endpoint.id}/deliveries/${original!.id}/redeliver`;

		// The queue refuses: 503, and the new delivery is settled rather than left pending.
		const db = getDb(env.DB);
		const row = await findEndpoint(db, { accountId: account.id, environment: "production" }, endpoint.id);
		const failing = {
			...env,
			WEBHOOK_QUEUE: {
				send: async () => {
					throw new Error("queue unavailable");
				},
				sendBatch: async () => {
					throw new Error("queue unavailable");
				},
			},
		} as unknown as Env;
		const delivery = await loadDelivery(env, row!, original!.id);
		const refusal = await redeliver(failing, row!, delivery, Date.now()).catch((e: unknown) => e);
		expect(refusal).toMatchObject({
			code: "SERVICE_UNAVAILABLE",
			status: 503,
			headers: { "Retry-After": "1" },
		});
		const listed = await call("GET", `/v1/webhooks/${endpoint.id}/deliveries?limit=100`, {
			key: account.live,
		});
		const copy = listed.body.data.find((d: any) => d.kind === "redelivery");
		expect(copy).toMatchObject({ outcome: "cancelled", redelivery_of: original!.id });

		await env.DB.prepare("DELETE FROM events WHERE id = ?").bind(original!.eventId).run();
		const gone = await call("POST", path, { key: account.live });
		expect([gone.status, gone.body.error?.code]).toEqual([409, "INVALID_OPERATION"]);
		expect(gone.body.error?.details).toEqual({ event_id: original!.eventId });
	});

	it("sends a signed test event at once and reports the attempt", async () => {
		const account = await newAccount();
		const name = routeName("test-event");
		const url = await rx.route(name, { secret: account.webhookSecret, modes: ["ok", "503"] });
		const endpoint = await createWebhook(account.live, {
			url,
			events: ["interview.cancelled"],
			active: false,
		});

		const res = await call("POST", `/v1/webhooks/${endpoint.id}/test`, { key: account.live });
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({
			kind: "test",
			event: "webhook.test",
			outcome: "succeeded",
			attempt_count: 1,
			attempts: [expect.objectContaining({ attempt: 1, outcome: "succeeded", status_code: 200 })],
		});
		const [request] = await rx.requests(name);
		expect(request!.signatureValid).toBe(true);
		expect(request!.envelopeSignatureValid).toBe(true);
		expect(await verify(account.webhookSecret, request!.body, request!.headers["x-service-signature"]!)).toBe(
			true,
		);
		expect(request!.headers["x-service-event"]).toBe("webhook.test");
		expect(request!.headers["x-service-delivery"]).toBe(res.body.data.id);
		expect(JSON.parse(request!.body)).toMatchObject({
			event: "webhook.test",
			data: { webhook_id: endpoint.id },
			webhook: { id: endpoint.id, event_id: res.body.data.event_id },
			account: { id: account.id },
		});

		const failed = await call("POST", `/v1/webhooks/${endpoint.id}/test`, { key: account.live });
		expect(failed.body.data).toMatchObject({
			outcome: "failed",
			next_attempt_at: null,
			attempts: [
				expect.objectContaining({ outcome: "failed", status_code: 503, error_type: "server_error" }),
			],
		});
		const view = (await call("GET", `/v1/webhooks/${endpoint.id}`, { key: account.live })).body.data;
		expect(view.failure_counts.consecutive).toBe(0);
		const listed = await call("GET", `/v1/webhooks/${endpoint.id}/deliveries`, { key: account.live });
		expect(listed.body.data).toHaveLength(2);
	});

	it("refuses to let a dev or test key rotate the account's secret, which signs live deliveries", async () => {
		const account = await newAccount();
		const refused = await call("POST", "/v1/webhooks/secret/rotate", { key: account.dev });
		expect(refused.status).toBe(403);
		expect(refused.body.error).toMatchObject({
			code: "INSUFFICIENT_PERMISSIONS",
			details: {
				required_permission: "webhooks:write",
				key_environment: "dev",
				required_key_environment: "live",
			},
		});
		// Refused with the scope, before the body is looked at (decisions.md: scope, then validation).
		for (const body of [
			{ rawBody: "x", headers: { "Content-Type": "text/plain" } },
			{ body: { extra: 1 } },
		]) {
			const early = await call("POST", "/v1/webhooks/secret/rotate", { key: account.dev, ...body });
			expect(early.status).toBe(403);
			expect(early.body.error?.details).toMatchObject({ key_environment: "dev" });
		}
		expect((await admin("GET", `/accounts/${account.id}`)).body.data.webhook_secret).toBe(
			account.webhookSecret,
		);
		// A test key changes only test data (decisions.md): refused the same way, nothing rotated.
		const byTest = await call("POST", "/v1/webhooks/secret/rotate", { key: account.test });
		expect(byTest.status).toBe(403);
		expect(byTest.body.error).toMatchObject({
			code: "INSUFFICIENT_PERMISSIONS",
			details: {
				required_permission: "webhooks:write",
				key_environment: "test",
				required_key_environment: "live",
			},
		});
		expect((await admin("GET", `/accounts/${account.id}`)).body.data.webhook_secret).toBe(
			account.webhookSecret,
		);
		const rotated = await call("POST", "/v1/webhooks/secret/rotate", { key: account.live });
		expect(rotated.status).toBe(200);
	});

	it("rotates the secret and signs with the previous one for 24 hours", async () => {
		const account = await newAccount();
		const rotated = await call("POST", "/v1/webhooks/secret/rotate", { key: account.live });
		expect(rotated.status).toBe(200);
		const secret: string = rotated.body.data.webhook_secret;
		expect(secret).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
		expect(secret).not.toBe(account.webhookSecret);
		expect(
			Date.parse(rotated.body.data.previous_secret_expires_at) - Date.parse(rotated.body.data.rotated_at),
		).toBe(24 * HOUR);
		expect((await admin("GET", `/accounts/${account.id}`)).body.data.webhook_secret).toBe(secret);

		const name = routeName("rotation");
		const url = await rx.route(name, { secret, previousSecret: account.webhookSecret });
		const endpoint = await createWebhook(account.live, { url, events: ["*"] });
		await createInterviews(account.live, 2);
		const [early, late] = await deliveriesOf(endpoint.id);
		await runConsumer([early!]);
		const rotatedAt = Date.parse(rotated.body.data.rotated_at);
		await runConsumerWith([late!], { clock: () => rotatedAt + 24 * HOUR + 1000 });

		const [during, after] = await rx.requests(name);
		expect(during!.signatureValid).toBe(true);
		expect(during!.previousSignatureValid).toBe(true);
		// Standard Webhooks: one `v1,` signature per secret, each verifying with the library alone.
		expect(during!.standardSignatureValid).toBe(true);
		expect(during!.standardPreviousValid).toBe(true);
		expect(during!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
		expect(
			await verify(account.webhookSecret, during!.body, during!.headers["x-service-signature-previous"]!),
		).toBe(true);
		expect(await verify(account.webhookSecret, during!.body, during!.headers["x-service-signature"]!)).toBe(
			false,
		);
		expect(after!.signatureValid).toBe(true);
		expect(after!.headers["x-service-signature-previous"]).toBeUndefined();
		expect(after!.headers["webhook-signature"]!.split(" ")).toHaveLength(1);

		// A second rotation: the previous secret is now the one it replaced, not the original.
		const again = await call("POST", "/v1/webhooks/secret/rotate", { key: account.live, body: {} });
		expect(again.status).toBe(200);
		const secondName = routeName("rotation-2");
		const second = await createWebhook(account.live, {
			url: await rx.route(secondName, { secret: again.body.data.webhook_secret, previousSecret: secret }),
			events: ["*"],
		});
		await createInterviews(account.live, 1);
		const [next] = await deliveriesOf(second.id);
		await runConsumer([next!]);
		const [latest] = await rx.requests(secondName);
		expect(latest!.signatureValid).toBe(true);
		expect(latest!.previousSignatureValid).toBe(true);
		expect(
			await verify(account.webhookSecret, latest!.body, latest!.headers["x-service-signature-previous"]!),
		).toBe(false);
	});
});

describe("automatic disabling", () => {
	it("disables an endpoint failing for three days, emits webhook.endpoint.disabled and stops its deliveries", async () => {
		const account = await newAccount();
		const failingName = routeName("failing");
		const watcherName = routeName("watcher");
		const failing = await createWebhook(account.live, {
			url: await rx.route(failingName, { fallback: "500" }),
			events: ["*"],
		});
		const watcher = await createWebhook(account.live, {
			url: await rx.route(watcherName, { secret: account.webhookSecret }),
			events: ["webhook.endpoint.disabled"],
		});
		await createInterviews(account.live, 3);
		const [a, b, c] = await deliveriesOf(failing.id);
		const t0 = Date.now();
		for (let attempt = 1; attempt <= 5; attempt++) {
			await runConsumerWith([{ ...a!, attempts: attempt }], { clock: () => t0 + attempt * 60_000 });
		}
		for (let attempt = 1; attempt <= 4; attempt++) {
			await runConsumerWith([{ ...b!, attempts: attempt }], {
				clock: () => t0 + 73 * HOUR + attempt * 60_000,
			});
		}
		let view = (await call("GET", `/v1/webhooks/${failing.id}`, { key: account.live })).body.data;
		expect(view).toMatchObject({ active: true, failure_counts: { consecutive: 9 } });
		expect(await deliveriesOf(watcher.id)).toEqual([]);

		await runConsumerWith([{ ...b!, attempts: 5 }], { clock: () => t0 + 74 * HOUR });
		view = (await call("GET", `/v1/webhooks/${failing.id}`, { key: account.live })).body.data;
		expect(view).toMatchObject({
			active: false,
			disabled_reason: "failing",
			failure_counts: { consecutive: 10, total_failed_attempts: 10 },
		});
		expect(Date.parse(view.disabled_at) - (t0 + 74 * HOUR)).toBeGreaterThanOrEqual(0);
		expect(Date.parse(view.disabled_at) - (t0 + 74 * HOUR)).toBeLessThan(5000);
		expect(Date.parse(view.failure_counts.failing_since) - (t0 + 60_000)).toBeLessThan(5000);

		const events = await env.DB.prepare("SELECT id, data FROM events WHERE account_id = ? AND type = ?")
			.bind(account.id, "webhook.endpoint.disabled")
			.all<{ id: string; data: string }>();
		expect(events.results).toHaveLength(1);
		expect(JSON.parse(events.results[0]!.data)).toMatchObject({
			webhook_id: failing.id,
			reason: "failing",
			consecutive_failures: 10,
			disabled_at: view.disabled_at,
		});

		const [notice] = await deliveriesOf(watcher.id);
		expect(notice?.eventId).toBe(events.results[0]!.id);
		await runConsumer([notice!]);
		const [received] = await rx.requests(watcherName);
		expect(received!.signatureValid).toBe(true);
		expect(JSON.parse(received!.body)).toMatchObject({
			event: "webhook.endpoint.disabled",
			data: { webhook_id: failing.id, url: failing.url },
		});

		const cancelled = await runConsumer([{ ...a!, attempts: 6 }, { ...b!, attempts: 6 }, c!]);
		expect(cancelled.result.explicitAcks).toHaveLength(3);
		for (const d of [a!, b!, c!]) expect((await deliveryRow(d.id))?.outcome).toBe("cancelled");
		expect(await rx.requests(failingName)).toHaveLength(10);
		expect(await deliveriesOf(failing.id, "pending")).toEqual([]);

		const enabled = await call("PATCH", `/v1/webhooks/${failing.id}`, {
			key: account.live,
			body: { active: true },
		});
		expect(enabled.body.data).toMatchObject({
			active: true,
			disabled_reason: null,
			disabled_at: null,
			failure_counts: { consecutive: 0, failing_since: null, total_failed_attempts: 10 },
		});
	});
});
