import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { AccountObject } from "../../../src/accounts/account-object";
import type { AuthContext } from "../../../src/accounts/auth-context";
import { effectiveLimits } from "../../../src/accounts/plans";
import { createInterviewBody } from "../../../src/interviews/api/schemas";
import {
	type CreationWrite,
	createCommand,
	creationEvents,
	seedOf,
} from "../../../src/interviews/creation/creation";
import { newId } from "../../../src/platform/lib/random";
import { call, newAccount, validInterview } from "../../support/helpers";
import { accountObject, countRows, setAccountClock, setLimits } from "../../support/limits-helpers";

const T = Date.UTC(2031, 6, 1, 9, 0, 0);

/** A single create's write, as the Worker sends it to the account object. */
function creationWrite(accountId: string, email: string): CreationWrite {
	const auth: AuthContext = {
		accountId,
		companyName: "Acme Testing",
		plan: "enterprise",
		limits: effectiveLimits("enterprise", {
			requests_per_minute: null,
			concurrent_interviews: null,
			monthly_interviews: null,
		}),
		keyId: newId("key"),
		keyEnvironment: "test",
		dataEnvironment: "production",
		permissions: ["interviews:write"],
		expiresAt: null,
	};
	const now = Date.now();
	const seed = seedOf(
		createCommand(auth, {
			body: createInterviewBody.parse(validInterview({ candidate_email: email, send_invitation: false })),
			interview: { id: newId("int"), testMode: true, live: false, debitId: newId("msg") },
			options: { scheduledAt: now + 86_400_000, now, appUrl: "http://service.test" },
		}),
		now,
	);
	return { seeds: [seed], events: creationEvents(seed) };
}

const idOf = (write: CreationWrite) => write.seeds[0]?.state.id as string;

async function written(id: string): Promise<{ interviews: number; seeds: number; events: number }> {
	return {
		interviews: await countRows("SELECT count(*) AS n FROM interviews WHERE id = ?", id),
		seeds: await countRows("SELECT count(*) AS n FROM interview_seeds WHERE id = ?", id),
		events: await countRows("SELECT count(*) AS n FROM events WHERE interview_id = ?", id),
	};
}

describe("a single create in one call to the account object", () => {
	it("creates exactly the rate limit of a parallel burst of creates and writes nothing for the refused", async () => {
		const account = await newAccount();
		await setLimits(account.id, { requests_per_minute: 6 });
		await setAccountClock(account.id, T);
		const responses = await Promise.all(
			Array.from({ length: 10 }, (_, i) =>
				call("POST", "/v1/interviews", {
					key: account.test,
					body: validInterview({ candidate_email: `burst${i}@example.com` }),
				}),
			),
		);
		const created = responses.filter((r) => r.status === 201);
		expect(created).toHaveLength(6);
		expect(responses.filter((r) => r.body.error?.code === "RATE_LIMIT_EXCEEDED")).toHaveLength(4);
		const left = created.map((r) => Number(r.headers.get("X-RateLimit-Remaining"))).sort((a, b) => a - b);
		expect(left).toEqual([0, 1, 2, 3, 4, 5]);
		expect(new Set(created.map((r) => r.body.data.id)).size).toBe(6);
		for (const r of created)
			expect(await written(r.body.data.id)).toEqual({ interviews: 1, seeds: 1, events: 1 });
		expect(await countRows("SELECT count(*) AS n FROM interviews WHERE account_id = ?", account.id)).toBe(6);
		expect(await countRows("SELECT count(*) AS n FROM events WHERE account_id = ?", account.id)).toBe(6);
	});

	it("answers 429 to a create over the limit whatever its scope, body or Idempotency-Key, and takes no key", async () => {
		const account = await newAccount();
		const readOnly = await account.key("test", { permissions: ["interviews:read"] });
		await setLimits(account.id, { requests_per_minute: 2 });
		await setAccountClock(account.id, T);
		// Refused for its body, and counted: the next request sees one left.
		const invalid = await call("POST", "/v1/interviews", { key: account.test, body: { position: 7 } });
		expect(invalid.status).toBe(400);
		expect(invalid.headers.get("X-RateLimit-Remaining")).toBe("1");
		const ok = await call("POST", "/v1/interviews", { key: account.test, body: validInterview() });
		expect(ok.status).toBe(201);
		expect(ok.headers.get("X-RateLimit-Remaining")).toBe("0");

		const overInvalid = await call("POST", "/v1/interviews", { key: account.test, body: { position: 7 } });
		expect(overInvalid.status).toBe(429);
		expect(overInvalid.body.error.code).toBe("RATE_LIMIT_EXCEEDED");
		expect(overInvalid.headers.get("X-RateLimit-Remaining")).toBe("0");
		const overScope = await call("POST", "/api/v1/interviews", { key: readOnly, body: validInterview() });
		expect(overScope.status).toBe(429);
		const overKeyed = await call("POST", "/v1/interviews", {
			key: account.test,
			body: validInterview(),
			headers: { "Idempotency-Key": "over-the-limit" },
		});
		expect(overKeyed.status).toBe(429);
		expect(overKeyed.headers.get("Retry-After")).toBe("60");
		expect(
			await countRows("SELECT count(*) AS n FROM idempotency_keys WHERE account_id = ?", account.id),
		).toBe(0);
		expect(await countRows("SELECT count(*) AS n FROM interviews WHERE account_id = ?", account.id)).toBe(1);
	});

	it("commits the creates that arrive while one is being written together, in one D1 batch", async () => {
		const account = await newAccount();
		const writes = Array.from({ length: 5 }, (_, i) => creationWrite(account.id, `group${i}@example.com`));
		const { outcomes, batches, largest } = await runInDurableObject(
			accountObject(account.id),
			async (instance: AccountObject) => {
				const before = instance.creations.stats.batches;
				// All five are handed over before the first batch answers.
				const outcomes = await Promise.all(writes.map((write) => instance.creations.commit(write)));
				return {
					outcomes,
					batches: instance.creations.stats.batches - before,
					largest: instance.creations.stats.largestGroup,
				};
			},
		);
		expect(outcomes.map((o) => o.status)).toEqual(Array(5).fill("committed"));
		expect(batches).toBe(2);
		expect(largest).toBe(4);
		for (const write of writes)
			expect(await written(idOf(write))).toEqual({ interviews: 1, seeds: 1, events: 1 });
	});

	it("fails only the bad write of a failed group: the others are written alone", async () => {
		const account = await newAccount();
		const first = creationWrite(account.id, "first@example.com");
		const second = creationWrite(account.id, "second@example.com");
		const third = creationWrite(account.id, "third@example.com");
		// The same interview again: its seed exists once the first batch is in, so D1 refuses it.
		const duplicate = first;
		const outcomes = await runInDurableObject(accountObject(account.id), (instance: AccountObject) =>
			Promise.all([first, second, duplicate, third].map((write) => instance.creations.commit(write))),
		);
		expect(outcomes.map((o) => o.status)).toEqual(["committed", "committed", "failed", "committed"]);
		const failed = outcomes[2];
		expect(failed?.status === "failed" && failed.error).toMatch(/UNIQUE|constraint/i);
		for (const write of [first, second, third]) {
			expect(await written(idOf(write))).toEqual({ interviews: 1, seeds: 1, events: 1 });
		}
	});

	it("gives the Worker a stale answer and writes nothing when the cached key is out of date", async () => {
		const account = await newAccount();
		const write = creationWrite(account.id, "stale@example.com");
		const outcome = await runInDurableObject(accountObject(account.id), async (instance: AccountObject) => {
			await instance.beginAuthChange();
			await instance.endAuthChange();
			return instance.createAtOnce({ limit: 100, version: 0, admissions: [], write });
		});
		expect(outcome.count.status).toBe("stale");
		expect(outcome.commit).toBeUndefined();
		expect(await written(idOf(write))).toEqual({ interviews: 0, seeds: 0, events: 0 });
	});
});
