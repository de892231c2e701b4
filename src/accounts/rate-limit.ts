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

/**
 * Counted requests are persisted ahead of use, in reservations: one SQLite row stands for up to
 * `reservationSize` requests made within `RESERVATION_MS` of it, and is stored at the latest
 * time it covers. Reloading a row as that many requests at that time over-counts and keeps them
 * slightly longer, never less: after a restart the window is never smaller than the true one.
 */
export const RESERVATION_MS = 1_000;
export const MAX_RESERVATION = 100;

/** How many requests the next reservation covers, given the room left after this request. */
export function reservationSize(remaining: number): number {
	return Math.max(1, Math.min(MAX_RESERVATION, Math.floor(remaining / 10)));
}

/** The window as reloaded from reservation rows: each row as `n` requests at its time, in order. */
export function expandReservations(rows: readonly { ts: number; n: number }[]): number[] {
	const hits: number[] = [];
	for (const row of [...rows].sort((a, b) => a.ts - b.ts)) {
		for (let i = 0; i < row.n; i++) hits.push(row.ts);
	}
	return hits;
}
