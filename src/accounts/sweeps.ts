import { getDb } from "../platform/db/client";
import { RETENTION_DEFAULT_DAYS, retentionMs } from "../platform/lib/settings";
import { ORPHAN_ADMISSION_AFTER_MS, releaseOrphanAdmissions } from "./quota-repo";
import { deleteDevLeftovers } from "./sandbox-purge-repo";

/** Dev (sandbox) data lives this long by default (decisions.md); `DEV_DATA_RETENTION_DAYS` sets it. */
export const DEV_DATA_TTL_MS = RETENTION_DEFAULT_DAYS.DEV_DATA_RETENTION_DAYS * 24 * 60 * 60_000;

/** Admissions examined per sweep step, and steps per cron run. */
const ORPHAN_SWEEP_ROWS = 5_000;
const MAX_ORPHAN_SWEEP_STEPS = 10;

/** Dev rows per kind per step of the leftovers' purge, and steps per cron run. */
const LEFTOVER_BATCH = 500;
const MAX_LEFTOVER_BATCHES = 10;

/**
 * `ADMISSION_ORPHAN_AFTER_S` in milliseconds: how long an admission may stay without its interview
 * before the sweep gives it back. Whole seconds from 10 to 86,400; anything else is the default
 * (ten minutes), so a typo cannot make the sweep release the admissions of creations under way.
 */
export function orphanAdmissionAfterMs(env: { ADMISSION_ORPHAN_AFTER_S?: string }): number {
	const raw = env.ADMISSION_ORPHAN_AFTER_S?.trim() ?? "";
	const seconds = /^\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
	return seconds >= 10 && seconds <= 86_400 ? seconds * 1000 : ORPHAN_ADMISSION_AFTER_MS;
}

/** Gives back admissions whose interview was never created (see `releaseOrphanAdmissions`). */
export async function sweepOrphanAdmissions(env: Env, now: number): Promise<number> {
	const db = getDb(env.DB);
	const afterMs = orphanAdmissionAfterMs(env);
	let released = 0;
	for (let step = 0; step < MAX_ORPHAN_SWEEP_STEPS; step++) {
		const result = await releaseOrphanAdmissions(db, now, ORPHAN_SWEEP_ROWS, afterMs);
		released += result.released;
		if (result.done) break;
	}
	return released;
}

/**
 * The rest of the dev data older than 7 days, which belongs to no interview: deliveries to dev
 * endpoints with their attempts, and dev events about no interview. Returns the rows deleted.
 * (Dev interviews themselves are purged by interviews/sweeps.ts, which opens their objects.)
 */
export async function sweepDevLeftovers(env: Env, now: number): Promise<number> {
	const db = getDb(env.DB);
	let purged = 0;
	for (let batch = 0; batch < MAX_LEFTOVER_BATCHES; batch++) {
		const n = await deleteDevLeftovers(db, now - retentionMs(env, "DEV_DATA_RETENTION_DAYS"), LEFTOVER_BATCH);
		purged += n;
		if (n === 0) break;
	}
	return purged;
}
