// The retry schedule (decisions.md, Webhooks): 6 attempts in total, the first at once, then after
// 1 min, 5 min, 30 min, 2 h and 12 h. `max_retries = 5` in wrangler.toml matches MAX_ATTEMPTS.

export const MAX_ATTEMPTS = 6;
export const DEFAULT_RETRY_DELAYS_SECONDS = [60, 300, 1_800, 7_200, 43_200] as const;
export const DEFAULT_TIMEOUT_MS = 10_000;
/** Cloudflare Queues cannot delay a message longer than 12 hours. */
export const MAX_QUEUE_DELAY_SECONDS = 43_200;

/**
 * `WEBHOOK_RETRY_DELAYS`: comma-separated whole seconds, one per retry. Unset, empty or malformed
 * gives the default schedule; a shorter list repeats its last value; extra values are ignored;
 * each delay is capped at the Queues maximum.
 */
export function parseRetryDelays(raw: string | undefined): number[] {
	if (raw === undefined || raw.trim() === "") return [...DEFAULT_RETRY_DELAYS_SECONDS];
	const parts = raw.split(",").map((p) => p.trim());
	if (parts.some((p) => !/^\d{1,6}$/.test(p))) return [...DEFAULT_RETRY_DELAYS_SECONDS];
	const values = parts.map((p) => Math.min(Number(p), MAX_QUEUE_DELAY_SECONDS));
	const retries = MAX_ATTEMPTS - 1;
	const last = values.at(-1) ?? 0;
	return Array.from({ length: retries }, (_, i) => values[i] ?? last);
}

/** `WEBHOOK_TIMEOUT_MS`: a positive integer of milliseconds, at most the contract's 10 s. */
export function parseTimeoutMs(raw: string | undefined): number {
	if (raw === undefined || !/^\d{1,6}$/.test(raw.trim())) return DEFAULT_TIMEOUT_MS;
	const value = Number(raw.trim());
	return value > 0 ? Math.min(value, DEFAULT_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
}

/**
 * Seconds to wait before the next attempt after attempt `attempt` (1-based) failed, or null when
 * that was the last attempt and the delivery has failed for good.
 */
export function retryDelaySeconds(attempt: number, delays: readonly number[]): number | null {
	if (!Number.isInteger(attempt) || attempt < 1 || attempt >= MAX_ATTEMPTS) return null;
	return delays[attempt - 1] ?? delays.at(-1) ?? null;
}
