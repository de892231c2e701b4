/**
 * Delays before the retries of a failed send, in seconds: 30 s, 2 min, 10 min, 30 min, 2 h.
 * With the first try that makes 6 attempts, matching the queue's `max_retries = 5`.
 */
export const DEFAULT_EMAIL_RETRY_DELAYS = [30, 120, 600, 1800, 7200] as const;

/**
 * The longest retry delay allowed: shorter than the housekeeping's three hours after which a
 * queued e-mail counts as lost (`EMAIL_STALE_MS`), so a retry that is only waiting is not raced.
 */
export const MAX_EMAIL_RETRY_DELAY_SECONDS = 2 * 3600;
/** At most as many retries as the queue's `max_retries = 5` lets a message have. */
export const MAX_EMAIL_RETRIES = 5;

/**
 * Reads `EMAIL_RETRY_DELAYS` (comma-separated whole seconds, 1 to 5 of them, each at most
 * 7200); anything else gives the default.
 */
export function parseRetryDelays(value: string | undefined): readonly number[] {
	if (!value?.trim()) return DEFAULT_EMAIL_RETRY_DELAYS;
	const delays = value.split(",").map((part) => Number(part.trim()));
	const valid = delays.every((n) => Number.isInteger(n) && n >= 0 && n <= MAX_EMAIL_RETRY_DELAY_SECONDS);
	return valid && delays.length > 0 && delays.length <= MAX_EMAIL_RETRIES
		? delays
		: DEFAULT_EMAIL_RETRY_DELAYS;
}

/** Attempts in total: the first try plus one retry per delay. */
export function maxAttempts(delays: readonly number[]): number {
	return delays.length + 1;
}

/**
 * What to do after attempt number `attempt` (1-based) failed: retry after a delay, or give up
 * because it was the last attempt.
 */
export function nextRetry(
	attempt: number,
	delays: readonly number[],
): { retry: true; delaySeconds: number } | { retry: false } {
	if (attempt >= maxAttempts(delays)) return { retry: false };
	const delaySeconds = delays[Math.max(0, attempt - 1)] ?? delays.at(-1) ?? 0;
	return { retry: true, delaySeconds };
}
