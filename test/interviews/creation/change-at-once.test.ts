import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AccountObject } from "../../../src/accounts/account-object";
import { transition } from "../../../src/interviews/core/state-machine";
import { changedSeed, type SeedWrite } from "../../../src/interviews/creation/seed-commands";
import { readSeed, SEED_CHANGED_ERROR } from "../../../src/interviews/db/seeds-repo";
import { getDb } from "../../../src/platform/db/client";
import { admin, call, newAccount, validInterview } from "../../support/helpers";
import { createInterview, eventsOf, projectionOf, startInterview } from "../../support/lifecycle-helpers";
import { accountObject, profile, setAccountClock, setLimits } from "../../support/limits-helpers";

const T = Date.UTC(2031, 7, 3, 9, 0, 0);

/** Interviews made by one bulk request (one count), never opened. */
async function bulkOf(key: string, n: number, tag: string): Promise<string[]> {
	const res = await call("POST", "/v1/interviews/bulk", {
		key,
		body: {
			interviews: Array.from({ length: n }, (_, i) =>
				validInterview({ candidate_email: `${tag}${i}@example.com`, send_invitation: false }),
			),
		},
	});
	if (res.status !== 200 && res.status !== 201) throw new Error(`bulk failed: ${JSON.stringify(res.body)}`);
	return res.body.data.successful.map((s: { interview: { id: string } }) => s.interview.id);
}

/** A cancel of the interview's seed decided as the Worker decides it: the write it sends. */
async function cancelWrite(id: string, expectedVersion?: number): Promise<SeedWrite> {
	const seed = await readSeed(getDb(env.DB), id);
	if (!seed) throw new Error(`no seed for ${id}`);
	const now = Date.now();
	const next = transition(
		seed.state,
		{ type: "cancel", reason: "grouped", sendNotification: false, refundCredits: true },
		now,
	);
	if (!next.ok) throw new Error("cancel refused");
	const change = changedSeed(seed, next.state, next.effects, now);
	return { seed: change.seed, expectedVersion: expectedVersion ?? seed.state.version, items: change.items };
}

/** Seeds the account object has read and changes it has committed so far. */
function changesWritten(accountId: string): Promise<{ reads: number; writes: number }> {
	return runInDurableObject(accountObject(accountId), (instance: AccountObject) => ({
		reads: instance.seedReads.stats.writes,
		writes: instance.changes.stats.writes,
	}));
}

/**
 * Runs `work` in the account's object and says how many batches its group (`changes` or
 * `seedReads`) ran meanwhile, and the largest group it has run.
 */
function inGroups<T>(
	accountId: string,
	group: "changes" | "seedReads",
	work: (instance: AccountObject) => Promise<T>,
): Promise<{ outcomes: T; batches: number; largest: number }> {
	return runInDurableObject(accountObject(accountId), async (instance: AccountObject) => {
		const before = instance[group].stats.batches;
		const outcomes = await work(instance);
		return {
			outcomes,
			batches: instance[group].stats.batches - before,
			largest: instance[group].stats.largestGroup,
		};
	});
}

describe("a change of a never-opened interview in one call to the account object", () => {
	it("cancels exactly the rate limit of a parallel burst and changes nothing for the refused", async () => {
		const account = await newAccount();
		await setAccountClock(account.id, T);
		const ids = await bulkOf(account.test, 10, "burst");
		// The bulk and two reads that cache the key at the new limits' version: six more fit in nine.
		await setLimits(account.id, { requests_per_minute: 9 });
		for (let i = 0; i < 2; i++)
			expect((await call("GET", "/v1/account/profile", { key: account.test })).status).toBe(200);
		const before = await changesWritten(account.id);
		const responses = await Promise.all(
			ids.map((id) => call("DELETE", `/v1/interviews/${id}`, { key: account.test })),
		);
		const cancelled = responses.filter((r) => r.status === 200);
		expect(cancelled).toHaveLength(6);
		expect(responses.filter((r) => r.body.error?.code === "RATE_LIMIT_EXCEEDED")).toHaveLength(4);
		const left = cancelled.map((r) => Number(r.headers.get("X-RateLimit-Remaining"))).sort((a, b) => a - b);
		expect(left).toEqual([0, 1, 2, 3, 4, 5]);
		// Read and written by the account object's groups, with their counts; the refused read nothing.
		const after = await changesWritten(account.id);
		expect({ reads: after.reads - before.reads, writes: after.writes - before.writes }).toEqual({
			reads: 6,
			writes: 6,
		});
		for (const [i, id] of ids.entries()) {
			const done = responses[i]?.status === 200;
			expect((await projectionOf(id))?.status).toBe(done ? "cancelled" : "scheduled");
			expect((await readSeed(getDb(env.DB), id))?.state.status).toBe(done ? "cancelled" : "scheduled");
			expect((await eventsOf(id)).map((e) => e.type)).toEqual(
				done ? ["interview.scheduled", "interview.cancelled"] : ["interview.scheduled"],
			);
		}
	});

	it("counts each change once, whether the account object writes it, D1 refuses it or the interview's object runs it", async () => {
		const account = await newAccount();
		await setAccountClock(account.id, T);
		const [seeded] = await bulkOf(account.test, 1, "once");
		const opened = await startInterview(account.test);
		const usage = async () => (await profile(account.test)).rate_limit.current_usage as number;
		const steps: [string, string, Record<string, unknown> | undefined, number][] = [
			["PATCH", `/v1/interviews/${seeded}`, { position: "Staff Engineer" }, 200],
			["PATCH", `/v1/interviews/${seeded}`, { position: "Principal Engineer" }, 200],
			["DELETE", `/v1/interviews/${seeded}`, undefined, 200],
			// Refused by the decision (no write): counted after the refusal.
			["DELETE", `/v1/interviews/${seeded}`, undefined, 409],
			["PATCH", `/v1/interviews/${seeded}`, { position: 7 }, 400],
			// The interview's object runs these.
			["PATCH", `/v1/interviews/${opened.id}`, { position: "Too late" }, 409],
			["DELETE", "/v1/interviews/int_000000000000000000000000", undefined, 404],
		];
		for (const [method, path, body, status] of steps) {
			const before = await usage();
			const res = await call(method, path, { key: account.test, body });
			expect(res.status, `${method} ${path}`).toBe(status);
			// The profile read itself counts one, the step one.
			expect(await usage(), `${method} ${path}`).toBe(before + 2);
		}
		expect((await projectionOf(seeded as string))?.position).toBe("Principal Engineer");
	});

	it("answers 429 to a change over the limit and leaves the seed, its projection and its events as they were", async () => {
		const account = await newAccount();
		await setAccountClock(account.id, T);
		const [id] = await bulkOf(account.test, 1, "over");
		await setLimits(account.id, { requests_per_minute: 1 });
		for (const [method, body] of [
			["PATCH", { position: "Over the limit" }],
			["DELETE", undefined],
		] as const) {
			const res = await call(method, `/v1/interviews/${id}`, { key: account.test, body });
			expect(res.status).toBe(429);
			expect(res.body.error.code).toBe("RATE_LIMIT_EXCEEDED");
		}
		const seed = await readSeed(getDb(env.DB), id as string);
		expect(seed?.state).toMatchObject({ status: "scheduled", position: "Backend Engineer", version: 1 });
		expect(await projectionOf(id as string)).toMatchObject({
			status: "scheduled",
			position: "Backend Engineer",
		});
		expect((await eventsOf(id as string)).map((e) => e.type)).toEqual(["interview.scheduled"]);
	});

	it("decides again with the key read afresh when the cached key changed: a revoked key answers 401 and changes nothing", async () => {
		const account = await newAccount();
		const key = await account.key("test");
		const id = (await createInterview(key)).id;
		for (let i = 0; i < 3; i++) expect((await call("GET", "/v1/account/profile", { key })).status).toBe(200);
		const listed = await admin("GET", `/accounts/${account.id}`);
		const keyId = listed.body.data.keys.find((k: { key_prefix: string }) => key.startsWith(k.key_prefix)).id;
		expect((await admin("DELETE", `/accounts/${account.id}/keys/${keyId}`)).status).toBe(200);
		const refused = await call("DELETE", `/v1/interviews/${id}`, { key });
		expect(refused.status).toBe(401);
		expect((await projectionOf(id))?.status).toBe("scheduled");
		// Another key of the account, after a change of limits (every cached key stale): cancelled once.
		await setLimits(account.id, { requests_per_minute: 500 });
		const cancelled = await call("DELETE", `/v1/interviews/${id}`, { key: account.test });
		expect(cancelled.status).toBe(200);
		expect(cancelled.headers.get("X-RateLimit-Limit")).toBe("500");
		expect((await eventsOf(id)).filter((e) => e.type === "interview.cancelled")).toHaveLength(1);
	});

	it("commits the changes that arrive while one is being written together, in one D1 batch", async () => {
		const account = await newAccount();
		const ids = await bulkOf(account.test, 5, "group");
		const writes = await Promise.all(ids.map((id) => cancelWrite(id)));
		const { outcomes, batches, largest } = await inGroups(account.id, "changes", (instance) =>
			Promise.all(writes.map((write) => instance.changes.commit(write))),
		);
		expect(outcomes.map((o) => o.status)).toEqual(Array(5).fill("committed"));
		expect(batches).toBe(2);
		expect(largest).toBe(4);
		for (const id of ids) {
			expect((await projectionOf(id))?.status).toBe("cancelled");
			expect((await eventsOf(id)).map((e) => e.type)).toEqual(["interview.scheduled", "interview.cancelled"]);
		}
	});

	it("fails only the change whose seed moved: the others of its group are written alone", async () => {
		const account = await newAccount();
		const ids = await bulkOf(account.test, 3, "moved");
		const [first, second, third] = await Promise.all(ids.map((id) => cancelWrite(id)));
		// Decided against a version the seed no longer has (another change came first).
		const stale = await cancelWrite(ids[1] as string, 0);
		const outcomes = await runInDurableObject(accountObject(account.id), (instance: AccountObject) =>
			Promise.all([first, stale, second, third].map((write) => instance.changes.commit(write as SeedWrite))),
		);
		expect(outcomes.map((o) => o.status)).toEqual(["committed", "failed", "committed", "committed"]);
		const failed = outcomes[1];
		expect(failed?.status === "failed" && failed.error).toContain(SEED_CHANGED_ERROR);
		for (const id of ids) {
			expect((await projectionOf(id))?.status).toBe("cancelled");
			expect((await eventsOf(id)).filter((e) => e.type === "interview.cancelled")).toHaveLength(1);
		}
	});

	it("reads the seeds of changes that arrive while one read is in flight in one statement, null for none", async () => {
		const account = await newAccount();
		const ids = await bulkOf(account.test, 4, "read");
		const asked = [...ids, "int_000000000000000000000000"];
		const {
			outcomes: reads,
			batches,
			largest,
		} = await inGroups(account.id, "seedReads", (instance) =>
			Promise.all(asked.map((id) => instance.seedReads.commit(id))),
		);
		expect(batches).toBe(2);
		expect(largest).toBe(4);
		const db = getDb(env.DB);
		for (const [i, id] of asked.entries()) {
			const read = reads[i];
			expect(read?.status).toBe("committed");
			expect(read?.status === "committed" && read.result).toEqual(await readSeed(db, id));
		}
		expect(reads[4]?.status === "committed" && reads[4].result).toBeNull();
	});
});
