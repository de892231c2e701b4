import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "../../src/platform/db/client";
import { disableFailingEndpoint, findEndpointById } from "../../src/webhooks/endpoints-repo";
import { call, newAccount, validInterview } from "../support/helpers";
import { createWebhook, deliveriesOf } from "../support/webhooks";

/** The test-mode flag of each event delivered to an endpoint, in order. */
async function deliveredModes(endpointId: string): Promise<{ type: string; testMode: number }[]> {
	const rows = await env.DB.prepare(
		`SELECT e.type, e.test_mode FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
		 WHERE d.endpoint_id = ? ORDER BY e.seq`,
	)
		.bind(endpointId)
		.all<{ type: string; test_mode: number }>();
	return rows.results.map((r) => ({ type: r.type, testMode: r.test_mode }));
}

describe('webhook endpoints and test keys (decisions.md, "Test keys and live data")', () => {
	it("lets a test key read a live key's endpoint but not change it, delete it, send to it or redeliver from it", async () => {
		const account = await newAccount();
		const live = await createWebhook(account.live, {
			url: "https://hooks.example.com/live",
			events: ["interview.scheduled"],
		});
		await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		const [delivery] = await deliveriesOf(live.id);
		expect(delivery).toBeDefined();

		const read = await call("GET", `/v1/webhooks/${live.id}`, { key: account.test });
		expect(read.status).toBe(200);
		expect(read.body.data).toMatchObject({ id: live.id, test_mode: false });
		const listed = await call("GET", "/v1/webhooks", { key: account.test });
		expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([live.id]);
		expect((await call("GET", `/v1/webhooks/${live.id}/deliveries`, { key: account.test })).status).toBe(200);

		const refusals = [
			call("PATCH", `/v1/webhooks/${live.id}`, {
				key: account.test,
				body: { url: "https://attacker.example.com/steal" },
			}),
			call("DELETE", `/v1/webhooks/${live.id}`, { key: account.test }),
			call("POST", `/v1/webhooks/${live.id}/test`, { key: account.test }),
			call("POST", `/v1/webhooks/${live.id}/deliveries/${delivery?.id}/redeliver`, { key: account.test }),
		];
		for (const refused of await Promise.all(refusals)) {
			expect(refused.status).toBe(409);
			expect(refused.body.error).toMatchObject({
				code: "INVALID_OPERATION",
				details: { id: live.id, test_mode: false },
			});
			expect(refused.body.error.message).toContain("registered with a live key");
		}
		const after = await call("GET", `/v1/webhooks/${live.id}`, { key: account.live });
		expect(after.body.data).toMatchObject({
			url: "https://hooks.example.com/live",
			active: true,
			updated_at: read.body.data.updated_at,
		});
		// Neither a test event nor a redelivery was made.
		expect(await deliveriesOf(live.id)).toHaveLength(1);
	});

	it("gives an endpoint registered with a test key only test-mode events, and lets both keys change it", async () => {
		const account = await newAccount();
		const live = await createWebhook(account.live, { url: "https://hooks.example.com/all", events: ["*"] });
		const made = await call("POST", "/v1/webhooks", {
			key: account.test,
			body: { url: "https://hooks.example.com/test", events: ["*"] },
		});
		expect(made.status).toBe(201);
		expect(made.body.data).toMatchObject({ test_mode: true, environment: "production" });
		const test = made.body.data as { id: string };

		await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		await call("POST", "/v1/interviews", { key: account.test, body: validInterview() });
		expect(await deliveredModes(live.id)).toEqual([
			{ type: "interview.scheduled", testMode: 0 },
			{ type: "interview.scheduled", testMode: 1 },
		]);
		expect(await deliveredModes(test.id)).toEqual([{ type: "interview.scheduled", testMode: 1 }]);

		const byTest = await call("PATCH", `/v1/webhooks/${test.id}`, {
			key: account.test,
			body: { active: false },
		});
		expect(byTest.status).toBe(200);
		const byLive = await call("PATCH", `/v1/webhooks/${test.id}`, {
			key: account.live,
			body: { active: true },
		});
		expect(byLive.status).toBe(200);
		expect(byLive.body.data).toMatchObject({ active: true, test_mode: true });
		// A live key's change does not make it a live endpoint.
		await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		expect(await deliveredModes(test.id)).toHaveLength(1);
		const removed = await call("DELETE", `/v1/webhooks/${test.id}`, { key: account.test });
		expect(removed.status).toBe(200);
	});

	it("records a test endpoint's disabling as a test-mode event, so test endpoints hear of it too", async () => {
		const account = await newAccount();
		const subscribe = { events: ["webhook.endpoint.disabled"] };
		const watcherLive = await createWebhook(account.live, {
			url: "https://hooks.example.com/wl",
			...subscribe,
		});
		const watcherTest = await createWebhook(account.test, {
			url: "https://hooks.example.com/wt",
			...subscribe,
		});
		const failing = await createWebhook(account.test, { url: "https://hooks.example.com/f", events: ["*"] });
		const liveFailing = await createWebhook(account.live, {
			url: "https://hooks.example.com/lf",
			events: ["*"],
		});
		const db = getDb(env.DB);
		for (const [endpoint, eventId] of [
			[failing, "evt_disabledtest000000000000"],
			[liveFailing, "evt_disabledlive000000000000"],
		] as const) {
			const row = await findEndpointById(db, endpoint.id);
			expect(row).toBeDefined();
			if (!row) return;
			expect(
				await disableFailingEndpoint(env.DB, row, { id: eventId, data: { webhook_id: row.id } }, Date.now()),
			).toBe(true);
		}
		expect(await deliveredModes(watcherLive.id)).toEqual([
			{ type: "webhook.endpoint.disabled", testMode: 1 },
			{ type: "webhook.endpoint.disabled", testMode: 0 },
		]);
		expect(await deliveredModes(watcherTest.id)).toEqual([
			{ type: "webhook.endpoint.disabled", testMode: 1 },
		]);
	});
});
