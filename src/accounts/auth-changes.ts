import { errorText } from "../platform/lib/error-text";
import { accountStub } from "./account-stub";

/**
 * Runs a D1 change to an account's keys, plan, limits or name between `beginAuthChange` and
 * `endAuthChange` on the account's object, so that no Worker isolate uses a cached key from
 * before it (auth-cache.ts). If the object cannot be told first, nothing is changed. If it cannot
 * be told afterwards, the account simply stays uncached until its next change, or for at most
 * five minutes: slower, never stale.
 */
export async function changingAuth<T>(env: Env, accountId: string, change: () => Promise<T>): Promise<T> {
	const account = accountStub(env, accountId);
	await account.beginAuthChange();
	try {
		return await change();
	} finally {
		await account.endAuthChange().catch((error: unknown) => {
			console.error(
				JSON.stringify({
					message: "ending a key change failed",
					account_id: accountId,
					error: errorText(error),
				}),
			);
		});
	}
}
