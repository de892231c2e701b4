/**
 * Delays before the retries of a failed send, in seconds: 30 s, 2 min, 10 min, 30 min, 2 h.
 * With the first try that makes 6 attempts, matching the queue's `max_retries = 5`.
 */
export const DEFAULT_EMAIL_RETRY_DELAYS = [30, 120, 600, 1800, 7200] as const;

/** Queues cannot delay a message by more than 12 hours. */
export const MAX_QUEUE_DELAY_SECONDS = 43_200;

/** Reads `EMAIL_RETRY_DELAYS` (comma-separated seconds); anything unusable gives the default. */
export function parseRetryDelays(value: string | undefined): readonly number[] {
	if (!value?.trim()) return DEFAULT_EMAIL_RETRY_DELAYS;
	const delays = value.split(",").map((part) => Number(part.trim()));
	const valid = delays.every((n) => Number.isInteger(n) && n >= 0 && n <= MAX_QUEUE_DELAY_SECONDS);
	return valid && delays.length > 0 ? delays : DEFAULT_EMAIL_RETRY_DELAYS;
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
