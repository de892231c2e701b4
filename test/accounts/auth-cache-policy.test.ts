import { describe, expect, it } from "vitest";
import { AuthCache } from "../../src/accounts/auth-cache";
import type { AuthContext } from "../../src/accounts/auth-context";
import { effectiveLimits } from "../../src/accounts/plans";

const auth = (accountId: string, expiresAt: number | null = null): AuthContext => ({
	accountId,
	companyName: "Acme",
	plan: "enterprise",
	limits: effectiveLimits("enterprise", {
		requests_per_minute: null,
		concurrent_interviews: null,
		monthly_interviews: null,
	}),
	keyId: "key_1",
	keyEnvironment: "live",
	dataEnvironment: "production",
	permissions: ["interviews:read"],
	expiresAt,
});

describe("AuthCache", () => {
	it("does not cache a key whose account version was not observed before the D1 read", () => {
		const cache = new AuthCache();
		expect(cache.snapshot("h1")).toBeNull();
		expect(cache.remember("h1", auth("acc_a"), null)).toBeNull();
		expect(cache.get("h1", 0)).toBeNull();
	});

	it("caches with the version observed before the read, once the key's account is known", () => {
		const cache = new AuthCache();
		cache.remember("h1", auth("acc_a"), cache.snapshot("h1"));
		cache.observe("acc_a", 7, true);
		const before = cache.snapshot("h1");
		expect(before).toEqual({ accountId: "acc_a", version: 7 });
		expect(cache.remember("h1", auth("acc_a"), before)).toBe(7);
		expect(cache.get("h1", 0)).toMatchObject({ version: 7, auth: { accountId: "acc_a" } });
	});

	it("caches nothing while the account reports a change in progress", () => {
		const cache = new AuthCache();
		cache.remember("h1", auth("acc_a"), null);
		cache.observe("acc_a", 8, false);
		expect(cache.snapshot("h1")).toBeNull();
	});

	it("refuses a snapshot taken for another account than the one D1 returned", () => {
		const cache = new AuthCache();
		expect(cache.remember("h1", auth("acc_b"), { accountId: "acc_a", version: 1 })).toBeNull();
		expect(cache.get("h1", 0)).toBeNull();
	});

	it("drops an entry once its key has expired, so D1 answers API_KEY_EXPIRED", () => {
		const cache = new AuthCache();
		cache.remember("h1", auth("acc_a", 1_000), { accountId: "acc_a", version: 1 });
		expect(cache.get("h1", 999)).not.toBeNull();
		expect(cache.get("h1", 1_000)).toBeNull();
		expect(cache.get("h1", 0)).toBeNull();
	});

	it("forgets an entry on demand and stays within its size, oldest out first", () => {
		const cache = new AuthCache(2);
		for (const h of ["h1", "h2", "h3"]) cache.remember(h, auth("acc_a"), { accountId: "acc_a", version: 1 });
		expect(cache.size).toBe(2);
		expect(cache.get("h1", 0)).toBeNull();
		expect(cache.get("h3", 0)).not.toBeNull();
		cache.forget("h3");
		expect(cache.get("h3", 0)).toBeNull();
	});
});
