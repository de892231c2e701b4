/**
 * Retention settings (docs/retention.md): how long each kind of record that grows with traffic is
 * kept. Defaults are here; a var of the same name (`.dev.vars`, `[vars]`) overrides one with a
 * whole number of days. A value that is not one, or is outside its range, falls back to the
 * default, so a typo never deletes more than intended.
 */
export const RETENTION_DEFAULT_DAYS = {
	/** Webhook deliveries and their attempts, counted from when the delivery became final. */
	WEBHOOK_DELIVERY_RETENTION_DAYS: 30,
	/** The event log (`GET /v1/events`), counted from the event. */
	EVENT_RETENTION_DAYS: 90,
	/** Candidate e-mails, counted from when they were sent or given up. */
	EMAIL_RETENTION_DAYS: 30,
	/** The room's message history inside the interview's object, counted from its completion or cancellation. */
	ROOM_HISTORY_RETENTION_DAYS: 7,
	/** Dev (sandbox) interviews and the rest of the dev data, counted from creation (decisions.md). */
	DEV_DATA_RETENTION_DAYS: 7,
} as const;

export type RetentionSetting = keyof typeof RETENTION_DEFAULT_DAYS;

const DAY_MS = 24 * 60 * 60_000;
const MAX_DAYS = 3_650;

/** Whole days from a var, or `fallback` when unset, not a whole number, below 1 or above 3,650. */
export function wholeDays(raw: string | undefined, fallback: number): number {
	const text = raw?.trim();
	if (!text || !/^\d+$/.test(text)) return fallback;
	const days = Number(text);
	return days >= 1 && days <= MAX_DAYS ? days : fallback;
}

/** A retention setting in milliseconds, as configured for this environment. */
export function retentionMs(env: Partial<Record<RetentionSetting, string>>, name: RetentionSetting): number {
	return wholeDays(env[name], RETENTION_DEFAULT_DAYS[name]) * DAY_MS;
}

/** Idempotency keys are kept 24 hours (the contract); a var may keep them longer, never shorter. */
export const IDEMPOTENCY_KEY_DEFAULT_HOURS = 24;
const IDEMPOTENCY_KEY_MAX_HOURS = 720;

export function idempotencyKeyTtlMs(env: { IDEMPOTENCY_KEY_TTL_HOURS?: string }): number {
	const text = env.IDEMPOTENCY_KEY_TTL_HOURS?.trim();
	const hours = text && /^\d+$/.test(text) ? Number(text) : IDEMPOTENCY_KEY_DEFAULT_HOURS;
	const kept =
		hours >= IDEMPOTENCY_KEY_DEFAULT_HOURS && hours <= IDEMPOTENCY_KEY_MAX_HOURS
			? hours
			: IDEMPOTENCY_KEY_DEFAULT_HOURS;
	return kept * 60 * 60_000;
}

/** Rows deleted per statement by a retention sweep (two bound parameters: the cutoff and this). */
export const RETENTION_BATCH = 500;
/** Statements per sweep per cron run: what is left waits for the next run (every 15 minutes). */
export const RETENTION_MAX_BATCHES = 20;

/**
 * Runs `step` (which deletes at most `RETENTION_BATCH` rows and says how many) until it deletes
 * fewer than a full batch, at most `RETENTION_MAX_BATCHES` times. Returns the rows deleted.
 */
export async function inBatches(step: () => Promise<number>): Promise<number> {
	let total = 0;
	for (let batch = 0; batch < RETENTION_MAX_BATCHES; batch++) {
		const n = await step();
		total += n;
		if (n < RETENTION_BATCH) break;
	}
	return total;
}
