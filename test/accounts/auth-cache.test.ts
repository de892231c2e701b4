import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountStub } from "../../src/accounts/account-stub";
import { authCache } from "../../src/accounts/auth-cache";
import { hashApiKey } from "../../src/accounts/keys";
import { admin, call, newAccount, validInterview } from "../support/helpers";
import { profile, setAccountClock, setLimits } from "../support/limits-helpers";

/** Enough requests for the key to be cached: the first reads D1, the second caches it. */
async function warm(key: string): Promise<void> {
	for (let i = 0; i < 3; i++) expect((await call("GET", "/v1/account/profile", { key })).status).toBe(200);
	expect(authCache.get(await hashApiKey(key), Date.now())).not.toBeNull();
}

async function keyIdOf(accountId: string, key: string): Promise<string> {
	const listed = await admin("GET", `/accounts/${accountId}`);
	return listed.body.data.keys.find((k: { key_prefix: string }) => key.startsWith(k.key_prefix)).id;
}

/** Writes D1 behind the admin API's back: the only way to see whether a cached key is in use. */
async function setOverrideInD1(accountId: string, requestsPerMinute: number): Promise<void> {
	await env.DB.prepare("UPDATE accounts SET requests_per_minute_override = ? WHERE id = ?")
		.bind(requestsPerMinute, accountId)
		.run();
}

const limitOf = async (key: string) =>
	(await call("GET", "/v1/account/profile", { key })).headers.get("X-RateLimit-Limit");

describe("the isolate's key cache", () => {
	it("is used: a D1 change made behind the admin API is not seen while the cached key is current", async () => {
		const account = await newAccount();
		await warm(account.live);
		await setOverrideInD1(account.id, 4321);
		expect(await limitOf(account.live)).toBe("1000");
		// Any change through the admin API makes every cached key of the account stale at once.
		expect((await admin("PATCH", `/accounts/${account.id}`, { company_name: "Renamed" })).status).toBe(200);
		expect(await limitOf(account.live)).toBe("4321");
	});

	it("refuses a cached key at once after its revocation, without counting the refused request", async () => {
		const account = await newAccount();
		const key = await account.key("live");
		await warm(key);
		const before = (await profile(account.test)).rate_limit.current_usage;
		const revoked = await admin("DELETE", `/accounts/${account.id}/keys/${await keyIdOf(account.id, key)}`);
		expect(revoked.status).toBe(200);
		const refused = await call("GET", "/v1/account/profile", { key });
		expect(refused.status).toBe(401);
		expect(refused.body.error.code).toBe("INVALID_API_KEY");
		// The profile call itself is the only new request in the window.
		expect((await profile(account.test)).rate_limit.current_usage).toBe(before + 1);
		expect(authCache.get(await hashApiKey(key), Date.now())).toBeNull();
	});

	it("applies limit, plan and name changes to the next request of a cached key", async () => {
		const account = await newAccount({ plan: "starter" });
		await warm(account.test);
		await setLimits(account.id, { requests_per_minute: 77 });
		expect(await limitOf(account.test)).toBe("77");
		await setLimits(account.id, { requests_per_minute: null });
		expect(await limitOf(account.test)).toBe("180");
		expect((await admin("PATCH", `/accounts/${account.id}`, { plan: "professional" })).status).toBe(200);
		const after = await profile(account.test);
		expect(after.plan).toBe("professional");
		expect(after.rate_limit.requests_per_minute).toBe(300);
		expect((await admin("PATCH", `/accounts/${account.id}`, { company_name: "Globex" })).status).toBe(200);
		const created = await call("POST", "/v1/interviews", { key: account.test, body: validInterview() });
		expect(created.status).toBe(201);
		expect(created.body.data.company_name).toBe("Globex");
	});

	it("caches nothing while a change is open, so every request reads D1 until it ends", async () => {
		const account = await newAccount();
		await warm(account.live);
		const object = accountStub(env, account.id);
		await object.beginAuthChange();
		await setOverrideInD1(account.id, 111);
		expect(await limitOf(account.live)).toBe("111");
		await setOverrideInD1(account.id, 222);
		expect(await limitOf(account.live)).toBe("222");
		expect(authCache.get(await hashApiKey(account.live), Date.now())).toBeNull();
		await object.endAuthChange();
		await warm(account.live);
		await setOverrideInD1(account.id, 333);
		expect(await limitOf(account.live)).toBe("222");
	});

	it("takes a change left open for more than five minutes as abandoned and caches again", async () => {
		const account = await newAccount();
		const t = Date.UTC(2031, 6, 1, 9, 0, 0);
		await setAccountClock(account.id, t);
		await accountStub(env, account.id).beginAuthChange();
		await setAccountClock(account.id, t + 4 * 60_000);
		await call("GET", "/v1/account/profile", { key: account.live });
		await call("GET", "/v1/account/profile", { key: account.live });
		expect(authCache.get(await hashApiKey(account.live), Date.now())).toBeNull();
		await setAccountClock(account.id, t + 5 * 60_000 + 1);
		await warm(account.live);
	});

	it("keeps one account's changes from touching another account's cached keys", async () => {
		const a = await newAccount();
		const b = await newAccount();
		await warm(a.live);
		await warm(b.live);
		await setOverrideInD1(b.id, 999);
		await setLimits(a.id, { requests_per_minute: 55 });
		expect(await limitOf(a.live)).toBe("55");
		expect(await limitOf(b.live)).toBe("1000");
	});
});
