import { sweepDevLeftovers, sweepOrphanAdmissions } from "./accounts/sweeps";
import { purgeSettledEmails } from "./email/retention";
import { sweepStaleEmails } from "./email/sweeps";
import { purgeOldEvents } from "./events/retention";
import { sweepIdempotencyKeys } from "./idempotency/sweeps";
import {
	sweepDevInterviews,
	sweepOverdueSeeds,
	sweepUnsettledSeeds,
	sweepUpcomingWakes,
} from "./interviews/sweeps";
import { errorText } from "./platform/lib/error-text";
import { resendDueDeliveries } from "./webhooks/resend";
import { purgeFinalDeliveries } from "./webhooks/retention";
import { sweepAbandonedDeliveries } from "./webhooks/sweeps";

export interface HousekeepingReport {
	emailsResent: number;
	emailsGivenUp: number;
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
	/**
	 * Pending deliveries due and untouched for `DELIVERY_RESEND_AFTER_S` (never sent, or their
	 * queue message lost), handed over again.
	 */
	dueDeliveriesResent: number;
	/** Rows past their retention (docs/retention.md): final deliveries, events, settled e-mails. */
	deliveriesExpired: number;
	eventsExpired: number;
	emailsExpired: number;
}

/**
 * The cron trigger's work (see wrangler.toml `[triggers]`); `scheduledTime` is "now". Each sweep
 * belongs to the module that owns its table; they run side by side, and one that fails is logged
 * without stopping the others.
 */
export async function runHousekeeping(env: Env, scheduledTime: number): Promise<HousekeepingReport> {
	const [emails, abandoned, orphans, dev, leftovers, keys, seeds, unsettled, wakes, due, ...retention] =
		await Promise.allSettled([
			sweepStaleEmails(env, scheduledTime),
			sweepAbandonedDeliveries(env, scheduledTime),
			sweepOrphanAdmissions(env, scheduledTime),
			sweepDevInterviews(env, scheduledTime),
			sweepDevLeftovers(env, scheduledTime),
			sweepIdempotencyKeys(env, scheduledTime),
			sweepOverdueSeeds(env, scheduledTime),
			sweepUnsettledSeeds(env, scheduledTime),
			sweepUpcomingWakes(env, scheduledTime),
			resendDueDeliveries(env, scheduledTime),
			purgeFinalDeliveries(env, scheduledTime),
			purgeOldEvents(env, scheduledTime),
			purgeSettledEmails(env, scheduledTime),
		]);
	for (const outcome of [
		emails,
		abandoned,
		orphans,
		dev,
		leftovers,
		keys,
		seeds,
		unsettled,
		wakes,
		due,
		...retention,
	]) {
		if (outcome.status === "rejected") {
			console.error(
				JSON.stringify({ message: "housekeeping task failed", error: errorText(outcome.reason) }),
			);
		}
	}
	return {
		emailsResent: emails.status === "fulfilled" ? emails.value.resent : 0,
		emailsGivenUp: emails.status === "fulfilled" ? emails.value.givenUp : 0,
		deliveriesAbandoned: abandoned.status === "fulfilled" ? abandoned.value : 0,
		orphanAdmissionsReleased: orphans.status === "fulfilled" ? orphans.value : 0,
		devInterviewsPurged: dev.status === "fulfilled" ? dev.value : 0,
		devLeftoversPurged: leftovers.status === "fulfilled" ? leftovers.value : 0,
		idempotencyKeysPurged: keys.status === "fulfilled" ? keys.value : 0,
		seedsWoken: seeds.status === "fulfilled" ? seeds.value : 0,
		unsettledSeedsWoken: unsettled.status === "fulfilled" ? unsettled.value : 0,
		wakeMessagesSent: wakes.status === "fulfilled" ? wakes.value : 0,
		dueDeliveriesResent: due.status === "fulfilled" ? due.value : 0,
		deliveriesExpired: retention[0]?.status === "fulfilled" ? retention[0].value : 0,
		eventsExpired: retention[1]?.status === "fulfilled" ? retention[1].value : 0,
		emailsExpired: retention[2]?.status === "fulfilled" ? retention[2].value : 0,
	};
}
