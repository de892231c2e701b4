import { runInDurableObject } from "cloudflare:test";
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
		expect(roomyRows).toBe(1);

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
});
