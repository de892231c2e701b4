import type { Context, MiddlewareHandler } from "hono";
import type { AppBindings } from "../platform/http/context";
import { AppError } from "../platform/http/errors";
import {
	accountStub,
	type ChangeAtOnceOutcome,
	type ChangeRequest,
	type CountAnswer,
	type CreateAtOnceOutcome,
	type CreateAtOnceRequest,
} from "./account-stub";
import { lookupApiKey } from "./auth";
import { authCache } from "./auth-cache";
import type { AuthContext } from "./auth-context";
import { ietfRateLimitHeaders, type RateDecision } from "./rate-limit";

declare module "hono" {
	interface ContextVariableMap {
		/** The request's count against the account's rate limit, taken when its route says (`RequestCount`). */
		requestCount: RequestCount;
		/** Requests counted in the account's rate window, this one included. */
		rateUsage: number;
	}
}

/** Versioned attempts before a request is counted against a key read fresh from D1 regardless. */
const MAX_STALE_ATTEMPTS = 3;

/**
 * The request's count against the account's per-minute limit, in the account's Durable Object
 * (exact sliding window, on that object's clock). The same call confirms a key taken from the
 * isolate's cache. Nothing is counted until the route asks, so that each route decides how the
 * count goes with its own work, in the order of checks (route, authentication, rate limit,
 * scope, validation, idempotency):
 * - most routes count before their scope check (`requireScope` calls `counted`; a route without
 *   a scope mounts `counted` itself);
 * - the single fetch starts its read of the interview first, so the two calls overlap
 *   (src/interviews/api/read-ahead.ts);
 * - a single create sends the count with its write (`countWithWrite`, then `withCreate`): one
 *   call to the account object counts, admits and writes. Refused before that (its scope, its
 *   body), it is counted after the refusal and answers 429 instead if over the limit, so the
 *   order of checks is unchanged; with an Idempotency-Key it is counted before the key is taken;
 * - a cancel or update of an interview not yet opened does the same with its seed's change
 *   (`withChange`); one that goes to the interview's object is counted before it (`counted`).
 * The limit headers go on the response, errors too; refused requests are not recorded, so 429s
 * never count.
 */
export class RequestCount {
	private counting: Promise<void> | null = null;
	private withWrite = false;

	constructor(private readonly c: Context<AppBindings>) {}

	/** Whether nothing has counted the request yet (nor is counting it). */
	get pending(): boolean {
		return this.counting === null;
	}

	/** Whether the route sends the count with its write (`countWithWrite`). */
	get goesWithWrite(): boolean {
		return this.withWrite;
	}

	/** Marks the count as going with the route's write: the scope check does not take it. */
	sendWithWrite(): void {
		this.withWrite = true;
	}

	/** Counts the request, once: sets the limit headers, and throws 429 when it is refused. */
	counted(): Promise<void> {
		this.counting ??= this.apply();
		return this.counting;
	}

	/**
	 * A single create in one call to the account object (`createAtOnce`): the count, a live
	 * interview's admission and the write. The count's answer is applied as `counted` applies it
	 * (429 when refused). After a stale answer nothing was taken or written, and the request is
	 * counted with the key read again: `auth` is the key as it then stands.
	 */
	withCreate(
		create: Pick<CreateAtOnceRequest, "admissions" | "write">,
	): Promise<CreateAtOnceOutcome & { auth: AuthContext }> {
		return this.inOneCall("withCreate", (stub, count) => stub.createAtOnce({ ...count, ...create }));
	}

	/**
	 * A change of an interview not yet opened in one call to the account object (`changeAtOnce`):
	 * the count, applied as `counted` applies it (429 when refused), then the change decided
	 * against its seed and written. After a stale answer nothing was read or written and the
	 * request is counted with the key read again: `auth` is the key as it then stands, and the
	 * caller decides again with it.
	 */
	withChange(change: ChangeRequest): Promise<ChangeAtOnceOutcome & { auth: AuthContext }> {
		return this.inOneCall("withChange", (stub, count) => stub.changeAtOnce({ ...count, change }));
	}

	/** One call to the account object that counts the request with the route's work; its count applied. */
	private async inOneCall<O extends { count: CountAnswer }>(
		name: string,
		call: (
			stub: ReturnType<typeof accountStub>,
			count: { limit: number; version: number | null },
		) => Promise<O>,
	): Promise<O & { auth: AuthContext }> {
		if (!this.pending) throw new Error(`${name}: the request was counted already`);
		const c = this.c;
		const auth = c.get("auth");
		const outcome = await call(accountStub(c.env, auth.accountId), {
			limit: auth.limits.requests_per_minute,
			version: c.get("authVersion"),
		});
		this.counting = this.apply(outcome.count);
		await this.counting;
		return { ...outcome, auth: c.get("auth") };
	}

	/**
	 * Counts the request (`answer`: the account object's answer when the caller already has it,
	 * from the create's combined call). Sets the limit headers; 429 when refused. After a stale
	 * answer the key is read again (401 if it was revoked meanwhile) and the request is counted
	 * with it: `c.get("auth")` is then the fresh key.
	 */
	private async apply(answer?: CountAnswer): Promise<void> {
		const c = this.c;
		const decision = await countRequest(c, answer);
		c.header("X-RateLimit-Limit", String(decision.limit));
		c.header("X-RateLimit-Remaining", String(decision.remaining));
		c.header("X-RateLimit-Reset", String(decision.resetAt));
		c.header("X-RateLimit-Resource", "requests");
		for (const [name, value] of Object.entries(ietfRateLimitHeaders(decision, c.get("now")))) {
			c.header(name, value);
		}
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
}

/**
 * Mounted after authentication, so 401s never count: puts the request's `RequestCount` on it.
 * A request its route refused before anything counted it is counted after the refusal.
 */
export const rateLimit: MiddlewareHandler<AppBindings> = async (c, next) => {
	const count = new RequestCount(c);
	c.set("requestCount", count);
	await next();
	if (count.pending) await count.counted();
};

/** Counts the request now: for a route without a scope check, which counts it otherwise. */
export const counted: MiddlewareHandler<AppBindings> = async (c, next) => {
	await c.get("requestCount").counted();
	await next();
};

/** Mounted first on a route whose count goes with its write (`RequestCount.withCreate`). */
export const countWithWrite: MiddlewareHandler<AppBindings> = async (c, next) => {
	c.get("requestCount").sendWithWrite();
	await next();
};

/**
 * One call to the account object per request. When the request's key came from the cache at a
 * version that is no longer current, nothing was counted: the key is read from D1 again (a key
 * revoked meanwhile answers 401 here, uncounted) and the request is counted against that.
 */
async function countRequest(c: Context<AppBindings>, answer?: CountAnswer): Promise<RateDecision> {
	let first = answer;
	for (let attempt = 0; ; attempt++) {
		const auth = c.get("auth");
		const version = attempt < MAX_STALE_ATTEMPTS ? c.get("authVersion") : null;
		const count =
			first ??
			(await accountStub(c.env, auth.accountId).countRequest(auth.limits.requests_per_minute, version));
		first = undefined;
		authCache.observe(auth.accountId, count.version, count.cacheable);
		if (count.status === "counted") return count.decision;
		const { token, hash } = c.get("apiKey");
		authCache.forget(hash);
		const before = authCache.snapshot(hash);
		const fresh = await lookupApiKey(c, token, hash);
		c.set("auth", fresh);
		c.set("authVersion", authCache.remember(hash, fresh, before));
	}
}
