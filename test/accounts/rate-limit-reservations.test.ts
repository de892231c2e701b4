import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { AccountObject } from "../../src/accounts/account-object";
import { loadWindow } from "../../src/accounts/account-storage";
import { decide, WINDOW_MS } from "../../src/accounts/rate-limit";
import { call, newAccount } from "../support/helpers";
import { accountObject, setAccountClock, setLimits } from "../support/limits-helpers";

const T = Date.UTC(2031, 7, 3, 10, 0, 0);

/** The object's in-memory window and the window it would reload from SQLite after a restart. */
async function windows(accountId: string, now: number): Promise<{ memory: number[]; stored: number[] }> {
	return runInDurableObject(accountObject(accountId), (instance: AccountObject, state) => ({
		memory: [...(instance as unknown as { hits: number[] }).hits],
		stored: loadWindow(state.storage.sql, now - WINDOW_MS),
	}));
}

describe("the rate window in SQLite", () => {
	it("covers every counted request, so a restarted object is never more permissive", async () => {
		const account = await newAccount();
		await setLimits(account.id, { requests_per_minute: 300 });
		// 120 requests over 90 seconds, 750 ms apart: reservations start and run out along the way.
		for (let i = 0; i < 120; i++) {
			await setAccountClock(account.id, T + i * 750);
			expect((await call("GET", "/v1/account/profile", { key: account.live })).status).toBe(200);
		}
		for (let at = T + 89_000; at <= T + 160_000; at += 2_500) {
			const { memory, stored } = await windows(account.id, at);
			const live = decide(memory, 300, at);
			const reloaded = decide(stored, 300, at);
			expect(reloaded.count).toBeGreaterThanOrEqual(live.count);
			expect(reloaded.remaining).toBeLessThanOrEqual(live.remaining);
		}
	});

	it("writes far fewer rows than requests when the limit is far away, and one per request near it", async () => {
		const roomy = await newAccount();
		await setLimits(roomy.id, { requests_per_minute: 100_000 });
		await setAccountClock(roomy.id, T);
		for (let i = 0; i < 50; i++) await call("GET", "/v1/account/profile", { key: roomy.live });
		const roomyRows = await runInDurableObject(
			accountObject(roomy.id),
			(_: AccountObject, state) =>
				state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM hits").one().n,
		);
		// Each reservation twice the last while the traffic goes on: 1, 2, 4, 8, 16 and 32.
		expect(roomyRows).toBe(6);

		const tight = await newAccount();
		await setLimits(tight.id, { requests_per_minute: 12 });
		await setAccountClock(tight.id, T);
		for (let i = 0; i < 12; i++) await call("GET", "/v1/account/profile", { key: tight.live });
		const tightRows = await runInDurableObject(
			accountObject(tight.id),
			(_: AccountObject, state) =>
				state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM hits").one().n,
		);
		expect(tightRows).toBe(12);
	});

	it("persists sparse requests one by one, so a restarted object counts exactly them", async () => {
		const account = await newAccount();
		await setLimits(account.id, { requests_per_minute: 60 });
		// 1.5 s apart: each reservation has ended before the next request.
		for (let i = 0; i < 10; i++) {
			await setAccountClock(account.id, T + i * 1_500);
			expect((await call("GET", "/v1/account/profile", { key: account.live })).status).toBe(200);
		}
		const at = T + 15_000;
		const { memory, stored } = await windows(account.id, at);
		expect(memory).toHaveLength(10);
		expect(stored).toHaveLength(10);
		expect(decide(stored, 60, at).remaining).toBe(decide(memory, 60, at).remaining);
	});

	it("cuts a reservation that ended with places unused to the requests it covered", async () => {
		const account = await newAccount();
		await setLimits(account.id, { requests_per_minute: 100_000 });
		await setAccountClock(account.id, T);
		for (let i = 0; i < 50; i++) await call("GET", "/v1/account/profile", { key: account.live });
		// After the burst, the newest reservation (32 places) still holds its unused ones...
		const burst = await windows(account.id, T);
		expect(burst.memory).toHaveLength(50);
		expect(burst.stored.length).toBeGreaterThan(50);
		expect(burst.stored.length).toBeLessThan(63 + 1);
		// ...until the next request, three seconds on, writes the next one (of one place: the
		// burst is over) and cuts it.
		await setAccountClock(account.id, T + 3_000);
		await call("GET", "/v1/account/profile", { key: account.live });
		const after = await windows(account.id, T + 3_000);
		expect(after.memory).toHaveLength(51);
		expect(after.stored).toHaveLength(51);
	});

	it("counts sparse requests exactly across evictions of the object, as the contract's window does", async () => {
		const account = await newAccount();
		await setLimits(account.id, { requests_per_minute: 60 });
		for (let i = 0; i < 20; i++) {
			// The object leaves memory between requests (as an idle one does) and reloads its window.
			await evictDurableObject(accountObject(account.id));
			await setAccountClock(account.id, T + i * 1_500);
			const res = await call("GET", "/v1/account/profile", { key: account.live });
			expect(res.status).toBe(200);
			expect(res.body.data.rate_limit.current_usage).toBe(i + 1);
			expect(res.headers.get("X-RateLimit-Remaining")).toBe(String(60 - (i + 1)));
		}
	});
});
