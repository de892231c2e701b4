import type { Context, MiddlewareHandler } from "hono";
import type { AppBindings } from "../http/context";
import { AppError } from "../http/errors";
import { startInterviewReadAhead } from "../interview/read-ahead";
import { accountStub } from "./account-stub";
import { lookupApiKey } from "./auth";
import { authCache } from "./auth-cache";
import type { RateDecision } from "./rate-limit";

/** Versioned attempts before a request is counted against a key read fresh from D1 regardless. */
const MAX_STALE_ATTEMPTS = 3;

/**
 * Counts every authenticated request against the account's per-minute limit in the account's
 * Durable Object (exact sliding window, on that object's clock) and puts the limit headers on the
 * response, errors too. Mounted after authentication, so 401s never count; refused requests are
 * not recorded, so 429s never count. The same call confirms a key taken from the isolate's cache.
 */
export const rateLimit: MiddlewareHandler<AppBindings> = async (c, next) => {
	startInterviewReadAhead(c);
	const decision = await admitRequest(c);
	c.header("X-RateLimit-Limit", String(decision.limit));
	c.header("X-RateLimit-Remaining", String(decision.remaining));
	c.header("X-RateLimit-Reset", String(decision.resetAt));
	c.header("X-RateLimit-Resource", "requests");
	c.set("rateUsage", decision.count);
	if (!decision.allowed) {
		const retryAfter = String(decision.retryAfter);
		throw new AppError(
			"RATE_LIMIT_EXCEEDED",
			`Rate limit of ${decision.limit} requests per minute exceeded; retry in ${retryAfter} s.`,
			{ retry_after: decision.retryAfter, limit: decision.limit },
			{
				headers: {
					"Retry-After": retryAfter,
					"X-RateLimit-Retry-After": retryAfter,
				},
			},
		);
	}
	await next();
};

/**
 * One call to the account object per request. When the request's key came from the cache at a
 * version that is no longer current, nothing was counted: the key is read from D1 again (a key
 * revoked meanwhile answers 401 here, uncounted) and the request is admitted against that.
 */
async function admitRequest(c: Context<AppBindings>): Promise<RateDecision> {
	for (let attempt = 0; ; attempt++) {
		const auth = c.get("auth");
		const version = attempt < MAX_STALE_ATTEMPTS ? c.get("authVersion") : null;
		const admission = await accountStub(c.env, auth.accountId).admit(
			auth.limits.requests_per_minute,
			version,
		);
		authCache.observe(auth.accountId, admission.version, admission.cacheable);
		if (admission.status === "counted") return admission.decision;
		const { token, hash } = c.get("apiKey");
		authCache.forget(hash);
		const before = authCache.snapshot(hash);
		const fresh = await lookupApiKey(c, token, hash);
		c.set("auth", fresh);
		c.set("authVersion", authCache.remember(hash, fresh, before));
	}
}
