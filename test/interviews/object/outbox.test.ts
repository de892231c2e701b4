import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { NO_SHOW_AFTER_MS } from "../../../src/interviews/core/commands";
import { OUTBOX_RETRY_TIMER } from "../../../src/interviews/object/outbox-engine";
import { interviewStub } from "../../../src/interviews/stub";
import { call, newAccount, validInterview, withTableRenamed } from "../../support/helpers";

/** Opened and read once (adopted), so that only a later command's own outbox is left to write. */
async function openedInterview(key: string) {
	const created = await call("POST", "/v1/interviews", { key, body: validInterview() });
	const id = created.body.data.id as string;
	expect((await call("GET", `/v1/interviews/${id}`, { key })).status).toBe(200);
	return { id, stub: env.INTERVIEW.get(env.INTERVIEW.idFromName(id)) };
}

/** Commits a cancel whose flush never runs, as if the object were reset right after; its alarm. */
function cancelWithoutFlush(stub: DurableObjectStub) {
	return runInDurableObject(stub, async (instance, state) => {
		const run = (instance as unknown as { run: (...args: unknown[]) => Promise<unknown> }).run.bind(instance);
		await run({ type: "cancel", reason: null, sendNotification: false, refundCredits: true }, Date.now(), {
			flush: false,
		});
		return state.storage.getAlarm();
	});
}

describe("the outbox between the interview object and D1", () => {
	it("answers from the committed state when the projection write fails, then heals it on the alarm", async () => {
		const account = await newAccount();
		const created = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		expect(created.status).toBe(201);
		const id = created.body.data.id;
		// Opened first, so that only the update's own outbox is left to write.
		expect((await call("GET", `/v1/interviews/${id}`, { key: account.live })).status).toBe(200);

		const updated = await withTableRenamed("interviews", () =>
			call("PATCH", `/v1/interviews/${id}`, { key: account.live, body: { position: "Staff Engineer" } }),
		);
		expect(updated.status).toBe(200);
		expect(updated.body.data.position).toBe("Staff Engineer");

		const fetched = await call("GET", `/v1/interviews/${id}`, { key: account.live });
		expect(fetched.body.data.position).toBe("Staff Engineer");
		const before = await call("GET", "/v1/interviews", { key: account.live });
		expect(before.body.data.map((i: { position: string }) => i.position)).not.toContain("Staff Engineer");

		const stub = env.INTERVIEW.get(env.INTERVIEW.idFromName(id));
		expect(await runDurableObjectAlarm(stub)).toBe(true);

		const after = await call("GET", "/v1/interviews", { key: account.live });
		expect(after.body.data.map((i: { id: string; position: string }) => [i.id, i.position])).toEqual([
			[id, "Staff Engineer"],
		]);
	});

	it("arms the alarm with every commit that owes D1 something, so an object reset before its flush still writes it", async () => {
		const account = await newAccount();
		const { stub } = await openedInterview(account.live);
		const before = Date.now();
		const alarm = await cancelWithoutFlush(stub);
		// A cancelled interview has no timer left: only the guard keeps an alarm.
		expect(alarm).not.toBeNull();
		expect(alarm as number).toBeLessThanOrEqual(before + 60_000);
		const listed = async () =>
			(await call("GET", "/v1/interviews", { key: account.live })).body.data.map(
				(i: { status: string }) => i.status,
			);
		expect(await listed()).toEqual(["scheduled"]);

		expect(await runDurableObjectAlarm(stub)).toBe(true);
		expect(await listed()).toEqual(["cancelled"]);
		const credits = await call("GET", "/v1/account/profile", { key: account.live });
		expect(credits.body.data.usage.monthly_interviews_used).toBe(0);
		// Written: the guard is cleared; the only alarm left is the room history's deletion, a week on.
		const left = await runInDurableObject(stub, (_instance, state) => state.storage.getAlarm());
		expect(left).toBeGreaterThanOrEqual(before + 7 * 24 * 60 * 60_000);
		expect(left).toBeLessThanOrEqual(Date.now() + 7 * 24 * 60 * 60_000);
	});

	it("arms the guard on the first commit of a new instance too (its flag comes from storage)", async () => {
		const account = await newAccount();
		const { stub } = await openedInterview(account.live);
		// A new instance (a deploy, an eviction): the previous one's flush had cleared the guard.
		await evictDurableObject(stub);
		const alarm = await cancelWithoutFlush(stub);
		expect(alarm).not.toBeNull();
		expect(await runDurableObjectAlarm(stub)).toBe(true);
		const listed = await call("GET", "/v1/interviews", { key: account.live });
		expect(listed.body.data.map((i: { status: string }) => i.status)).toEqual(["cancelled"]);
	});

	it("heals a failed event write without duplicating the event", async () => {
		const account = await newAccount();
		const created = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		const id = created.body.data.id;
		expect((await call("GET", `/v1/interviews/${id}`, { key: account.live })).status).toBe(200);
		const cancelled = await withTableRenamed("events", () =>
			call("DELETE", `/v1/interviews/${id}`, { key: account.live }),
		);
		expect(cancelled.status).toBe(200);
		const typesOf = async () =>
			(
				await env.DB.prepare("SELECT type FROM events WHERE interview_id = ? ")
					.bind(id)
					.all<{ type: string }>()
			).results
				.map((e) => e.type)
				.sort();
		expect(await typesOf()).toEqual(["interview.scheduled"]);
		const stub = env.INTERVIEW.get(env.INTERVIEW.idFromName(id));
		await runDurableObjectAlarm(stub);
		await runDurableObjectAlarm(stub);
		expect(await typesOf()).toEqual(["credits.refunded", "interview.cancelled", "interview.scheduled"]);
	});

	it("never lets an older version overwrite a newer projection", async () => {
		const account = await newAccount();
		const created = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		const id = created.body.data.id;
		await env.DB.prepare("UPDATE interviews SET version = 99, position = 'Newer' WHERE id = ?")
			.bind(id)
			.run();
		const { upsertProjection } = await import("../../../src/interviews/db/interviews-repo");
		const { getDb } = await import("../../../src/platform/db/client");
		const { runOne } = await import("../../../src/platform/db/templates");
		const state = await interviewStub(env, id).get();
		const db = getDb(env.DB);
		await runOne(upsertProjection(db, state!));
		const row = await env.DB.prepare("SELECT position, version FROM interviews WHERE id = ?")
			.bind(id)
			.first();
		expect(row).toEqual({ position: "Newer", version: 99 });
	});

	it("arms a new guard for a commit made after an alarm cleared the outbox's retry timer", async () => {
		const account = await newAccount();
		const created = await call("POST", "/v1/interviews", { key: account.test, body: validInterview() });
		const id = created.body.data.id as string;
		await interviewStub(env, id).get();
		const stub: DurableObjectStub = env.INTERVIEW.get(env.INTERVIEW.idFromName(id));
		// Each flush that finds rows owed: whether a retry timer stood guard over them then.
		const guardedFlushes: boolean[] = [];
		await runInDurableObject(stub, (object) => {
			const instance = object as any;
			const scheduledAt = instance.state.scheduledAt as number;
			// The no-show is due, and before it an outbox retry timer an earlier commit left.
			instance.clock = () => scheduledAt + NO_SHOW_AFTER_MS + 1_000;
			instance.timers.set(OUTBOX_RETRY_TIMER, scheduledAt);
			instance.outbox.loadGuard();
			const flush = instance.outbox.flush.bind(instance.outbox);
			instance.outbox.flush = async () => {
				const owed = instance.ctx.storage.sql.exec("SELECT COUNT(*) AS n FROM outbox").one().n as number;
				if (owed > 0) guardedFlushes.push(instance.timers.has(OUTBOX_RETRY_TIMER) as boolean);
				return flush();
			};
		});
		expect(await runDurableObjectAlarm(stub)).toBe(true);
		// The no-show's commit owed its event: a reset during its flush would have left it unwritten.
		expect(guardedFlushes.length).toBeGreaterThan(0);
		expect(guardedFlushes.every(Boolean)).toBe(true);
		const events = await call("GET", `/v1/events?interview_id=${id}`, { key: account.test });
		expect(events.body.data.map((e: { type: string }) => e.type)).toContain("candidate.no_show");
	});
});
