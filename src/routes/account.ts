import { Hono } from "hono";
import type { AuthContext } from "../accounts/auth";
import { creditBalance } from "../db/accounts-repo";
import { getDb } from "../db/client";
import type { AppBindings } from "../http/context";
import { ok } from "../http/envelope";
import { isoOrNull } from "../lib/time";

/** Any valid key may read these: they exist so callers can check a key and what it may do. */
export const accountRoutes = new Hono<AppBindings>();

function keyInfo(auth: AuthContext) {
	return {
		id: auth.keyId,
		environment: auth.keyEnvironment,
		test_mode: auth.keyEnvironment !== "live",
		expires_at: isoOrNull(auth.expiresAt),
	};
}

accountRoutes.get("/account/profile", async (c) => {
	const auth = c.get("auth");
	const credits = await creditBalance(getDb(c.env.DB), auth.accountId);
	return ok(c, {
		account_id: auth.accountId,
		company_name: auth.companyName,
		plan: auth.plan,
		api_key_permissions: auth.permissions,
		rate_limit: {
			requests_per_minute: auth.limits.requests_per_minute,
			current_usage: c.get("rateUsage"),
		},
		credits_balance: credits,
	});
});

accountRoutes.get("/auth/verify", (c) => {
	const auth = c.get("auth");
	return ok(c, {
		valid: true,
		account: {
			id: auth.accountId,
			company_name: auth.companyName,
			plan: auth.plan,
		},
		key: keyInfo(auth),
	});
});

accountRoutes.get("/auth/permissions", (c) => {
	const auth = c.get("auth");
	return ok(c, { permissions: auth.permissions, key: keyInfo(auth) });
});
