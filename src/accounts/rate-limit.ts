export const WINDOW_MS = 60_000;

export interface RateDecision {
	allowed: boolean;
	limit: number;
	/** Requests counted in the window after this one (this one included when allowed). */
	count: number;
	remaining: number;
	/** Unix seconds when the oldest counted request leaves the window. */
	resetAt: number;
	/** Seconds until a request would be allowed again (0 when allowed). */
	retryAfter: number;
}

/**
 * Exact sliding-window decision over the timestamps (ascending, epoch ms) still in the window.
 * Pure: the account's Durable Object owns the timestamps and serialises the calls.
 */
export function decide(hits: readonly number[], limit: number, now: number): RateDecision {
	const windowStart = now - WINDOW_MS;
	let first = 0;
	while (first < hits.length && (hits[first] as number) <= windowStart) first++;
	const inWindow = hits.length - first;
	const allowed = inWindow < limit;
	const count = allowed ? inWindow + 1 : inWindow;
	const oldest = inWindow > 0 ? (hits[first] as number) : now;
	// When refused, the request is allowed once enough old ones have left: the (inWindow-limit+1)th oldest.
	const freeing = allowed ? oldest : (hits[first + (inWindow - limit)] as number);
	return {
		allowed,
		limit,
		count,
		remaining: Math.max(0, limit - count),
		resetAt: Math.ceil((oldest + WINDOW_MS) / 1000),
		retryAfter: allowed ? 0 : Math.max(1, Math.ceil((freeing + WINDOW_MS - now) / 1000)),
	};
}
