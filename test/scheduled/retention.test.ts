import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { purgeSettledEmails } from "../../src/email/retention";
import { purgeOldEvents } from "../../src/events/retention";
import { newId } from "../../src/platform/lib/random";
import {
	RETENTION_BATCH,
	RETENTION_DEFAULT_DAYS,
	retentionMs,
	wholeDays,
} from "../../src/platform/lib/settings";
import { runHousekeeping } from "../../src/scheduled";
import { purgeFinalDeliveries } from "../../src/webhooks/retention";
import { newAccount } from "../support/helpers";
import { completeInterview, fireAlarmAt, stubOf } from "../support/lifecycle-helpers";

const DAY = 24 * 60 * 60_000;
const NOW = Date.UTC(2027, 5, 1, 12, 0, 0);

async function ids(sql: string, ...params: unknown[]): Promise<string[]> {
	const rows = await env.DB.prepare(sql)
		.bind(...params)
		.all<{ id: string }>();
	return rows.results.map((r) => r.id).sort();
}

/** A delivery (final at `completedAt`, or pending when null) with two attempts. */
async function delivery(accountId: string, completedAt: number | null): Promise<string> {
	const id = newId("dlv");
	const at = (completedAt ?? NOW) - 60_000;
	await env.DB.batch([
		env.DB.prepare(
			`INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event_id, event_type, kind, outcome, attempt_count, completed_at, created_at, updated_at)
			 VALUES (?, ?, 'we_x', ?, 'interview.scheduled', 'event', ?, 2, ?, ?, ?)`,
		).bind(id, accountId, newId("evt"), completedAt === null ? "pending" : "succeeded", completedAt, at, at),
		...[1, 2].map((attempt) =>
			env.DB.prepare(
				`INSERT INTO webhook_attempts (delivery_id, endpoint_id, attempt, url, attempted_at, duration_ms, outcome)
				 VALUES (?, 'we_x', ?, 'https://example.com/hook', ?, 5, 'succeeded')`,
			).bind(id, attempt, at),
		),
	]);
	return id;
}

async function event(
	accountId: string,
	createdAt: number,
	interviewId: string | null = null,
): Promise<string> {
	const id = newId("evt");
	await env.DB.prepare(
		`INSERT INTO events (id, account_id, environment, type, interview_id, test_mode, data, created_at)
		 VALUES (?, ?, 'production', 'interview.updated', ?, 0, '{}', ?)`,
	)
		.bind(id, accountId, interviewId, createdAt)
		.run();
	return id;
}

async function email(accountId: string, status: string, updatedAt: number, interviewId = newId("int")) {
	const id = newId("msg");
	await env.DB.prepare(
		`INSERT INTO candidate_emails (id, interview_id, account_id, environment, template, sender, recipient, sender_name,
		 subject, text, html, ics, sequence, status, attempts, created_at, updated_at)
		 VALUES (?, ?, ?, 'production', 'invitation', 'a@example.com', 'b@example.com', 'A', 's', 't', 'h', 'i', 0, ?, 1, ?, ?)`,
	)
		.bind(id, interviewId, accountId, status, updatedAt - 60_000, updatedAt)
		.run();
	return id;
}

/** A seed row standing for an interview whose object was never opened. */
async function seed(id: string): Promise<void> {
	await env.DB.prepare(
		"INSERT INTO interview_seeds (id, state, outbox, timers, wake_at, created_at) VALUES (?, '{}', '[]', '[]', ?, ?)",
	)
		.bind(id, NOW + DAY, NOW - 200 * DAY)
		.run();
}

describe("retention settings", () => {
	it("reads whole days from vars and falls back to the default for anything else", () => {
		expect(wholeDays(undefined, 30)).toBe(30);
		expect(wholeDays(" 45 ", 30)).toBe(45);
		for (const bad of ["", "0", "-3", "1.5", "30d", "3651"]) expect(wholeDays(bad, 30)).toBe(30);
		expect(retentionMs({}, "EVENT_RETENTION_DAYS")).toBe(90 * DAY);
		expect(retentionMs({ EVENT_RETENTION_DAYS: "7" }, "EVENT_RETENTION_DAYS")).toBe(7 * DAY);
	});
});

describe("retention sweeps delete exactly what is past its age", () => {
	it("webhook deliveries: final ones older than the retention go with their attempts; pending and younger ones stay", async () => {
		const account = `acc_${crypto.randomUUID()}`;
		const cutoff = NOW - RETENTION_DEFAULT_DAYS.WEBHOOK_DELIVERY_RETENTION_DAYS * DAY;
		const expired = [await delivery(account, cutoff - 1), await delivery(account, cutoff - 10 * DAY)];
		const kept = [
			await delivery(account, cutoff),
			await delivery(account, NOW - DAY),
			await delivery(account, null),
		];
		// A pending delivery created long ago (no final time) is never the sweep's.
		await env.DB.prepare("UPDATE webhook_deliveries SET created_at = ? WHERE id = ?")
			.bind(cutoff - 100 * DAY, kept[2])
			.run();

		expect(await purgeFinalDeliveries(env, NOW)).toBeGreaterThanOrEqual(2);
		expect(await ids("SELECT id FROM webhook_deliveries WHERE account_id = ?", account)).toEqual(kept.sort());
		const attempts = await ids(
			`SELECT delivery_id AS id FROM webhook_attempts WHERE delivery_id IN (${[...expired, ...kept].map(() => "?").join(",")})`,
			...expired,
			...kept,
		);
		expect(new Set(attempts)).toEqual(new Set(kept));
	});

	it("events: older than the retention go, except those of an interview still a seed", async () => {
		const account = `acc_${crypto.randomUUID()}`;
		const cutoff = NOW - RETENTION_DEFAULT_DAYS.EVENT_RETENTION_DAYS * DAY;
		const seeded = newId("int");
		await seed(seeded);
		const expired = [await event(account, cutoff - 1), await event(account, cutoff - DAY, newId("int"))];
		const kept = [
			await event(account, cutoff),
			await event(account, NOW),
			await event(account, cutoff - DAY, seeded),
		];

		await purgeOldEvents(env, NOW);
		expect(await ids("SELECT id FROM events WHERE account_id = ?", account)).toEqual(kept.sort());
		expect(expired).toHaveLength(2);
	});

	it("e-mails: sent or failed longer ago than the retention go; queued ones and a seed's stay", async () => {
		const account = `acc_${crypto.randomUUID()}`;
		const cutoff = NOW - RETENTION_DEFAULT_DAYS.EMAIL_RETENTION_DAYS * DAY;
		const seeded = newId("int");
		await seed(seeded);
		await email(account, "sent", cutoff - 1);
		await email(account, "failed", cutoff - 5 * DAY);
		const kept = [
			await email(account, "sent", cutoff),
			await email(account, "queued", cutoff - 5 * DAY),
			await email(account, "sent", cutoff - 5 * DAY, seeded),
		];
		await purgeSettledEmails(env, NOW);
		expect(await ids("SELECT id FROM candidate_emails WHERE account_id = ?", account)).toEqual(kept.sort());
	});

	it("a var shortens a retention, and a backlog larger than one batch goes in bounded statements (two parameters each)", async () => {
		const account = `acc_${crypto.randomUUID()}`;
		const total = RETENTION_BATCH * 2 + 37;
		// One statement inserts the backlog (recursive CTE): far more rows than D1's 100 parameters could bind.
		await env.DB.prepare(
			`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
			 INSERT INTO events (id, account_id, environment, type, interview_id, test_mode, data, created_at)
			 SELECT 'evt_bulk_' || ? || '_' || i, ?, 'production', 'interview.updated', NULL, 0, '{}', ? FROM n`,
		)
			.bind(total, account, account, NOW - 8 * DAY)
			.run();
		const young = await event(account, NOW - 6 * DAY);
		// Default (90 days): nothing of this account is old enough.
		await purgeOldEvents(env, NOW);
		expect(await ids("SELECT id FROM events WHERE account_id = ?", account)).toHaveLength(total + 1);
		// A week: the backlog goes, in three statements of at most RETENTION_BATCH rows.
		const deleted = await purgeOldEvents({ ...env, EVENT_RETENTION_DAYS: "7" }, NOW);
		expect(deleted).toBeGreaterThanOrEqual(total);
		expect(await ids("SELECT id FROM events WHERE account_id = ?", account)).toEqual([young]);
	});

	it("the housekeeping cron runs the sweeps and reports them", async () => {
		const account = `acc_${crypto.randomUUID()}`;
		const far = NOW + 400 * DAY;
		await delivery(account, NOW);
		await event(account, NOW);
		await email(account, "sent", NOW);
		const report = await runHousekeeping(env, far);
		expect(report.deliveriesExpired).toBeGreaterThanOrEqual(1);
		expect(report.eventsExpired).toBeGreaterThanOrEqual(1);
		expect(report.emailsExpired).toBeGreaterThanOrEqual(1);
		expect(await ids("SELECT id FROM webhook_deliveries WHERE account_id = ?", account)).toEqual([]);
		expect(await ids("SELECT id FROM events WHERE account_id = ?", account)).toEqual([]);
		expect(await ids("SELECT id FROM candidate_emails WHERE account_id = ?", account)).toEqual([]);
	});
});

describe("the room's message history", () => {
	it("is deleted ROOM_HISTORY_RETENTION_DAYS after the interview ended, by the object's own alarm, and not before", async () => {
		const account = await newAccount();
		const { id } = await completeInterview(account.test);
		const count = () =>
			runInDurableObject(stubOf(id), async (_i, state) => ({
				messages: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM messages").one().n,
				due: state.storage.sql
					.exec<{ due_at: number }>("SELECT due_at FROM timers WHERE kind = 'room_history'")
					.toArray()[0]?.due_at,
			}));
		const before = await count();
		expect(before.messages).toBeGreaterThan(0);
		const due = before.due as number;
		expect(due).toBeGreaterThan(Date.now() + 7 * DAY - 60_000);
		expect(due).toBeLessThanOrEqual(Date.now() + 7 * DAY);

		// Earlier alarms (the analysis) leave the history in place, and may add to it.
		await fireAlarmAt(id, due - 1);
		expect((await count()).messages).toBeGreaterThanOrEqual(before.messages);
		await fireAlarmAt(id, due);
		expect(await count()).toEqual({ messages: 0, due: undefined });
		// The interview itself is untouched.
		const state = await runInDurableObject(stubOf(id), (instance) =>
			(instance as unknown as { get(): Promise<{ status: string }> }).get(),
		);
		expect(state.status).toBe("completed");
	});
});
