import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountStub } from "../../src/accounts/account-stub";
import { interviewStub } from "../../src/interviews/stub";
import { call, newAccount, withTableRenamed } from "../support/helpers";
import { createInterview, eventsOf, fireAlarmAt, startInterview } from "../support/lifecycle-helpers";
import { accountObject, countRows, profile, setLimits } from "../support/limits-helpers";

async function joinNow(created: { id: string; token: string }) {
	const result = await interviewStub(env, created.id).join(created.token, Date.now());
	if (result.status !== "ok") throw new Error(`join refused: ${JSON.stringify(result)}`);
	return result.interview;
}

async function statusOf(id: string) {
	return (await interviewStub(env, id).get())?.status;
}

/** An account with one slot: `a` in progress, `b` then `c` joined and waiting in that order. */
async function oneInProgressTwoWaiting(options: Parameters<typeof newAccount>[0] = {}) {
	const account = await newAccount(options);
	await setLimits(account.id, { concurrent_interviews: 1 });
	const a = await startInterview(account.live);
	const b = await createInterview(account.live);
	const c = await createInterview(account.live);
	await joinNow(b);
	await joinNow(c);
	return { account, a, b, c };
}

describe("concurrent-interview slots and the waiting room", () => {
	it("starts a joined live interview at once while the account has a free slot", async () => {
		const account = await newAccount({ plan: "free" });
		const interview = await joinNow(await createInterview(account.live));
		expect(interview.status).toBe("in_progress");
		expect((await profile(account.live)).usage.concurrent_interviews_in_progress).toBe(1);
	});

	it("keeps a joined interview scheduled while every slot is taken, then starts the longest-waiting one when a slot frees", async () => {
		const account = await newAccount();
		await setLimits(account.id, { concurrent_interviews: 1 });
		const a = await startInterview(account.live);
		const b = await createInterview(account.live);
		const c = await createInterview(account.live);

		const waiting = await joinNow(b);
		expect(waiting).toMatchObject({ status: "scheduled", startedAt: null });
		expect(waiting.joinedAt).not.toBeNull();
		await joinNow(c);
		// A join that waits still writes what it owes (with the adoption's) before it answers.
		expect((await eventsOf(b.id)).map((e) => e.type)).toEqual(["interview.scheduled", "candidate.joined"]);
		expect(await countRows("SELECT count(*) AS n FROM interview_seeds WHERE id = ?", b.id)).toBe(0);
		const fetched = await call("GET", `/v1/interviews/${b.id}`, { key: account.live });
		expect(fetched.body.data).toMatchObject({
			status: "scheduled",
			candidate: { joined_at: expect.any(String) },
		});

		// A reconnect while waiting changes nothing.
		expect((await joinNow(b)).status).toBe("scheduled");

		await interviewStub(env, a.id).finish("candidate_ended", Date.now());
		expect(await statusOf(b.id)).toBe("in_progress");
		expect(await statusOf(c.id)).toBe("scheduled");
		expect((await eventsOf(b.id)).map((e) => e.type)).toEqual([
			"interview.scheduled",
			"candidate.joined",
			"interview.started",
		]);

		expect((await call("DELETE", `/v1/interviews/${b.id}`, { key: account.live })).status).toBe(200);
		expect(await statusOf(c.id)).toBe("in_progress");
		expect(await accountStub(env, account.id).slotUsage()).toEqual({ active: 1, waiting: 0 });
	});

	it("takes a cancelled waiting interview out of the line, with its refund", async () => {
		const { account, a, b, c } = await oneInProgressTwoWaiting({ credits: 10 });
		expect(await accountStub(env, account.id).slotUsage()).toEqual({ active: 1, waiting: 2 });

		const cancelled = await call("DELETE", `/v1/interviews/${b.id}`, { key: account.live });
		expect(cancelled.body.data.refund_details).toMatchObject({ credits_refunded: 1 });
		expect(await accountStub(env, account.id).slotUsage()).toEqual({ active: 1, waiting: 1 });

		await call("DELETE", `/v1/interviews/${a.id}`, { key: account.live });
		expect(await statusOf(c.id)).toBe("in_progress");
		expect(await statusOf(b.id)).toBe("cancelled");
	});

	it("takes a waiting interview out of the line when its candidate's address changes; the new candidate joins at the back", async () => {
		const { account, a, b, c } = await oneInProgressTwoWaiting();
		expect(await accountStub(env, account.id).slotUsage()).toEqual({ active: 1, waiting: 2 });

		const moved = await call("PATCH", `/v1/interviews/${b.id}`, {
			key: account.live,
			body: { candidate_email: "someone.else@example.com" },
		});
		expect(moved.status).toBe(200);
		const fetched = await call("GET", `/v1/interviews/${b.id}`, { key: account.live });
		expect(fetched.body.data.candidate.joined_at).toBeNull();
		expect(await accountStub(env, account.id).slotUsage()).toEqual({ active: 1, waiting: 1 });

		// The new candidate joins behind the one who was waiting: the freed slot goes to c.
		const token = new URL(fetched.body.data.urls.interview_url).searchParams.get("token") as string;
		expect((await joinNow({ id: b.id, token })).status).toBe("scheduled");
		expect(await accountStub(env, account.id).slotUsage()).toEqual({ active: 1, waiting: 2 });
		await interviewStub(env, a.id).finish("candidate_ended", Date.now());
		expect(await statusOf(c.id)).toBe("in_progress");
		expect(await statusOf(b.id)).toBe("scheduled");
	});

	it("gives test and dev interviews no slot: they start at once and leave the live count alone", async () => {
		const account = await newAccount();
		await setLimits(account.id, { concurrent_interviews: 1 });
		await startInterview(account.live);
		expect((await joinNow(await createInterview(account.test))).status).toBe("in_progress");
		expect((await joinNow(await createInterview(account.live, { test_mode: true }))).status).toBe(
			"in_progress",
		);
		expect((await joinNow(await createInterview(account.dev))).status).toBe("in_progress");
		expect((await profile(account.live)).usage.concurrent_interviews_in_progress).toBe(1);
	});

	it("frees the slot of an interview ended by its duration", async () => {
		const account = await newAccount();
		await setLimits(account.id, { concurrent_interviews: 1 });
		const a = await startInterview(account.live, { duration_minutes: 15 });
		const b = await createInterview(account.live);
		await joinNow(b);
		await fireAlarmAt(a.id, Date.now() + 16 * 60_000);
		expect(await statusOf(a.id)).toBe("completed");
		expect(await statusOf(b.id)).toBe("in_progress");
	});

	it("releases a slot exactly once even when the outbox flush is retried", async () => {
		const { account, a, b, c } = await oneInProgressTwoWaiting();
		await withTableRenamed("interviews", async () => {
			await interviewStub(env, a.id).finish("candidate_ended", Date.now());
			expect(await statusOf(a.id)).toBe("completed");
			expect(await statusOf(b.id)).toBe("scheduled");
		});

		const stub = env.INTERVIEW.get(env.INTERVIEW.idFromName(a.id));
		await runDurableObjectAlarm(stub);
		expect(await statusOf(b.id)).toBe("in_progress");
		await runDurableObjectAlarm(stub);
		expect(await interviewStub(env, a.id).finish("candidate_ended", Date.now())).toMatchObject({
			status: "ok",
		});
		expect(await statusOf(c.id)).toBe("scheduled");
		expect(await accountStub(env, account.id).slotUsage()).toEqual({ active: 1, waiting: 1 });
	});

	it("asks again from its alarm when the slot request fails, so the candidate does not wait for ever", async () => {
		const account = await newAccount();
		const created = await createInterview(account.live);
		// The account's object reads the account's limits from D1: without the table it fails.
		const joined = await withTableRenamed("accounts", () => joinNow(created));
		expect(joined).toMatchObject({ status: "scheduled", startedAt: null });
		expect(joined.joinedAt).not.toBeNull();
		// Not yet due: nothing changes.
		await fireAlarmAt(created.id, Date.now() + 1_000);
		expect(await statusOf(created.id)).toBe("scheduled");
		// Failing again keeps the retry armed.
		await withTableRenamed("accounts", () => fireAlarmAt(created.id, Date.now() + 11_000));
		expect(await statusOf(created.id)).toBe("scheduled");
		await fireAlarmAt(created.id, Date.now() + 22_000);
		expect(await statusOf(created.id)).toBe("in_progress");
		expect((await profile(account.live)).usage.concurrent_interviews_in_progress).toBe(1);
		expect((await eventsOf(created.id)).map((e) => e.type)).toEqual([
			"interview.scheduled",
			"candidate.joined",
			"interview.started",
		]);
	});

	it("is idempotent per interview: acquiring twice holds one slot, releasing twice frees it once", async () => {
		const account = await newAccount();
		await setLimits(account.id, { concurrent_interviews: 2 });
		const slots = accountStub(env, account.id);
		const id = "int_AAAAAAAAAAAAAAAAAAAAAAA1";
		expect(await slots.acquireSlot(account.id, id)).toEqual({ status: "acquired" });
		expect(await slots.acquireSlot(account.id, id)).toEqual({ status: "acquired" });
		expect(await slots.slotUsage()).toEqual({ active: 1, waiting: 0 });
		expect(await slots.releaseSlot(account.id, id)).toEqual({ released: true });
		expect(await slots.releaseSlot(account.id, id)).toEqual({ released: false });
		expect(await slots.slotUsage()).toEqual({ active: 0, waiting: 0 });
	});

	it("fills slots freed by a raised limit when the limit is raised, in joining order", async () => {
		const account = await newAccount();
		await setLimits(account.id, { concurrent_interviews: 1 });
		await startInterview(account.live);
		const b = await createInterview(account.live);
		const c = await createInterview(account.live);
		const d = await createInterview(account.live);
		await joinNow(b);
		await joinNow(c);
		await joinNow(d);
		// No check is due: the grants of the joins were confirmed, so only the change can start them.
		await runInDurableObject(accountObject(account.id), (_instance, state) => state.storage.deleteAlarm());
		await setLimits(account.id, { concurrent_interviews: 2 });
		expect(await statusOf(b.id)).toBe("in_progress");
		expect(await statusOf(c.id)).toBe("scheduled");
		// Back to the plan's limit with null (the account's plan has room for all): the rest start too.
		await setLimits(account.id, { concurrent_interviews: null });
		expect(await statusOf(c.id)).toBe("in_progress");
		expect(await statusOf(d.id)).toBe("in_progress");
		expect((await profile(account.live)).usage.concurrent_interviews_in_progress).toBe(4);
	});

	it("keeps its check alarm when D1 cannot give the limit, and when it hands a freed slot on", async () => {
		const account = await newAccount();
		await setLimits(account.id, { concurrent_interviews: 1 });
		const a = await startInterview(account.live);
		const b = await createInterview(account.live);
		await joinNow(b);
		const object = accountObject(account.id);
		const alarmOf = () => runInDurableObject(object, (_instance, state) => state.storage.getAlarm());
		// The account row unreadable: the alarm does not fail (its retries would run out), it re-arms.
		await runInDurableObject(object, (_instance, state) => state.storage.deleteAlarm());
		const before = Date.now();
		await withTableRenamed("accounts", async () => {
			expect(await runDurableObjectAlarm(object)).toBe(false);
			await runInDurableObject(object, (instance) =>
				(instance as unknown as { alarm(): Promise<void> }).alarm(),
			);
		});
		const retry = await alarmOf();
		expect(retry).not.toBeNull();
		expect(retry as number).toBeLessThanOrEqual(before + 60_000);
		// A freed slot handed on arms the check before the start is tried, so a start cut short is
		// found unconfirmed by the alarm.
		await runInDurableObject(object, (_instance, state) => state.storage.deleteAlarm());
		await call("DELETE", `/v1/interviews/${a.id}`, { key: account.live });
		expect(await statusOf(b.id)).toBe("in_progress");
		expect(await alarmOf()).not.toBeNull();
	});

	it("gives the slot of a granted interview that was cancelled before starting to the next in line", async () => {
		const account = await newAccount();
		await setLimits(account.id, { concurrent_interviews: 1 });
		const b = await createInterview(account.live);
		const c = await createInterview(account.live);
		const slots = accountStub(env, account.id);
		// b holds a slot it never used (as if its object stopped between the grant and the start).
		await joinNow(b);
		await call("DELETE", `/v1/interviews/${b.id}`, { key: account.live });
		expect(await slots.acquireSlot(account.id, b.id)).toEqual({ status: "acquired" });
		expect(await joinNow(c)).toMatchObject({ status: "scheduled" });
		expect(await runDurableObjectAlarm(accountObject(account.id))).toBe(true);
		expect(await statusOf(c.id)).toBe("in_progress");
		expect(await slots.slotUsage()).toEqual({ active: 1, waiting: 0 });
	});
});
