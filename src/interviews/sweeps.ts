import { deleteDevInterviewRows, devInterviewsCreatedBefore } from "../accounts/sandbox-purge-repo";

import { getDb } from "../platform/db/client";
import { retentionMs } from "../platform/lib/settings";
import { sendOwedWakes } from "./creation/wake";
import { markSeedsDue, overdueSeeds, type SeedCursor, seedsOwingNotice } from "./db/seeds-repo";
import { deleteRecordings } from "./recordings/recordings";
import { forgetInterview, interviewStub } from "./stub";

/** Interviews per D1 batch: keeps every statement far below D1's 100 bound parameters. */
const PURGE_BATCH = 50;
/** Work per cron run is bounded; what is left waits for the next run (every 15 minutes). */
const MAX_PURGE_BATCHES = 10;

/**
 * Creations not settled (the Worker stopped between the batch and the notices) are looked for
 * among seeds created between these ages: old enough that their request is over, and seen by
 * several runs (every 15 minutes).
 */
export const UNSETTLED_AFTER_MS = 5 * 60_000;
const UNSETTLED_WITHIN_MS = 2 * 60 * 60_000;
const MAX_UNSETTLED = 100;

/** Overdue seeds woken per batch, and batches per cron run (both passes of the sweep together). */
const WAKE_BATCH = 100;
const MAX_WAKE_BATCHES = 10;
/**
 * A seed claimed this long ago and still there is woken again. Its object claims and adopts it
 * within one `blockConcurrencyWhile`, so such a seed belongs either to an object whose replay
 * keeps failing (the seed is deleted last, docs/architecture.md; the object's own alarm retries
 * it, so waking it again does nothing), or to an adoption that never committed (the object was
 * reset between the claim and its transaction), which nothing else opens before its next call.
 */
export const SEED_CLAIM_LEASE_MS = 30 * 60_000;

/**
 * Opens the objects of interviews still seeds at their wake time (their wake message was lost,
 * or settling their creation failed and made them due): each adopts its seed, replays what
 * creation owed and arms its alarm. Seeds no object claimed go first; then seeds claimed longer
 * than `SEED_CLAIM_LEASE_MS` ago. Each pass goes forward through the seeds by (wake time, id), so
 * seeds that stay overdue after their wake (a replay still failing) are not taken again in the
 * same run and do not hide the ones behind them. Returns how many seeds were opened, each once.
 */
export async function sweepOverdueSeeds(env: Env, now: number): Promise<number> {
	const db = getDb(env.DB);
	const woken = new Set<string>();
	let batches = 0;
	const passes = [{ claimed: false }, { claimed: true, claimedBefore: now - SEED_CLAIM_LEASE_MS }] as const;
	for (const pass of passes) {
		let cursor: SeedCursor | null = null;
		while (batches < MAX_WAKE_BATCHES) {
			batches++;
			const seeds = await overdueSeeds(db, now, pass, cursor, WAKE_BATCH);
			cursor = seeds.at(-1) ?? null;
			// A seed opened by the first pass may be claimed by the time the second looks.
			const ids = seeds.map((seed) => seed.id).filter((id) => !woken.has(id));
			const outcomes = await Promise.allSettled(ids.map((id) => interviewStub(env, id).wake()));
			for (const [i, outcome] of outcomes.entries()) {
				if (outcome.status === "fulfilled") woken.add(ids[i] as string);
			}
			const failed = outcomes.filter((o) => o.status === "rejected").length;
			if (failed > 0) {
				console.error(JSON.stringify({ message: "waking overdue seeds incomplete", failed }));
				return woken.size;
			}
			if (seeds.length < WAKE_BATCH) break;
		}
	}
	return woken.size;
}

/**
 * Sends wake messages for the seeds waking within the horizon (creation sent them only for
 * interviews already that close), once each: the seed records when its message went
 * (`wake_sent_at`, src/interviews/creation/wake.ts). Returns how many were sent.
 */
export async function sweepUpcomingWakes(env: Env, now: number): Promise<number> {
	return sendOwedWakes(env, now);
}

/**
 * Creations whose notices were never sent (their Worker stopped between the D1 batch and
 * settling): their seeds are made due and their objects opened, which replays what creation
 * owed, the invitation among it, instead of waiting for the first timer (after the start).
 */
export async function sweepUnsettledSeeds(env: Env, now: number): Promise<number> {
	const db = getDb(env.DB);
	const ids = await seedsOwingNotice(db, now - UNSETTLED_WITHIN_MS, now - UNSETTLED_AFTER_MS, MAX_UNSETTLED);
	if (ids.length === 0) return 0;
	await markSeedsDue(db, ids, now);
	const outcomes = await Promise.allSettled(ids.map((id) => interviewStub(env, id).wake()));
	return outcomes.filter((o) => o.status === "fulfilled").length;
}

/**
 * Deletes dev interviews older than 7 days: each interview's Durable Object storage, alarm and
 * recordings first, then its rows in D1 (events, e-mails, projection). In that order, a failure
 * leaves the projection row in place, so the next run finds the interview and finishes the job.
 */
export async function sweepDevInterviews(env: Env, now: number): Promise<number> {
	const db = getDb(env.DB);
	const cutoff = now - retentionMs(env, "DEV_DATA_RETENTION_DAYS");
	let purged = 0;
	for (let batch = 0; batch < MAX_PURGE_BATCHES; batch++) {
		const ids = await devInterviewsCreatedBefore(db, cutoff, PURGE_BATCH);
		if (ids.length === 0) break;
		const outcomes = await Promise.allSettled(
			ids.map(async (id) => {
				await interviewStub(env, id).purge();
				await deleteRecordings(env, id);
			}),
		);
		const done = ids.filter((_, i) => outcomes[i]?.status === "fulfilled");
		await deleteDevInterviewRows(db, done);
		for (const id of done) forgetInterview(id);
		purged += done.length;
		if (done.length < ids.length) {
			console.error(JSON.stringify({ message: "dev purge incomplete", failed: ids.length - done.length }));
			break;
		}
	}
	return purged;
}
