import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { getDb } from "../platform/db/client";
import type { AppBindings } from "../platform/http/context";
import { AppError, OutcomeUnknownError, validationError } from "../platform/http/errors";
import { errorText } from "../platform/lib/error-text";
import { randomBase62 } from "../platform/lib/random";
import { retrying } from "../platform/lib/retry";
import { idempotencyKeyTtlMs } from "../platform/lib/settings";
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_LOCK_MS, requestFingerprint } from "./fingerprint";
import { claimKey, completeKey, findKey, type KeyScope, releaseKey } from "./idempotency-repo";

declare module "hono" {
	interface ContextVariableMap {
		/**
		 * Set when a response that is not a 5xx still reports a failure of ours (a bulk's items
		 * refused with INTERNAL_ERROR): the idempotency key is released, not bound to it, so a
		 * retry with the same key runs again.
		 */
		idempotencyTransient: boolean;
	}
}

export const IDEMPOTENCY_HEADER = "Idempotency-Key";

/**
 * `Idempotency-Key` on a POST, PATCH or DELETE, as Stripe does it. Mounted on each such route
 * after its validators, so the order of checks is: scope, validation, idempotency, existence.
 * The first attempt takes the key (atomic in D1) and its response is stored for 24 hours unless
 * it is a 5xx; a retry with the same request gets that response again with
 * `Idempotent-Replayed: true`; one with another method, path, query or body gets 422
 * IDEMPOTENCY_KEY_REUSED; one while the first still runs gets 409 IDEMPOTENCY_KEY_IN_USE.
 */
export const idempotent: MiddlewareHandler<AppBindings> = async (c, next) => {
	const key = c.req.header(IDEMPOTENCY_HEADER);
	if (key === undefined) return next();
	if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
		throw validationError({
			[IDEMPOTENCY_HEADER]: "Must be 1 to 255 printable ASCII characters without spaces",
		});
	}
	const auth = c.get("auth");
	const now = c.get("now");
	const db = getDb(c.env.DB);
	const url = new URL(c.req.url);
	const fingerprint = await requestFingerprint({
		method: c.req.method,
		path: url.pathname,
		query: url.searchParams,
		body: c.req.method === "DELETE" ? "" : await c.req.text(),
	});
	const scope: KeyScope = { accountId: auth.accountId, environment: auth.keyEnvironment, key };
	// The lock is this attempt's own: the request id alone may be a client's (X-Request-Id), which
	// a client could send twice. The request id before the `#` is what a replay names as original.
	const lockId = `${c.get("requestId")}#${randomBase62(16)}`;
	// A key seen as taken can be released (a 5xx) before it is read: look again, a bounded number of times.
	for (let attempt = 0; attempt < 3; attempt++) {
		const claimed = await takeKey(c.env, scope, fingerprint, lockId, now);
		if (claimed) return runAndStore(c, next, scope, lockId);
		const row = await findKey(db, scope);
		if (!row) continue;
		if (row.fingerprint !== fingerprint) {
			throw new AppError(
				"IDEMPOTENCY_KEY_REUSED",
				"This Idempotency-Key was used with a different request; use a new key for a new request.",
				{ idempotency_key: key },
			);
		}
		if (row.state === "done" && row.responseStatus !== null && row.responseBody !== null) {
			// A refusal's own headers (a QUOTA_EXCEEDED's limits and Retry-After) describe the answer.
			for (const [name, value] of Object.entries(row.responseHeaders ?? {})) c.header(name, value);
			c.header("Idempotent-Replayed", "true");
			c.header("Original-Request-Id", requestIdOf(row.lockId));
			c.header("Content-Type", "application/json");
			return c.body(row.responseBody, row.responseStatus as ContentfulStatusCode);
		}
		break;
	}
	throw new AppError(
		"IDEMPOTENCY_KEY_IN_USE",
		"A request with this Idempotency-Key is still being processed; retry after it finishes.",
		{ idempotency_key: key },
		{ headers: { "Retry-After": "1" } },
	);
};

/** Takes a key for one attempt, with the lock's lease and the key's expiry (`claimKey`). */
export function takeKey(env: Env, scope: KeyScope, fingerprint: string, lockId: string, now: number) {
	return claimKey(getDb(env.DB), scope, {
		fingerprint,
		lockId,
		now,
		lockedUntil: now + IDEMPOTENCY_LOCK_MS,
		expiresAt: now + idempotencyKeyTtlMs(env),
	});
}

async function runAndStore(
	c: Context<AppBindings>,
	next: () => Promise<void>,
	scope: KeyScope,
	lockId: string,
): Promise<void> {
	const db = getDb(c.env.DB);
	try {
		await next();
	} catch (error) {
		await releaseKey(db, scope, lockId);
		throw error;
	}
	const res = c.res;
	// A failure of ours is forgotten so that a retry may succeed, unless the change may have been
	// made: then the answer is kept, and a retry cannot make it twice. A 404 is forgotten too: a
	// request about something that does not exist stores nothing, and running it again gives the
	// same answer (ids are the service's, so what is not there now never will be under that id).
	const mayHaveChanged = c.error instanceof OutcomeUnknownError;
	if ((res.status >= 500 && !mayHaveChanged) || res.status === 404 || c.get("idempotencyTransient")) {
		await releaseKey(db, scope, lockId);
		return;
	}
	const body = await res.clone().text();
	const headers = c.error instanceof AppError ? (c.error.headers ?? null) : null;
	const store = () => completeKey(db, scope, lockId, res.status, body, headers);
	const log = (error: unknown, attempt: number) =>
		console.error(
			JSON.stringify({
				message: "idempotent result not stored",
				request_id: requestIdOf(lockId),
				attempt,
				error: errorText(error),
			}),
		);
	// The request succeeded: it is answered either way. Until its result is stored a retry gets
	// 409, and after the lock's lease it would run again, so storing is retried after the answer.
	if (await retrying(store, [], log)) return;
	const later = retrying(store, STORE_RETRY_MS, (error, n) => log(error, n + 1));
	try {
		c.executionCtx.waitUntil(later);
	} catch {
		await later; // no execution context (the app called directly): finish before answering
	}
}

/** Retries of a result that could not be stored, within the time a Worker may finish work. */
const STORE_RETRY_MS = [250, 1_000, 4_000, 15_000];

/** The request id a lock was taken for (`<request id>#<nonce>`). */
function requestIdOf(lockId: string): string {
	return lockId.split("#")[0] ?? lockId;
}
