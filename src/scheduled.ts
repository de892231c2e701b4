import { releaseOrphanAdmissions } from "./accounts/quota-repo";
import {
	deleteDevInterviewRows,
	deleteDevLeftovers,
	devInterviewsCreatedBefore,
} from "./accounts/sandbox-purge-repo";
import { expireQueuedEmails, staleQueuedEmails, touchQueuedEmails } from "./email/email-repo";
import { enqueueAgain } from "./email/queue-email";
import { purgeSettledEmails } from "./email/retention";
import { purgeOldEvents } from "./events/retention";
import { purgeExpiredKeys } from "./idempotency/idempotency-repo";
import { sendWakeMessages, WAKE_HORIZON_MS } from "./interviews/creation/wake";
import { markSeedsDue, overdueSeeds, seedsOwingNotice, seedsWaking } from "./interviews/db/seeds-repo";
import { deleteRecordings } from "./interviews/recordings/recordings";
import { interviewStub } from "./interviews/service";
import { getDb } from "./platform/db/client";
import { chunks } from "./platform/lib/chunks";
import { RETENTION_DEFAULT_DAYS, retentionMs } from "./platform/lib/settings";
import { failAbandonedDeliveries, staleUnsentDeliveries } from "./webhooks/deliveries-repo";
import { enqueueDeliveries } from "./webhooks/fan-out";
import { purgeFinalDeliveries } from "./webhooks/retention";

/** Dev (sandbox) data lives this long by default (decisions.md); `DEV_DATA_RETENTION_DAYS` sets it. */
export const DEV_DATA_TTL_MS = RETENTION_DEFAULT_DAYS.DEV_DATA_RETENTION_DAYS * 24 * 60 * 60_000;
/** Interviews per D1 batch: keeps every statement far below D1's 100 bound parameters. */
const PURGE_BATCH = 50;
/** Work per cron run is bounded; what is left waits for the next run (every 15 minutes). */
const MAX_PURGE_BATCHES = 10;
const KEY_PURGE_BATCH = 500;
const MAX_KEY_PURGE_BATCHES = 20;

/**
 * Creations not settled (the Worker stopped between the batch and the notices) are looked for
 * among seeds created between these ages: old enough that their request is over, and seen by
 * several runs (every 15 minutes).
 */
export const UNSETTLED_AFTER_MS = 5 * 60_000;
const UNSETTLED_WITHIN_MS = 2 * 60 * 60_000;
const MAX_UNSETTLED = 100;

/** Overdue seeds woken per batch, and batches per cron run. */
const WAKE_BATCH = 100;
const MAX_WAKE_BATCHES = 10;

/** Admissions examined per sweep step, and steps per cron run. */
const ORPHAN_SWEEP_ROWS = 5_000;
const MAX_ORPHAN_SWEEP_STEPS = 10;

/**
 * A queued e-mail untouched this long lost its queue message (or it was dead-lettered): longer
 * than the consumer's longest retry delay (2 hours by default), so a pending retry is not raced.
 */
export const EMAIL_STALE_MS = 3 * 60 * 60_000;
/**
 * A queued e-mail no consumer ever tried, this long after it was recorded or last handed over:
 * its hand-over to the queue was lost (the Worker stopped between recording it and sending the
 * message), since a consumer takes a message within seconds. Handed over again; a duplicate
 * reference is harmless (the consumer's lease and the row's status).
 */
export const EMAIL_NEVER_TRIED_MS = 10 * 60_000;
/** A notice not sent within a day is given up (failed): the interview it describes has moved on. */
export const EMAIL_GIVE_UP_MS = 24 * 60 * 60_000;
const MAX_EMAILS_RESENT = 500;

/**
 * A webhook delivery recorded this long ago and still unsent lost its sender (the request or
 * object that recorded it failed before sending, and nothing retried it): sent again.
 */
export const DELIVERY_UNSENT_STALE_MS = 15 * 60_000;
const MAX_DELIVERIES_RESENT = 500;
/**
 * A pending delivery handed to the queue and untouched this long will never be attempted again
 * (the longest wait between attempts is 12 hours): its message was lost. A test event, sent by
 * its request, is abandoned once that request is long over.
 */
export const DELIVERY_ABANDONED_MS = 24 * 60 * 60_000;
export const TEST_DELIVERY_ABANDONED_MS = 15 * 60_000;
const MAX_DELIVERIES_ABANDONED = 500;

export interface HousekeepingReport {
	emailsResent: number;
	emailsGivenUp: number;
	deliveriesResent: number;
	deliveriesAbandoned: number;
	orphanAdmissionsReleased: number;
	devInterviewsPurged: number;
	/** Deliveries to dev endpoints and dev events about no interview, older than 7 days. */
	devLeftoversPurged: number;
	idempotencyKeysPurged: number;
	seedsWoken: number;
	/** Seeds of creations that owe a notice nobody sent, opened so that it is sent now. */
	unsettledSeedsWoken: number;
	wakeMessagesSent: number;
	/** Rows past their retention (docs/retention.md): final deliveries, events, settled e-mails. */
	deliveriesExpired: number;
	eventsExpired: number;
	emailsExpired: number;
}

/**
 * Opens the objects of interviews still seeds at their wake time (their wake message was lost,
 * or settling their creation failed and made them due): each adopts its seed, replays what
 * creation owed and arms its alarm. Returns how many were opened.
 */
export async function wakeOverdueSeeds(env: Env, now: number): Promise<number> {
	const db = getDb(env.DB);
	let woken = 0;
	for (let batch = 0; batch < MAX_WAKE_BATCHES; batch++) {
		const ids = await overdueSeeds(db, now, WAKE_BATCH);
		if (ids.length === 0) break;
		const outcomes = await Promise.allSettled(ids.map((id) => interviewStub(env, id).wake()));
		const failed = outcomes.filter((o) => o.status === "rejected").length;
		woken += ids.length - failed;
		if (failed > 0 || ids.length < WAKE_BATCH) {
			if (failed > 0) console.error(JSON.stringify({ message: "waking overdue seeds incomplete", failed }));
			break;
		}
	}
	return woken;
}

/** Seeds given a wake message per cron run, at most (the rest are woken when overdue). */
const MAX_WAKE_MESSAGES = 1_000;

/**
 * Sends wake messages for the seeds waking within the horizon (creation sent them only for
 * interviews already that close). A seed may get a second message from the next run; opening an
 * object twice is harmless. Returns how many were sent.
 */
export async function queueUpcomingWakes(env: Env, now: number): Promise<number> {
	const seeds = await seedsWaking(getDb(env.DB), now, now + WAKE_HORIZON_MS, MAX_WAKE_MESSAGES);
	await sendWakeMessages(env, seeds, now);
	return seeds.length;
}

/**
 * Deletes dev interviews older than 7 days: each interview's Durable Object storage and alarm
 * first, then its rows in D1 (events, e-mails, projection). In that order, a failure leaves the
 * projection row in place, so the next run finds the interview and finishes the job.
 */
export async function purgeDevData(env: Env, now: number): Promise<number> {
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
		purged += done.length;
		if (done.length < ids.length) {
			console.error(JSON.stringify({ message: "dev purge incomplete", failed: ids.length - done.length }));
			break;
		}
	}
	return purged;
}

/** Dev rows per kind per step of the leftovers' purge, and steps per cron run. */
const LEFTOVER_BATCH = 500;
const MAX_LEFTOVER_BATCHES = 10;

/**
 * The rest of the dev data older than 7 days, which belongs to no interview: deliveries to dev
 * endpoints with their attempts, and dev events about no interview. Returns the rows deleted.
 */
export async function purgeDevLeftovers(env: Env, now: number): Promise<number> {
	const db = getDb(env.DB);
	let purged = 0;
	for (let batch = 0; batch < MAX_LEFTOVER_BATCHES; batch++) {
		const n = await deleteDevLeftovers(db, now - retentionMs(env, "DEV_DATA_RETENTION_DAYS"), LEFTOVER_BATCH);
		purged += n;
		if (n === 0) break;
	}
	return purged;
}

export async function purgeIdempotencyKeys(env: Env, now: number): Promise<number> {
	const db = getDb(env.DB);
	let purged = 0;
	for (let batch = 0; batch < MAX_KEY_PURGE_BATCHES; batch++) {
		const n = await purgeExpiredKeys(db, now, KEY_PURGE_BATCH);
		purged += n;
		if (n < KEY_PURGE_BATCH) break;
	}
	return purged;
}

/** Gives back admissions whose interview was never created (see `releaseOrphanAdmissions`). */
export async function releaseOrphans(env: Env, now: number): Promise<number> {
	const db = getDb(env.DB);
	let released = 0;
	for (let step = 0; step < MAX_ORPHAN_SWEEP_STEPS; step++) {
		const result = await releaseOrphanAdmissions(db, now, ORPHAN_SWEEP_ROWS);
		released += result.released;
		if (result.done) break;
	}
	return released;
}

/**
 * Queued e-mails nothing is sending: older than a day they are marked failed; otherwise, untouched
 * for three hours, they are handed to the queue again (the consumer's lease and status checks
 * make a second message harmless).
 */
export async function resendStaleEmails(env: Env, now: number): Promise<{ resent: number; givenUp: number }> {
	const db = getDb(env.DB);
	const givenUp = await expireQueuedEmails(db, now - EMAIL_GIVE_UP_MS, now, "Not sent within 24 hours");
	const ids = await staleQueuedEmails(
		db,
		now - EMAIL_STALE_MS,
		now - EMAIL_NEVER_TRIED_MS,
		now,
		MAX_EMAILS_RESENT,
	);
	if (ids.length > 0) {
		await enqueueAgain(env, ids);
		for (const part of chunks(ids, 90)) await touchQueuedEmails(db, part, now);
	}
	return { resent: ids.length, givenUp };
}

/**
 * Webhook deliveries recorded and never sent (every event records its deliveries with itself, so
 * none is lost; a failure before sending leaves them here): handed to the queue now.
 */
export async function resendUnsentDeliveries(env: Env, now: number): Promise<number> {
	const stale = await staleUnsentDeliveries(
		getDb(env.DB),
		now - DELIVERY_UNSENT_STALE_MS,
		MAX_DELIVERIES_RESENT,
	);
	if (stale.length > 0) await enqueueDeliveries(env, stale, now);
	return stale.length;
}

/** Pending deliveries that nothing will attempt again are settled as failed. */
export function failAbandoned(env: Env, now: number): Promise<number> {
	return failAbandonedDeliveries(
		getDb(env.DB),
		now - DELIVERY_ABANDONED_MS,
		now - TEST_DELIVERY_ABANDONED_MS,
		MAX_DELIVERIES_ABANDONED,
		now,
	);
}

/**
 * Creations whose notices were never sent (their Worker stopped between the D1 batch and
 * settling): their seeds are made due and their objects opened, which replays what creation
 * owed, the invitation among it, instead of waiting for the first timer (after the start).
 */
export async function wakeUnsettledSeeds(env: Env, now: number): Promise<number> {
	const db = getDb(env.DB);
	const ids = await seedsOwingNotice(db, now - UNSETTLED_WITHIN_MS, now - UNSETTLED_AFTER_MS, MAX_UNSETTLED);
	if (ids.length === 0) return 0;
	await markSeedsDue(db, ids, now);
	const outcomes = await Promise.allSettled(ids.map((id) => interviewStub(env, id).wake()));
	return outcomes.filter((o) => o.status === "fulfilled").length;
}

/** The cron trigger's work (see wrangler.toml `[triggers]`); `scheduledTime` is "now". */
export async function runHousekeeping(env: Env, scheduledTime: number): Promise<HousekeepingReport> {
	const [
		emails,
		deliveries,
		abandoned,
		orphans,
		dev,
		leftovers,
		keys,
		seeds,
		unsettled,
		wakes,
		...retention
	] = await Promise.allSettled([
		resendStaleEmails(env, scheduledTime),
		resendUnsentDeliveries(env, scheduledTime),
		failAbandoned(env, scheduledTime),
		releaseOrphans(env, scheduledTime),
		purgeDevData(env, scheduledTime),
		purgeDevLeftovers(env, scheduledTime),
		purgeIdempotencyKeys(env, scheduledTime),
		wakeOverdueSeeds(env, scheduledTime),
		wakeUnsettledSeeds(env, scheduledTime),
		queueUpcomingWakes(env, scheduledTime),
		purgeFinalDeliveries(env, scheduledTime),
		purgeOldEvents(env, scheduledTime),
		purgeSettledEmails(env, scheduledTime),
	]);
	for (const outcome of [
		emails,
		deliveries,
		abandoned,
		orphans,
		dev,
		leftovers,
		keys,
		seeds,
		unsettled,
		wakes,
		...retention,
	]) {
		if (outcome.status === "rejected") {
			console.error(JSON.stringify({ message: "housekeeping task failed", error: String(outcome.reason) }));
		}
	}
	return {
		emailsResent: emails.status === "fulfilled" ? emails.value.resent : 0,
		emailsGivenUp: emails.status === "fulfilled" ? emails.value.givenUp : 0,
		deliveriesResent: deliveries.status === "fulfilled" ? deliveries.value : 0,
		deliveriesAbandoned: abandoned.status === "fulfilled" ? abandoned.value : 0,
		orphanAdmissionsReleased: orphans.status === "fulfilled" ? orphans.value : 0,
		devInterviewsPurged: dev.status === "fulfilled" ? dev.value : 0,
		devLeftoversPurged: leftovers.status === "fulfilled" ? leftovers.value : 0,
		idempotencyKeysPurged: keys.status === "fulfilled" ? keys.value : 0,
		seedsWoken: seeds.status === "fulfilled" ? seeds.value : 0,
		unsettledSeedsWoken: unsettled.status === "fulfilled" ? unsettled.value : 0,
		wakeMessagesSent: wakes.status === "fulfilled" ? wakes.value : 0,
		deliveriesExpired: retention[0]?.status === "fulfilled" ? retention[0].value : 0,
		eventsExpired: retention[1]?.status === "fulfilled" ? retention[1].value : 0,
		emailsExpired: retention[2]?.status === "fulfilled" ? retention[2].value : 0,
	};
}
