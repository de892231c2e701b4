import type { MiddlewareHandler } from "hono";
import { addressOf } from "../../platform/http/client-address";
import type { AppBindings } from "../../platform/http/context";
import { AppError } from "../../platform/http/errors";

/**
 * Per-address limit on the candidate routes' refusals (docs/limits.md). The page, the WebSocket
 * upgrade and the recording upload need no key, so they are counted by the caller's address
 * (`CF-Connecting-IP`; IPv6 by its /64). Only refusals count (an unknown interview, a wrong
 * token): a real candidate, who holds a valid link, never reaches the limit, however many chunks
 * the page uploads. Past `STRANGER_LIMIT` refusals in a minute, every candidate request from the
 * address is 429 `RATE_LIMIT_EXCEEDED` before any lookup, until the minute has passed.
 *
 * The count lives in the Worker isolate's memory: it stores nothing (the point is that strangers
 * make the service store nothing) and costs no call. It is per isolate, so an address spread over
 * many isolates gets more; the lookups it protects are already cheap (no object is opened for an
 * id never created). The Workers rate-limiting binding would make it global in production; it has
 * no local implementation, so the tests could not exercise it.
 */
export const STRANGER_LIMIT = 60;
const WINDOW_MS = 60_000;
/** Addresses remembered at most: the oldest windows are dropped first. */
const MAX_ADDRESSES = 10_000;

const refusals = new Map<string, { start: number; count: number }>();

function windowOf(address: string, now: number): { start: number; count: number } {
	let window = refusals.get(address);
	if (!window || now - window.start >= WINDOW_MS) {
		refusals.delete(address);
		if (refusals.size >= MAX_ADDRESSES) {
			const oldest = refusals.keys().next().value;
			if (oldest !== undefined) refusals.delete(oldest);
		}
		window = { start: now, count: 0 };
		refusals.set(address, window);
	}
	return window;
}

/** Refuses an address over its limit, and counts the route's refusals (4xx but 429) against it. */
export const strangerLimit: MiddlewareHandler<AppBindings> = async (c, next) => {
	const address = addressOf(c.req.header("CF-Connecting-IP"));
	const now = c.get("now");
	const window = windowOf(address, now);
	if (window.count >= STRANGER_LIMIT) {
		const retryAfter = Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
		throw new AppError(
			"RATE_LIMIT_EXCEEDED",
			"Too many requests for interviews that do not exist or with wrong links from this address.",
			{ retry_after: retryAfter },
			{ headers: { "Retry-After": String(retryAfter) } },
		);
	}
	try {
		await next();
	} catch (error) {
		if (error instanceof AppError && (error.status === 401 || error.status === 404))
			windowOf(address, now).count++;
		throw error;
	}
	const status = c.res.status;
	if (status === 401 || status === 404) windowOf(address, now).count++;
};

/** Forgets every count (tests). */
export function resetStrangerLimit(): void {
	refusals.clear();
}
