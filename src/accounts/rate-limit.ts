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
 * The IETF headers (draft-ietf-httpapi-ratelimit-headers) beside X-RateLimit-*: one policy named
 * "default", its quota `q` per window `w` seconds, and what remains `r` with `t` seconds until
 * the window frees a request, 0 to `w` (X-RateLimit-Reset is the same instant as Unix seconds,
 * rounded up).
 */
export function ietfRateLimitHeaders(
	decision: Pick<RateDecision, "allowed" | "limit" | "remaining" | "resetAt" | "retryAfter">,
	nowMs: number,
): { "RateLimit-Policy": string; RateLimit: string } {
	// Refused: the wait until one request is allowed again (Retry-After); else until the reset.
	// `resetAt` is rounded up to a whole second, so from part way through a second it can lie one
	// second more than a window ahead: never more than the window, nor less than 0.
	const windowSeconds = WINDOW_MS / 1000;
	const wait = decision.allowed ? decision.resetAt - Math.floor(nowMs / 1000) : decision.retryAfter;
	const t = Math.min(windowSeconds, Math.max(0, wait));
	return {
		"RateLimit-Policy": `"default";q=${decision.limit};w=${windowSeconds}`,
		RateLimit: `"default";r=${Math.max(0, decision.remaining)};t=${t}`,
	};
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

/**
 * Counted requests are persisted ahead of use, in reservations: one SQLite row stands for up to
 * `nextReservationSize` requests made within `RESERVATION_MS` of it, and is stored at the latest
 * time it covers. A reservation that ends with places unused is cut to the requests it covered
 * when the next one is written, so reloaded after a restart every row but the newest is exact,
 * and the newest over-counts by its unused places and keeps its requests slightly longer, never
 * less: after a restart the window is never smaller than the true one, and larger by at most
 * what the newest reservation did not use.
 */
export const RESERVATION_MS = 1_000;
export const MAX_RESERVATION = 100;

/** The most requests a reservation may cover, given the room left after this request. */
export function reservationSize(remaining: number): number {
	return Math.max(1, Math.min(MAX_RESERVATION, Math.floor(remaining / 10)));
}

/**
 * How many requests the next reservation covers, given the last one and the room left: twice
 * the last one's size if it ran out before its time (the traffic outgrew it); the requests it
 * covered if it ended by time within `RESERVATION_MS` of `ts` (the traffic of its second); else
 * one (sparse requests are persisted one by one, exactly). Never more than `reservationSize`.
 */
export function nextReservationSize(
	last: { size: number; left: number; until: number } | null,
	ts: number,
	remaining: number,
): number {
	let wanted = 1;
	if (last !== null && ts <= last.until) wanted = 2 * last.size;
	else if (last !== null && ts - last.until <= RESERVATION_MS) wanted = last.size - last.left;
	return Math.max(1, Math.min(wanted, reservationSize(remaining)));
}

/** The window as reloaded from reservation rows: each row as `n` requests at its time, in order. */
export function expandReservations(rows: readonly { ts: number; n: number }[]): number[] {
	const hits: number[] = [];
	for (const row of [...rows].sort((a, b) => a.ts - b.ts)) {
		for (let i = 0; i < row.n; i++) hits.push(row.ts);
	}
	return hits;
}
