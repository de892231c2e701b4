import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { AccountObject } from "../../src/accounts/account-object";
import { admin, call } from "./helpers";

export function accountObject(accountId: string) {
	return env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
}

/** Sets the account object's clock (rate limit window) to `at`, instead of waiting. */
export async function setAccountClock(accountId: string, at: number): Promise<void> {
	await runInDurableObject(accountObject(accountId), (instance: AccountObject) => {
		instance.clock = () => at;
	});
}

export async function setLimits(
	accountId: string,
	limits: {
		requests_per_minute?: number | null;
		concurrent_interviews?: number | null;
		monthly_interviews?: number | null;
	},
): Promise<void> {
	const res = await admin("PATCH", `/accounts/${accountId}`, { limits });
	if (res.status !== 200) throw new Error(`limits not set: ${JSON.stringify(res.body)}`);
}

export async function profile(key: string) {
	const res = await call("GET", "/v1/account/profile", { key });
	if (res.status !== 200) throw new Error(`profile failed: ${JSON.stringify(res.body)}`);
	return res.body.data;
}

export async function countRows(sql: string, ...params: unknown[]): Promise<number> {
	const row = await env.DB.prepare(sql)
		.bind(...params)
		.first<{ n: number }>();
	return row?.n ?? 0;
}
