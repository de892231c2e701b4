import {
	createExecutionContext,
	createMessageBatch,
	getQueueResult,
	runDurableObjectAlarm,
	runInDurableObject,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { purgeOldEvents } from "../../../src/events/retention";
import { NO_SHOW_AFTER_MS } from "../../../src/interviews/core/state-machine";
import {
	handleWakeBatch,
	WAKE_HORIZON_MS,
	WAKE_LEAD_MS,
	WAKE_QUEUE_NAME,
} from "../../../src/interviews/creation/wake";
import { markSeedsDue, seedsOwingWake, seedsWaking } from "../../../src/interviews/db/seeds-repo";
import { SEED_CLAIM_LEASE_MS, sweepOverdueSeeds, sweepUpcomingWakes } from "../../../src/interviews/sweeps";
import { getDb } from "../../../src/platform/db/client";
import { call, newAccount, validInterview, withTableRenamed } from "../../support/helpers";
import { countRows, profile } from "../../support/limits-helpers";
import { createWebhook, deliveriesOf, deliveryRow } from "../../support/webhooks";

const HOUR = 60 * 60_000;

function stubOf(id: string) {
	return env.INTERVIEW.get(env.INTERVIEW.idFromName(id));
}

/** What the interview's object holds: its state row (if adopted) and its alarm. */
async function objectHolds(id: string): Promise<{ adopted: boolean; alarm: number | null }> {
	return runInDurableObject(stubOf(id), async (_instance, state) => ({
		// An object that holds no interview has no tables at all.
		adopted:
			state.storage.sql
				.exec<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'interview'")
				.one().n === 1 &&
			state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM interview").one().n === 1,
		alarm: await state.storage.getAlarm(),
	}));
}

async function seedOf(id: string): Promise<{ wake_at: number } | null> {
	return env.DB.prepare("SELECT wake_at FROM interview_seeds WHERE id = ?")
		.bind(id)
		.first<{ wake_at: number }>();
}

async function create(key: string, overrides: Record<string, unknown> = {}) {
	const res = await call("POST", "/v1/interviews", { key, body: validInterview(overrides) });
	expect(res.status).toBe(201);
	return res.body.data as { id: string; scheduled_at: string; position: string };
}

async function wakeBatch(id: string, wakeAt: number, now: number) {
	const batch = createMessageBatch(WAKE_QUEUE_NAME, [
		{
			id: `msg-${id}`,
			timestamp: new Date(),
			attempts: 1,
			body: { kind: "wake_interview", id, wake_at: wakeAt },
		},
	]);
	const ctx = createExecutionContext();
	await handleWakeBatch(batch, env, now);
	return getQueueResult(batch, ctx);
}

describe("deferred creation: an interview is a seed in D1 until its object is first used", () => {
	it("is listed and has its event at once, without opening its object; the first fetch adopts the seed", async () => {
		const account = await newAccount();
		const scheduledAt = Date.now() + 2 * HOUR;
		const created = await create(account.live, { scheduled_at: new Date(scheduledAt).toISOString() });

		expect((await seedOf(created.id))?.wake_at).toBe(scheduledAt + NO_SHOW_AFTER_MS);
		expect(await countRows("SELECT count(*) AS n FROM interviews WHERE id = ?", created.id)).toBe(1);
		expect(
			await countRows(
				"SELECT count(*) AS n FROM events WHERE interview_id = ? AND type = 'interview.scheduled'",
				created.id,
			),
		).toBe(1);
		const listed = await call("GET", "/v1/interviews", { key: account.live });
		expect(listed.body.data.map((i: { id: string }) => i.id)).toEqual([created.id]);
		expect(await objectHolds(created.id)).toEqual({ adopted: false, alarm: null });

		const fetched = await call("GET", `/v1/interviews/${created.id}`, { key: account.live });
		expect(fetched.status).toBe(200);
		expect(fetched.body.data).toMatchObject({
			id: created.id,
			status: "scheduled",
			position: created.position,
		});
		expect(await seedOf(created.id)).toBeNull();
		const held = await objectHolds(created.id);
		expect(held.adopted).toBe(true);
		// The replay is written; the alarm waits for the no-show timer.
		expect(held.alarm).toBe(scheduledAt + NO_SHOW_AFTER_MS);
		// Replaying creation's outbox wrote nothing twice.
		expect(await countRows("SELECT count(*) AS n FROM events WHERE interview_id = ?", created.id)).toBe(1);
	});

	it("moves the object's alarm with every timer change, and only then", async () => {
		const account = await newAccount();
		const first = Date.now() + 2 * HOUR;
		const created = await create(account.live, { scheduled_at: new Date(first).toISOString() });
		await call("GET", `/v1/interviews/${created.id}`, { key: account.live });
		expect((await objectHolds(created.id)).alarm).toBe(first + NO_SHOW_AFTER_MS);
		// A change that sets no timer leaves the alarm where it is.
		const renamed = await call("PATCH", `/v1/interviews/${created.id}`, {
			key: account.live,
			body: { position: "Staff Engineer" },
		});
		expect(renamed.status).toBe(200);
		expect((await objectHolds(created.id)).alarm).toBe(first + NO_SHOW_AFTER_MS);
		for (const hours of [5, 3]) {
			const at = Date.now() + hours * HOUR;
			const moved = await call("PATCH", `/v1/interviews/${created.id}`, {
				key: account.live,
				body: { scheduled_at: new Date(at).toISOString() },
			});
			expect(moved.status).toBe(200);
			expect((await objectHolds(created.id)).alarm).toBe(at + NO_SHOW_AFTER_MS);
		}
	});

	it("another account's key does not adopt or see the seed", async () => {
		const owner = await newAccount();
		const other = await newAccount();
		const created = await create(owner.live);
		expect((await call("GET", `/v1/interviews/${created.id}`, { key: other.live })).status).toBe(404);
		expect((await call("DELETE", `/v1/interviews/${created.id}`, { key: other.live })).status).toBe(404);
		expect((await call("GET", `/v1/interviews/${created.id}`, { key: owner.live })).body.data.status).toBe(
			"scheduled",
		);
	});

	it("parallel commands on an unopened interview adopt it once and leave exactly one outcome", async () => {
		const account = await newAccount();
		const created = await create(account.live);
		const results = await Promise.all([
			...Array.from({ length: 4 }, () =>
				call("DELETE", `/v1/interviews/${created.id}`, { key: account.live }),
			),
			...Array.from({ length: 4 }, () => call("GET", `/v1/interviews/${created.id}`, { key: account.live })),
		]);
		const cancels = results.slice(0, 4);
		expect(cancels.filter((r) => r.status === 200)).toHaveLength(1);
		expect(cancels.filter((r) => r.body.error?.code === "INTERVIEW_ALREADY_CANCELLED")).toHaveLength(3);
		for (const read of results.slice(4)) expect(read.status).toBe(200);
		const types = await env.DB.prepare("SELECT type FROM events WHERE interview_id = ?")
			.bind(created.id)
			.all<{ type: string }>();
		expect(types.results.map((r) => r.type).sort()).toEqual([
			"credits.refunded",
			"interview.cancelled",
			"interview.scheduled",
		]);
		expect(await seedOf(created.id)).toBeNull();
	});

	it("fires the no-show timer of an interview nobody opened, once the wake message has opened it", async () => {
		const account = await newAccount();
		const scheduledAt = Date.now() + 3 * HOUR;
		const created = await create(account.live, { scheduled_at: new Date(scheduledAt).toISOString() });
		const wakeAt = scheduledAt + NO_SHOW_AFTER_MS;

		// Early: sent on with the delay left, the object stays closed.
		const early = await wakeBatch(created.id, wakeAt, Date.now());
		expect(early.explicitAcks).toEqual([`msg-${created.id}`]);
		expect((await objectHolds(created.id)).adopted).toBe(false);

		// Due (a minute before the timer): opened, with its alarm at the timer's time.
		await wakeBatch(created.id, wakeAt, wakeAt - WAKE_LEAD_MS);
		expect(await objectHolds(created.id)).toEqual({ adopted: true, alarm: wakeAt });

		await runInDurableObject(stubOf(created.id), (instance: { clock: () => number }) => {
			instance.clock = () => wakeAt;
		});
		expect(await runDurableObjectAlarm(stubOf(created.id))).toBe(true);
		expect(
			await countRows(
				"SELECT count(*) AS n FROM events WHERE interview_id = ? AND type = 'candidate.no_show'",
				created.id,
			),
		).toBe(1);
	});

	it("the housekeeping sweep opens interviews still seeds at their wake time, and only those", async () => {
		const account = await newAccount();
		const due = await create(account.live);
		const later = await create(account.live, { scheduled_at: new Date(Date.now() + 5 * HOUR).toISOString() });
		await markSeedsDue(getDb(env.DB), [due.id], Date.now() - 1000);

		expect(await sweepOverdueSeeds(env, Date.now())).toBeGreaterThanOrEqual(1);

		expect(await seedOf(due.id)).toBeNull();
		expect((await objectHolds(due.id)).adopted).toBe(true);
		expect(await seedOf(later.id)).not.toBeNull();
		expect((await objectHolds(later.id)).adopted).toBe(false);
	});

	it("the housekeeping sweep reaches an overdue seed behind more than a batch of claimed seeds still replaying, and counts each seed once", async () => {
		const stuck = await newAccount();
		const stuckIds: string[] = [];
		for (const n of [100, 10]) {
			const interviews = Array.from({ length: n }, (_, i) =>
				validInterview({ candidate_email: `stuck${n}-${i}@example.com` }),
			);
			const res = await call("POST", "/v1/interviews/bulk", { key: stuck.live, body: { interviews } });
			expect(res.status).toBe(200);
			for (const item of res.body.data.successful) stuckIds.push(item.interview.id);
		}
		expect(stuckIds).toHaveLength(110);
		const behind = await create((await newAccount()).live);
		const now = Date.now();
		const db = getDb(env.DB);
		// The stuck seeds are the oldest overdue ones, so that they fill the sweep's first batches.
		await markSeedsDue(db, stuckIds, now - 30 * 24 * HOUR);
		await markSeedsDue(db, [behind.id], now - HOUR);
		// Their objects adopt them, but the seed's deletion (the replay's last step) keeps failing,
		// as it does while the e-mail or webhook queue is down: claimed, overdue, and still there.
		await env.DB.exec(
			`CREATE TRIGGER keep_stuck_seeds BEFORE DELETE ON interview_seeds WHEN json_extract(OLD.state, '$.accountId') = '${stuck.id}' BEGIN SELECT RAISE(ABORT, 'seed kept'); END`,
		);
		const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
		try {
			await Promise.all(stuckIds.map((id) => stubOf(id).wake()));
			const claimed = await env.DB.prepare(
				"SELECT count(*) AS n FROM interview_seeds WHERE json_extract(state, '$.accountId') = ? AND claimed_at IS NOT NULL",
			)
				.bind(stuck.id)
				.first<{ n: number }>();
			expect(claimed?.n).toBe(110);
			const overdue = await countRows("SELECT count(*) AS n FROM interview_seeds WHERE wake_at <= ?", now);

			const woken = await sweepOverdueSeeds(env, now);

			expect(await seedOf(behind.id)).toBeNull();
			expect((await objectHolds(behind.id)).adopted).toBe(true);
			expect(woken).toBeGreaterThanOrEqual(1);
			expect(woken).toBeLessThanOrEqual(overdue);
		} finally {
			await env.DB.exec("DROP TRIGGER keep_stuck_seeds");
			logged.mockRestore();
		}
	});

	it("the housekeeping sweep leaves a recently claimed seed to its object, and opens one whose claim is older than the lease", async () => {
		const account = await newAccount();
		const stale = await create(account.live);
		const recent = await create(account.live);
		const now = Date.now();
		await markSeedsDue(getDb(env.DB), [stale.id, recent.id], now - HOUR);
		// Claimed, but no object committed the adoption (it was reset between the claim and its transaction).
		const claim = env.DB.prepare("UPDATE interview_seeds SET claimed_at = ? WHERE id = ?");
		await env.DB.batch([
			claim.bind(now - SEED_CLAIM_LEASE_MS - 1_000, stale.id),
			claim.bind(now - 60_000, recent.id),
		]);

		await sweepOverdueSeeds(env, now);

		expect(await seedOf(stale.id)).toBeNull();
		expect((await objectHolds(stale.id)).adopted).toBe(true);
		expect(await seedOf(recent.id)).not.toBeNull();
		expect((await objectHolds(recent.id)).adopted).toBe(false);
	});

	it("the cron sends wake messages for the seeds coming into the next half hour, not for later ones", async () => {
		const account = await newAccount();
		const soon = await create(account.live, {
			scheduled_at: new Date(Date.now() + 40 * 60_000).toISOString(),
		});
		const later = await create(account.live, { scheduled_at: new Date(Date.now() + 3 * HOUR).toISOString() });
		const inWindow = async (now: number) =>
			(await seedsWaking(getDb(env.DB), now, now + WAKE_HORIZON_MS, 1000)).map((s) => s.id);
		// At creation neither was within the horizon (their no-show timers are 55 min and 3 h 15 min out).
		expect(await inWindow(Date.now())).not.toContain(soon.id);
		const cronAt = Date.now() + 30 * 60_000;
		expect(await inWindow(cronAt)).toContain(soon.id);
		expect(await inWindow(cronAt)).not.toContain(later.id);
		expect(await sweepUpcomingWakes(env, cronAt)).toBeGreaterThanOrEqual(1);
	});

	it("the cron sends each seed's wake message once and records it; seeds their creation sent one are left out", async () => {
		const account = await newAccount();
		const soon = await create(account.live, {
			scheduled_at: new Date(Date.now() + 40 * 60_000).toISOString(),
		});
		// Its no-show timer is within the horizon at creation: creation sent its message.
		const now = await create(account.live);
		const owing = async (at: number) =>
			(await seedsOwingWake(getDb(env.DB), at, at + WAKE_HORIZON_MS, WAKE_HORIZON_MS, 1000)).map((s) => s.id);
		const cronAt = Date.now() + 30 * 60_000;
		expect(await owing(cronAt)).toContain(soon.id);
		expect(await owing(Date.now())).not.toContain(now.id);

		expect(await sweepUpcomingWakes(env, cronAt)).toBeGreaterThanOrEqual(1);
		const sentAt = await env.DB.prepare("SELECT wake_sent_at AS at FROM interview_seeds WHERE id = ?")
			.bind(soon.id)
			.first<{ at: number | null }>();
		expect(sentAt?.at).toBe(cronAt);
		// The next runs (every 15 minutes, or every minute locally) send it no second message.
		expect(await owing(cronAt + 60_000)).not.toContain(soon.id);
		expect(await sweepUpcomingWakes(env, cronAt + 60_000)).toBe(0);
		expect(await sweepUpcomingWakes(env, cronAt + 15 * 60_000)).toBe(0);
		// A lost message is still covered: the overdue sweep opens the seed at its wake time.
		expect(await seedOf(soon.id)).not.toBeNull();
	});

	it("a failed D1 write creates nothing and gives the credit and the monthly count back", async () => {
		const account = await newAccount({ plan: "starter", credits: 3 });
		const before = await profile(account.live);
		const failed = await withTableRenamed("interview_seeds", () =>
			call("POST", "/v1/interviews", { key: account.live, body: validInterview() }),
		);
		expect(failed.status).toBe(500);
		expect(failed.body.error.code).toBe("INTERNAL_ERROR");
		expect(failed.body.error.details).toEqual({ request_id: failed.headers.get("X-Request-Id") });
		expect(JSON.stringify(failed.body)).not.toMatch(/interview_seeds|D1_ERROR|\.ts:\d+/);
		expect(await countRows("SELECT count(*) AS n FROM interviews WHERE account_id = ?", account.id)).toBe(0);
		expect(await countRows("SELECT count(*) AS n FROM events WHERE account_id = ?", account.id)).toBe(0);
		const after = await profile(account.live);
		expect(after.credits_balance).toBe(before.credits_balance);
		expect(after.usage).toEqual(before.usage);
	});

	it("a creation whose sending fails after the write still creates, and the opened object delivers it later", async () => {
		const account = await newAccount();
		const endpoint = await createWebhook(account.live, {
			url: "http://127.0.0.1:9/deferred",
			events: ["interview.scheduled"],
		});
		// The invitation's e-mail record fails after the batch, before the webhook is sent.
		const created = await withTableRenamed("candidate_emails", () =>
			call("POST", "/v1/interviews", { key: account.live, body: validInterview() }),
		);
		expect(created.status).toBe(201);
		const id = created.body.data.id as string;
		// The delivery was recorded with the event, and not sent.
		const [recorded] = await deliveriesOf(endpoint.id);
		expect((await deliveryRow(recorded!.id))?.enqueued_at).toBeNull();
		// The failure opened the object at once: it owns the replay and retries it on its alarm.
		// The seed row stays (claimed) until the replay has settled.
		expect(await seedOf(id)).not.toBeNull();
		expect((await objectHolds(id)).adopted).toBe(true);
		const event = await env.DB.prepare("SELECT id FROM events WHERE interview_id = ?")
			.bind(id)
			.first<{ id: string }>();

		// The event is past its retention before the retry: the seed keeps it from the purge, so the
		// retry finds it and records no second delivery.
		await env.DB.prepare("UPDATE events SET created_at = ? WHERE interview_id = ?")
			.bind(Date.now() - 100 * 24 * HOUR, id)
			.run();
		await purgeOldEvents(env, Date.now());
		expect(await countRows("SELECT count(*) AS n FROM events WHERE id = ?", event!.id)).toBe(1);

		expect(await runDurableObjectAlarm(stubOf(id))).toBe(true);
		const deliveries = await deliveriesOf(endpoint.id);
		expect(deliveries.map((d) => d.id)).toEqual([recorded!.id]);
		expect((await deliveryRow(recorded!.id))?.enqueued_at).not.toBeNull();
		expect(deliveries[0]?.eventId).toBe(event?.id);
		expect(await countRows("SELECT count(*) AS n FROM events WHERE interview_id = ?", id)).toBe(1);
		// Settled: the seed is gone, and the next purge may take the event.
		expect(await seedOf(id)).toBeNull();
		await purgeOldEvents(env, Date.now());
		expect(await countRows("SELECT count(*) AS n FROM events WHERE interview_id = ?", id)).toBe(0);
	});

	it("a creation that cannot record its webhook deliveries creates nothing and gives back what it took", async () => {
		const account = await newAccount({ credits: 5 });
		await createWebhook(account.live, { url: "http://127.0.0.1:9/none", events: ["*"] });
		const refused = await withTableRenamed("webhook_deliveries", () =>
			call("POST", "/v1/interviews", { key: account.live, body: validInterview() }),
		);
		expect(refused.status).toBe(500);
		expect(await countRows("SELECT COUNT(*) AS n FROM interviews WHERE account_id = ?", account.id)).toBe(0);
		expect(await countRows("SELECT COUNT(*) AS n FROM events WHERE account_id = ?", account.id)).toBe(0);
		const after = await profile(account.live);
		expect(after.usage.monthly_interviews_used).toBe(0);
		expect(after.credits_balance).toBe(5);
	});

	it("wakes an interview cancelled before its object was opened an hour later, so that its events and e-mails can age out", async () => {
		const account = await newAccount();
		const created = await create(account.live, { send_invitation: true });
		expect((await call("DELETE", `/v1/interviews/${created.id}`, { key: account.live })).status).toBe(200);
		const events = () => countRows("SELECT count(*) AS n FROM events WHERE interview_id = ?", created.id);
		const emails = () =>
			countRows("SELECT count(*) AS n FROM candidate_emails WHERE interview_id = ?", created.id);
		const before = [await events(), await emails()];
		// Scheduled and cancelled among the events; the invitation and the cancellation e-mailed.
		expect(before[0]).toBeGreaterThanOrEqual(2);
		expect(before[1]).toBe(2);
		// Within the hour the sweep leaves it a seed, whose events and e-mails no sweep may delete.
		await sweepOverdueSeeds(env, Date.now() + 30 * 60_000);
		expect(await seedOf(created.id)).not.toBeNull();
		expect((await objectHolds(created.id)).adopted).toBe(false);
		// After it, its object adopts it: the replay doubles nothing and leaves no alarm.
		await sweepOverdueSeeds(env, Date.now() + 61 * 60_000);
		expect(await seedOf(created.id)).toBeNull();
		expect(await objectHolds(created.id)).toEqual({ adopted: true, alarm: null });
		expect([await events(), await emails()]).toEqual(before);
		const fetched = await call("GET", `/v1/interviews/${created.id}`, { key: account.live });
		expect(fetched.body.data.status).toBe("cancelled");
		// Its events now age out as every other interview's do.
		await env.DB.prepare("UPDATE events SET created_at = ? WHERE interview_id = ?")
			.bind(Date.now() - 100 * 24 * HOUR, created.id)
			.run();
		await purgeOldEvents(env, Date.now());
		expect(await events()).toBe(0);
	});
});
