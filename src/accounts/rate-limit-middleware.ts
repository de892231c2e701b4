import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { IDEMPOTENCY_HEADER } from "../idempotency/middleware";
import { startInterviewReadAhead } from "../interviews/api/read-ahead";
import type { AppBindings } from "../platform/http/context";
import { AppError } from "../platform/http/errors";
import { type Admission, accountStub } from "./account-stub";
import { lookupApiKey } from "./auth";
import { authCache } from "./auth-cache";
import { ietfRateLimitHeaders, type RateDecision } from "./rate-limit";

/** Versioned attempts before a request is counted against a key read fresh from D1 regardless. */
const MAX_STALE_ATTEMPTS = 3;

/**
 * Counts every authenticated request against the account's per-minute limit in the account's
 * Durable Object (exact sliding window, on that object's clock) and puts the limit headers on the
 * response, errors too. Mounted after authentication, so 401s never count; refused requests are
 * not recorded, so 429s never count. The same call confirms a key taken from the isolate's cache.
 *
 * A single create defers its count (`admissionDeferred`): the handler sends the count with the
 * write in one call to the account object (`createAtOnce`), which counts first and writes only if
 * the request is allowed. A create refused before that (its scope, its body) is counted here after
 * the refusal and answers 429 instead if over the limit, so the order of checks is unchanged; one
 * with an Idempotency-Key is counted before the key is taken (`countedBeforeIdempotency`).
 */
export const rateLimit: MiddlewareHandler<AppBindings> = async (c, next) => {
	startInterviewReadAhead(c);
	if (!admissionDeferred(c)) {
		await settleAdmission(c);
		await next();
		return;
	}
	c.set("admission", "deferred");
	await next();
	await settleAdmission(c);
};

/** The route whose count waits for its write: a single create, under either prefix. */
const DEFERRED_ROUTES = new Set(["/v1/interviews", "/api/v1/interviews"]);

function admissionDeferred(c: Context<AppBindings>): boolean {
	return matchedRoutes(c).some((route) => route.method === "POST" && DEFERRED_ROUTES.has(route.path));
}

/**
 * Counts the request unless it already was: `answer` is the account object's answer when the
 * caller already has it (the create's combined call). Sets the limit headers; 429 when refused.
 * After a stale answer the key is read again (401 if it was revoked meanwhile) and the request is
 * counted with it: `c.get("auth")` is then the fresh key.
 */
export async function settleAdmission(c: Context<AppBindings>, answer?: Admission): Promise<void> {
	if (c.get("admission") === "settled") return;
	c.set("admission", "settled");
	const decision = await admitRequest(c, answer);
	c.header("X-RateLimit-Limit", String(decision.limit));
	c.header("X-RateLimit-Remaining", String(decision.remaining));
	c.header("X-RateLimit-Reset", String(decision.resetAt));
	c.header("X-RateLimit-Resource", "requests");
	for (const [name, value] of Object.entries(ietfRateLimitHeaders(decision, c.get("now"))))
		c.header(name, value);
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
}

/** Whether the request's count still waits for its write (see `rateLimit`). */
export function admissionPending(c: Context<AppBindings>): boolean {
	return c.get("admission") === "deferred";
}

/** A create with an Idempotency-Key takes the key in D1: it is counted before that, as usual. */
export const countedBeforeIdempotency: MiddlewareHandler<AppBindings> = async (c, next) => {
	if (c.req.header(IDEMPOTENCY_HEADER) !== undefined) await settleAdmission(c);
	await next();
};

/**
 * One call to the account object per request. When the request's key came from the cache at a
 * version that is no longer current, nothing was counted: the key is read from D1 again (a key
 * revoked meanwhile answers 401 here, uncounted) and the request is admitted against that.
 */
async function admitRequest(c: Context<AppBindings>, answer?: Admission): Promise<RateDecision> {
	let first = answer;
	for (let attempt = 0; ; attempt++) {
		const auth = c.get("auth");
		const version = attempt < MAX_STALE_ATTEMPTS ? c.get("authVersion") : null;
		const admission =
			first ?? (await accountStub(c.env, auth.accountId).admit(auth.limits.requests_per_minute, version));
		first = undefined;
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
