import type { MiddlewareHandler } from "hono";
import type { AppBindings } from "../http/context";
import { AppError } from "../http/errors";
import { accountStub } from "./account-stub";

/**
 * Counts every authenticated request against the account's per-minute limit in the account's
 * Durable Object (exact sliding window, on that object's clock) and puts the limit headers on the
 * response, errors too. Mounted after authentication, so 401s never count; refused requests are
 * not recorded, so 429s never count.
 */
export const rateLimit: MiddlewareHandler<AppBindings> = async (c, next) => {
	const auth = c.get("auth");
	const decision = await accountStub(c.env, auth.accountId).hit(auth.limits.requests_per_minute);
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
