import {
	createExecutionContext,
	createMessageBatch,
	createScheduledController,
	getQueueResult,
	runInDurableObject,
	waitOnExecutionContext,
} from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DEV_DATA_TTL_MS } from "../../src/accounts/sweeps";
import { interviewStub } from "../../src/interviews/stub";
import { UNSETTLED_AFTER_MS } from "../../src/interviews/sweeps";
import { runHousekeeping } from "../../src/scheduled";
import type { DeliveryMessage } from "../../src/webhooks/message";
import { resendAfterMs, resendDueDeliveries } from "../../src/webhooks/resend";
import { DELIVERY_ABANDONED_MS, TEST_DELIVERY_ABANDONED_MS } from "../../src/webhooks/sweeps";
import worker from "../../src/worker";
import { BASE, call, newAccount } from "../support/helpers";
import { createInterview, startInterview, stubOf } from "../support/lifecycle-helpers";
import { countRows } from "../support/limits-helpers";
import { receiver } from "../support/receiver-client";
import { createWebhook, deliveriesOf, deliveryRow, runConsumer } from "../support/webhooks";

const DAY = 24 * 3_600_000;

async function storedTables(id: string): Promise<{ tables: string[]; alarm: number | null }> {
	return runInDurableObject(stubOf(id), async (_instance, state) => ({
		tables: state.storage.sql
			.exec<{ name: string }>(
				"SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('interview', 'outbox', 'timers')",
			)
			.toArray()
			.map((r) => r.name),
		alarm: await state.storage.getAlarm(),
	}));
}

async function d1RowsOf(id: string) {
	return {
		interviews: await countRows("SELECT count(*) AS n FROM interviews WHERE id = ?", id),
		events: await countRows("SELECT count(*) AS n FROM events WHERE interview_id = ?", id),
	};
}

describe("the dev-data purge", () => {
	it("deletes dev interviews older than 7 days: projection, events and the object's storage and alarm", async () => {
		const account = await newAccount();
		const dev = await createInterview(account.dev, {
			scheduled_at: new Date(Date.now() + 3 * DAY).toISOString(),
		});
		const live = await createInterview(account.live);
		expect(await d1RowsOf(dev.id)).toEqual({ interviews: 1, events: 1 });
		// Opened, so that it has storage and an alarm to delete.
		expect((await call("GET", `/v1/interviews/${dev.id}`, { key: account.dev })).status).toBe(200);
		expect((await storedTables(dev.id)).alarm).not.toBeNull();

		await runHousekeeping(env, Date.now() + DEV_DATA_TTL_MS + 60_000);

		expect(await d1RowsOf(dev.id)).toEqual({ interviews: 0, events: 0 });
		expect(await storedTables(dev.id)).toEqual({ tables: [], alarm: null });
		expect(await interviewStub(env, dev.id).get()).toBeNull();
		expect((await call("GET", `/v1/interviews/${dev.id}`, { key: account.dev })).status).toBe(404);
		expect((await call("GET", "/v1/interviews", { key: account.dev })).body.pagination?.total_count).toBe(0);
		expect(await d1RowsOf(live.id)).toEqual({ interviews: 1, events: 1 });
		expect((await call("GET", `/v1/interviews/${live.id}`, { key: account.live })).status).toBe(200);
	});

	it("deletes a purged dev interview's recording, and dev deliveries and endpoint events older than 7 days", async () => {
		const account = await newAccount();
		const dev = await startInterview(account.dev);
		const live = await startInterview(account.live);
		for (const interview of [dev, live]) {
			const upload = await exports.default.fetch(
				`${BASE}/interview/${interview.id}/recordings?token=${interview.token}&chunk=0`,
				{ method: "POST", headers: { "Content-Type": "audio/webm" }, body: new Uint8Array([1, 2]) },
			);
			expect(upload.status).toBe(201);
		}
		const old = Date.now() - 1_000;
		const suffix = account.id.slice(4, 20);
		const endpoints = { dev: `wh_dev${suffix}00`, prod: `wh_prd${suffix}00` };
		const statements = [];
		for (const [environment, id] of [
			["dev", endpoints.dev],
			["production", endpoints.prod],
		] as const) {
			statements.push(
				env.DB.prepare(
					`INSERT INTO webhook_endpoints (id, account_id, environment, url, events, active, created_at, updated_at)
					 VALUES (?, ?, ?, 'https://hooks.example.com/x', '["*"]', 1, ?, ?)`,
				).bind(id, account.id, environment, old, old),
				env.DB.prepare(
					`INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event_id, event_type, kind, outcome, created_at, updated_at)
					 VALUES (?, ?, ?, 'evt_x', 'interview.scheduled', 'event', 'succeeded', ?, ?)`,
				).bind(`dlv_${id}`, account.id, id, old, old),
				env.DB.prepare(
					`INSERT INTO webhook_attempts (delivery_id, endpoint_id, attempt, url, attempted_at, duration_ms, outcome)
					 VALUES (?, ?, 1, 'https://hooks.example.com/x', ?, 5, 'succeeded')`,
				).bind(`dlv_${id}`, id, old),
				env.DB.prepare(
					`INSERT INTO events (id, account_id, environment, type, interview_id, test_mode, data, created_at)
					 VALUES (?, ?, ?, 'webhook.endpoint.disabled', NULL, 0, '{}', ?)`,
				).bind(`evt_${id.slice(3)}`, account.id, environment, old),
			);
		}
		await env.DB.batch(statements);

		const report = await runHousekeeping(env, Date.now() + DEV_DATA_TTL_MS + 60_000);
		expect(report.devLeftoversPurged).toBeGreaterThanOrEqual(2);
		const keys = async (id: string) =>
			(await env.RECORDINGS.list({ prefix: `recordings/${id}/` })).objects.map((o) => o.key);
		expect(await keys(dev.id)).toEqual([]);
		expect(await keys(live.id)).toHaveLength(1);
		const rows = (table: string, column: string, value: string) =>
			countRows(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`, value);
		expect(await rows("webhook_deliveries", "endpoint_id", endpoints.dev)).toBe(0);
		expect(await rows("webhook_attempts", "endpoint_id", endpoints.dev)).toBe(0);
		expect(await rows("events", "id", `evt_${endpoints.dev.slice(3)}`)).toBe(0);
		// The one inserted above and the one the endpoint event recorded for its endpoint.
		expect(await rows("webhook_deliveries", "endpoint_id", endpoints.prod)).toBe(2);
		expect(await rows("webhook_attempts", "endpoint_id", endpoints.prod)).toBe(1);
		expect(await rows("events", "id", `evt_${endpoints.prod.slice(3)}`)).toBe(1);
	});

	it("deletes a dev interview whose object was never opened, seed included, for good", async () => {
		const account = await newAccount();
		const dev = await createInterview(account.dev);
		expect(await countRows("SELECT count(*) AS n FROM interview_seeds WHERE id = ?", dev.id)).toBe(1);

		await runHousekeeping(env, Date.now() + DEV_DATA_TTL_MS + 60_000);

		expect(await d1RowsOf(dev.id)).toEqual({ interviews: 0, events: 0 });
		expect(await countRows("SELECT count(*) AS n FROM interview_seeds WHERE id = ?", dev.id)).toBe(0);
		expect((await call("GET", `/v1/interviews/${dev.id}`, { key: account.dev })).status).toBe(404);
		expect(await storedTables(dev.id)).toEqual({ tables: [], alarm: null });
	});

	it("keeps dev interviews younger than 7 days", async () => {
		const account = await newAccount();
		const dev = await createInterview(account.dev);
		await runHousekeeping(env, Date.now() + DEV_DATA_TTL_MS - 60_000);
		expect(await d1RowsOf(dev.id)).toEqual({ interviews: 1, events: 1 });
		expect((await call("GET", `/v1/interviews/${dev.id}`, { key: account.dev })).status).toBe(200);
	});

	it("runs from the Worker's cron trigger", async () => {
		const account = await newAccount();
		const dev = await createInterview(account.dev);
		const controller = createScheduledController({
			scheduledTime: Date.now() + DEV_DATA_TTL_MS + 60_000,
			cron: "*/15 * * * *",
		});
		const ctx = createExecutionContext();
		await worker.scheduled(controller, env, ctx);
		await waitOnExecutionContext(ctx);
		expect(await d1RowsOf(dev.id)).toEqual({ interviews: 0, events: 0 });
	});

	it("purges more interviews than one batch holds, keeping every statement within D1's limits", async () => {
		const account = await newAccount();
		const createdAt = Date.now() - DEV_DATA_TTL_MS - DAY;
		const ids = Array.from(
			{ length: 60 },
			(_, i) => `int_purge${String(i).padStart(2, "0")}${account.id.slice(4, 17)}`,
		);
		await env.DB.batch(
			ids.map((id) =>
				env.DB.prepare(
					`INSERT INTO interviews (id, account_id, environment, test_mode, status, candidate_email,
					 candidate_email_lower, position, skills, difficulty, duration_minutes, scheduled_at,
					 created_at, updated_at, version)
					 VALUES (?, ?, 'dev', 1, 'scheduled', 'a@example.com', 'a@example.com', 'P', '["SQL"]',
					 'junior', 30, ?, ?, ?, 1)`,
				).bind(id, account.id, createdAt, createdAt, createdAt),
			),
		);
		const report = await runHousekeeping(env, Date.now());
		expect(report.devInterviewsPurged).toBeGreaterThanOrEqual(60);
		expect(
			await countRows(
				"SELECT count(*) AS n FROM interviews WHERE account_id = ? AND environment = 'dev'",
				account.id,
			),
		).toBe(0);
	}, 30_000);
});

describe("the orphan-admission sweep", () => {
	it("gives back the credit and monthly count of an admission whose interview was never created, once", async () => {
		const account = await newAccount({ credits: 5 });
		const orphan = await createInterview(account.live);
		const kept = await createInterview(account.live);
		const before = (await call("GET", "/v1/account/profile", { key: account.live })).body.data;
		expect([before.credits_balance, before.usage.monthly_interviews_used]).toEqual([3, 2]);
		// The state a failed creation leaves when giving the admission back failed too: the
		// admission without its interview (no projection row, no seed).
		await env.DB.batch([
			env.DB.prepare("DELETE FROM interviews WHERE id = ?").bind(orphan.id),
			env.DB.prepare("DELETE FROM interview_seeds WHERE id = ?").bind(orphan.id),
			env.DB.prepare("UPDATE monthly_interview_usage SET created_at = ? WHERE interview_id IN (?, ?)").bind(
				Date.now() - 20 * 60_000,
				orphan.id,
				kept.id,
			),
			env.DB.prepare("DELETE FROM sweep_marks"),
		]);
		const report = await runHousekeeping(env, Date.now());
		expect(report.orphanAdmissionsReleased).toBe(1);
		const after = (await call("GET", "/v1/account/profile", { key: account.live })).body.data;
		expect([after.credits_balance, after.usage.monthly_interviews_used]).toEqual([4, 1]);
		expect(
			await countRows("SELECT count(*) AS n FROM monthly_interview_usage WHERE interview_id = ?", kept.id),
		).toBe(1);
		// The mark moved: the next run looks at nothing twice.
		expect((await runHousekeeping(env, Date.now())).orphanAdmissionsReleased).toBe(0);
	});

	it("leaves an admission younger than ten minutes alone: its creation may still be running", async () => {
		const account = await newAccount({ credits: 5 });
		const young = await createInterview(account.live);
		await env.DB.batch([
			env.DB.prepare("DELETE FROM interviews WHERE id = ?").bind(young.id),
			env.DB.prepare("DELETE FROM sweep_marks"),
		]);
		expect((await runHousekeeping(env, Date.now())).orphanAdmissionsReleased).toBe(0);
		expect(
			await countRows("SELECT count(*) AS n FROM monthly_interview_usage WHERE interview_id = ?", young.id),
		).toBe(1);
		// Once it is old enough, a later run finds it.
		expect((await runHousekeeping(env, Date.now() + 11 * 60_000)).orphanAdmissionsReleased).toBe(1);
	});
});

describe("the resend of deliveries recorded and never sent", () => {
	// There is no separate sweep for these (it once waited 15 minutes): a delivery recorded and
	// never handed to the queue is pending, due and untouched, so the resend of due deliveries
	// (`DELIVERY_RESEND_AFTER_S`) hands it over.
	it("sends deliveries recorded long ago and never sent, and leaves recent ones to their sender", async () => {
		const account = await newAccount();
		const endpoint = await createWebhook(account.live, {
			url: "http://127.0.0.1:9/unsent",
			events: ["interview.scheduled"],
		});
		await createInterview(account.live);
		await createInterview(account.live);
		const [old, recent] = await deliveriesOf(endpoint.id);
		const now = Date.now();
		// As if their senders had failed between recording the events and sending: as recorded.
		await env.DB.prepare(
			`UPDATE webhook_deliveries SET enqueued_at = NULL, outcome = 'pending', attempt_count = 0,
			 next_attempt_at = NULL, completed_at = NULL,
			 created_at = CASE id WHEN ?1 THEN ?2 ELSE ?3 END, updated_at = CASE id WHEN ?1 THEN ?2 ELSE ?3 END
			 WHERE endpoint_id = ?4`,
		)
			.bind(old!.id, now - resendAfterMs(env) - 60_000, now - 60_000, endpoint.id)
			.run();

		const report = await runHousekeeping(env, now);
		expect(report.dueDeliveriesResent).toBeGreaterThanOrEqual(1);
		expect((await deliveryRow(old!.id))?.enqueued_at).toBe(now);
		expect((await deliveryRow(recent!.id))?.enqueued_at).toBeNull();
		// Sent once per period: the next run within it finds nothing more of this endpoint's.
		await runHousekeeping(env, now + 60_000);
		expect((await deliveryRow(old!.id))?.enqueued_at).toBe(now);
	});

	it("never resends a test event, even one whose outcome could not be recorded", async () => {
		const account = await newAccount();
		const endpoint = await createWebhook(account.live, {
			url: "http://127.0.0.1:9/test-event",
			events: ["*"],
		});
		const sent = await call("POST", `/v1/webhooks/${endpoint.id}/test`, { key: account.live });
		expect(sent.status).toBe(200);
		const id = sent.body.data.id as string;
		const now = Date.now();
		// As if the request had stopped before recording its attempt: pending, long ago, and
		// even as if never handed over.
		const long = now - resendAfterMs(env) - 60_000;
		await env.DB.prepare(
			"UPDATE webhook_deliveries SET outcome = 'pending', enqueued_at = NULL, created_at = ?1, updated_at = ?1 WHERE id = ?2",
		)
			.bind(long, id)
			.run();
		await runHousekeeping(env, now);
		const row = await deliveryRow(id);
		expect(row?.enqueued_at).toBeNull();
		expect(row?.updated_at).toBe(long);
		expect(row?.attempt_count).toBe(1);
	});
});

describe("the resend of due deliveries (the recorded row is the source of truth)", () => {
	const rx = receiver();

	/** An env whose webhook queue records what it is handed, for the consumer to be run on it. */
	function recordingQueue(vars: Record<string, string> = {}) {
		const sent: DeliveryMessage[] = [];
		const queue = {
			send: async (body: DeliveryMessage) => {
				sent.push(body);
			},
			sendBatch: async (messages: Iterable<{ body: DeliveryMessage }>) => {
				for (const m of messages) sent.push(m.body);
			},
		};
		return { env: { ...env, ...vars, WEBHOOK_QUEUE: queue } as unknown as Env, sent };
	}

	it("hands over again, under the same id, a delivery due and untouched for two minutes, once per period, until it is final", async () => {
		const account = await newAccount();
		const url = await rx.route("resend-due");
		const endpoint = await createWebhook(account.live, { url, events: ["interview.scheduled"] });
		for (let i = 0; i < 3; i++) await createInterview(account.live);
		const [lost, waiting, recent] = await deliveriesOf(endpoint.id);
		const now = Date.now();
		// As after a kill -9: recorded, handed to a queue that lost the message, never attempted.
		const set = (id: string, updatedAt: number, nextAttemptAt: number | null) =>
			env.DB.prepare(
				"UPDATE webhook_deliveries SET outcome = 'pending', attempt_count = 0, enqueued_at = ?1, updated_at = ?1, next_attempt_at = ?2, completed_at = NULL WHERE id = ?3",
			)
				.bind(updatedAt, nextAttemptAt, id)
				.run();
		await set(lost!.id, now - 5 * 60_000, null);
		await set(waiting!.id, now - 5 * 60_000, now + 10 * 60_000); // its retry is not due yet
		await set(recent!.id, now - 30_000, null); // handed over half a minute ago

		// A longer setting leaves it alone.
		const patient = recordingQueue({ DELIVERY_RESEND_AFTER_S: "600" });
		expect(await resendDueDeliveries(patient.env, now)).toBe(0);

		const first = recordingQueue();
		await resendDueDeliveries(first.env, now);
		const mine = (q: { sent: DeliveryMessage[] }) =>
			q.sent.filter((m) => m.endpoint_id === endpoint.id).map((m) => m.delivery_id);
		expect(mine(first)).toEqual([lost!.id]);
		expect(await deliveryRow(lost!.id)).toMatchObject({
			outcome: "pending",
			updated_at: now,
			enqueued_at: now,
		});
		expect((await deliveryRow(waiting!.id))?.updated_at).toBe(now - 5 * 60_000);

		// Not again within the period; again after it, if still untouched.
		const soon = recordingQueue();
		await resendDueDeliveries(soon.env, now + 60_000);
		expect(mine(soon)).toEqual([]);
		const later = recordingQueue();
		await resendDueDeliveries(later.env, now + 121_000);
		// The one handed over half a minute before `now` is now untouched for long enough too.
		expect(mine(later).sort()).toEqual([lost!.id, recent!.id].sort());

		// The message handed over is delivered: attempted, final, and the receiver sees the same id.
		await runConsumer([{ ...lost!, attemptCount: 0 }]);
		expect(await deliveryRow(lost!.id)).toMatchObject({ outcome: "succeeded", attempt_count: 1 });
		const received = await rx.requests("resend-due");
		expect(received.map((r) => r.headers["x-service-delivery"])).toContain(lost!.id);
		// Final: nothing more to hand over for it.
		const after = recordingQueue();
		await resendDueDeliveries(after.env, now + 10 * 60_000);
		expect(mine(after)).not.toContain(lost!.id);
	});

	it("numbers a handed-over message's attempts after those already made, so an attempt cut off by a kill is made again", async () => {
		const account = await newAccount();
		const url = await rx.route("resend-attempted");
		const endpoint = await createWebhook(account.live, { url, events: ["interview.scheduled"] });
		await createInterview(account.live);
		const [cut] = await deliveriesOf(endpoint.id);
		const now = Date.now();
		// Attempt 1 was claimed, and the process died before its outcome was recorded.
		await env.DB.prepare(
			"UPDATE webhook_deliveries SET outcome = 'pending', attempt_count = 1, enqueued_at = ?1, updated_at = ?1, next_attempt_at = NULL, completed_at = NULL WHERE id = ?2",
		)
			.bind(now - 5 * 60_000, cut!.id)
			.run();
		const q = recordingQueue();
		await resendDueDeliveries(q.env, now);
		const message = q.sent.find((m) => m.delivery_id === cut!.id);
		expect(message).toMatchObject({ delivery_id: cut!.id, base: 1 });
		// The queue's first delivery of that message is attempt 2, not a duplicate of attempt 1.
		const batch = createMessageBatch("interview-webhooks", [
			{ id: "resent-1", timestamp: new Date(), attempts: 1, body: message },
		]);
		await worker.queue(batch, env);
		await getQueueResult(batch, createExecutionContext());
		expect(await deliveryRow(cut!.id)).toMatchObject({ outcome: "succeeded", attempt_count: 2 });
	});

	it("reads DELIVERY_RESEND_AFTER_S as whole seconds from 10 to a day, else two minutes", () => {
		expect(resendAfterMs({})).toBe(120_000);
		expect(resendAfterMs({ DELIVERY_RESEND_AFTER_S: "30" })).toBe(30_000);
		expect(resendAfterMs({ DELIVERY_RESEND_AFTER_S: "5" })).toBe(120_000);
		expect(resendAfterMs({ DELIVERY_RESEND_AFTER_S: "2m" })).toBe(120_000);
		expect(resendAfterMs({ DELIVERY_RESEND_AFTER_S: "100000" })).toBe(120_000);
	});

	it("runs in the housekeeping run", async () => {
		const account = await newAccount();
		const endpoint = await createWebhook(account.live, {
			url: "http://127.0.0.1:9/resend-run",
			events: ["interview.scheduled"],
		});
		await createInterview(account.live);
		const [lost] = await deliveriesOf(endpoint.id);
		const now = Date.now();
		await env.DB.prepare(
			"UPDATE webhook_deliveries SET outcome = 'pending', attempt_count = 0, enqueued_at = ?1, updated_at = ?1, next_attempt_at = NULL WHERE id = ?2",
		)
			.bind(now - 5 * 60_000, lost!.id)
			.run();
		const report = await runHousekeeping(env, now);
		expect(report.dueDeliveriesResent).toBeGreaterThanOrEqual(1);
		expect((await deliveryRow(lost!.id))?.updated_at).not.toBe(now - 5 * 60_000);
	});
});

describe("abandoned webhook deliveries", () => {
	it("fails a pending delivery nothing will attempt again, and leaves one still waiting for its retry", async () => {
		const account = await newAccount();
		const endpoint = await createWebhook(account.live, {
			url: "http://127.0.0.1:9/abandoned",
			events: ["interview.scheduled"],
		});
		await createInterview(account.live);
		await createInterview(account.live);
		const [lost, waiting] = await deliveriesOf(endpoint.id);
		const test = await call("POST", `/v1/webhooks/${endpoint.id}/test`, { key: account.live });
		const now = Date.now();
		const age = (id: string, ms: number) =>
			env.DB.prepare(
				"UPDATE webhook_deliveries SET outcome = 'pending', enqueued_at = ?1, updated_at = ?1 WHERE id = ?2",
			)
				.bind(now - ms, id)
				.run();
		// Its message lost a day ago; one waiting 12 hours for its retry; a test event left pending.
		await age(lost!.id, DELIVERY_ABANDONED_MS + 60_000);
		await age(waiting!.id, 12 * 3_600_000);
		await age(test.body.data.id, TEST_DELIVERY_ABANDONED_MS + 60_000);

		const report = await runHousekeeping(env, now);
		expect(report.deliveriesAbandoned).toBeGreaterThanOrEqual(2);
		expect(await deliveryRow(lost!.id)).toMatchObject({ outcome: "failed", completed_at: now });
		expect((await deliveryRow(waiting!.id))?.outcome).toBe("pending");
		expect((await deliveryRow(test.body.data.id))?.outcome).toBe("failed");
	});
});

describe("the sweep of creations that were not settled", () => {
	it("opens a recent seed whose invitation was never recorded, which sends it, and leaves settled ones alone", async () => {
		const account = await newAccount();
		const later = new Date(Date.now() + 3 * DAY).toISOString();
		const lost = await createInterview(account.live, { scheduled_at: later });
		const settled = await createInterview(account.live, { scheduled_at: later });
		const now = Date.now();
		// As if the Worker had stopped after the batch: no e-mail recorded, the seed still there.
		await env.DB.prepare("DELETE FROM candidate_emails WHERE interview_id = ?").bind(lost.id).run();
		await env.DB.prepare("UPDATE interview_seeds SET created_at = ? WHERE id IN (?, ?)")
			.bind(now - UNSETTLED_AFTER_MS - 60_000, lost.id, settled.id)
			.run();
		const seeds = () =>
			countRows("SELECT count(*) AS n FROM interview_seeds WHERE id IN (?, ?)", lost.id, settled.id);
		expect(await seeds()).toBe(2);

		const report = await runHousekeeping(env, now);
		expect(report.unsettledSeedsWoken).toBeGreaterThanOrEqual(1);
		const invitations = await countRows(
			"SELECT count(*) AS n FROM candidate_emails WHERE interview_id = ? AND template = 'invitation'",
			lost.id,
		);
		expect(invitations).toBe(1);
		// The settled one stays a seed: its object is not opened before its time.
		expect(await countRows("SELECT count(*) AS n FROM interview_seeds WHERE id = ?", settled.id)).toBe(1);
		expect(await countRows("SELECT count(*) AS n FROM interview_seeds WHERE id = ?", lost.id)).toBe(0);
	});

	it("finds a seed whose invitation was never recorded though a later change recorded its own notice", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.live, {
			scheduled_at: new Date(Date.now() + 3 * DAY).toISOString(),
		});
		const moved = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { scheduled_at: new Date(Date.now() + 4 * DAY).toISOString() },
		});
		expect(moved.status).toBe(200);
		const now = Date.now();
		// As if the creation's Worker had stopped after its batch: the update's notice is recorded,
		// the invitation is not.
		await env.DB.prepare("DELETE FROM candidate_emails WHERE interview_id = ? AND template = 'invitation'")
			.bind(id)
			.run();
		await env.DB.prepare("UPDATE interview_seeds SET created_at = ? WHERE id = ?")
			.bind(now - UNSETTLED_AFTER_MS - 60_000, id)
			.run();

		const report = await runHousekeeping(env, now);
		expect(report.unsettledSeedsWoken).toBeGreaterThanOrEqual(1);
		const templates = await env.DB.prepare(
			"SELECT template FROM candidate_emails WHERE interview_id = ? ORDER BY template",
		)
			.bind(id)
			.all<{ template: string }>();
		expect(templates.results.map((row) => row.template)).toEqual(["invitation", "update"]);
		expect(await countRows("SELECT count(*) AS n FROM interview_seeds WHERE id = ?", id)).toBe(0);
	});

	it("wakes a full run's worth of them: a hundred ids are marked within D1's bound parameters", async () => {
		const account = await newAccount({ credits: 200 });
		const later = new Date(Date.now() + 3 * DAY).toISOString();
		const bulk = await call("POST", "/v1/interviews/bulk", {
			key: account.live,
			body: {
				interviews: Array.from({ length: 100 }, (_, i) => ({
					candidate_email: `c${i}@example.com`,
					position: "Engineer",
					skills: ["SQL"],
					scheduled_at: later,
				})),
			},
		});
		expect(bulk.body.data.summary.successful_count).toBe(100);
		const now = Date.now();
		await env.DB.prepare("DELETE FROM candidate_emails WHERE account_id = ?").bind(account.id).run();
		await env.DB.prepare(
			"UPDATE interview_seeds SET created_at = ? WHERE id IN (SELECT id FROM interviews WHERE account_id = ?)",
		)
			.bind(now - UNSETTLED_AFTER_MS - 60_000, account.id)
			.run();
		const report = await runHousekeeping(env, now);
		expect(report.unsettledSeedsWoken).toBeGreaterThanOrEqual(100);
		expect(
			await countRows(
				"SELECT count(*) AS n FROM candidate_emails WHERE account_id = ? AND template = 'invitation'",
				account.id,
			),
		).toBe(100);
	}, 20_000);
});
