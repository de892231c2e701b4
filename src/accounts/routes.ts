import { Hono } from "hono";
import { getDb } from "../platform/db/client";
import type { AppBindings } from "../platform/http/context";
import { ok } from "../platform/http/envelope";
import { noQuery, validate } from "../platform/http/validation";
import { iso, isoOrNull } from "../platform/lib/time";
import { accountStub } from "./account-stub";
import { creditBalance } from "./accounts-repo";
import type { AuthContext } from "./auth-context";
import { permissionsOperation, profileOperation, verifyOperation } from "./openapi";
import { monthPeriod, monthResetsAt } from "./quota";
import { monthlyInterviewsUsed } from "./quota-repo";
import { counted } from "./rate-limit-middleware";

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

accountRoutes.get("/account/profile", profileOperation, counted, validate("query", noQuery), async (c) => {
	const auth = c.get("auth");
	const now = c.get("now");
	const db = getDb(c.env.DB);
	const [credits, monthlyUsed, slots] = await Promise.all([
		creditBalance(db, auth.accountId),
		monthlyInterviewsUsed(db, auth.accountId, monthPeriod(now)),
		accountStub(c.env, auth.accountId).slotUsage(),
	]);
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
		usage: {
			monthly_interviews_used: monthlyUsed,
			monthly_interviews_limit: auth.limits.monthly_interviews,
			monthly_interviews_resets_at: iso(monthResetsAt(now)),
			concurrent_interviews_in_progress: slots.active,
			concurrent_interviews_limit: auth.limits.concurrent_interviews,
		},
	});
});

accountRoutes.get("/auth/verify", verifyOperation, counted, validate("query", noQuery), (c) => {
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

accountRoutes.get("/auth/permissions", permissionsOperation, counted, validate("query", noQuery), (c) => {
	const auth = c.get("auth");
	return ok(c, { permissions: auth.permissions, key: keyInfo(auth) });
});
