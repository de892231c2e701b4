import { getDb } from "../../platform/db/client";
import { chunks } from "../../platform/lib/chunks";
import { errorText } from "../../platform/lib/error-text";
import { markWakesSent, seedsOwingWake } from "../db/seeds-repo";
import { interviewStub } from "../stub";

/**
 * Wake messages (deferred creation, docs/architecture.md): an interview whose first timer is
 * within the horizon gets one on the `interview-wake` queue at creation, delayed until a minute
 * before the timer; the housekeeping cron sends them for later interviews as their time comes
 * into the horizon. The consumer opens the interview's object, which adopts its seed and arms its
 * own alarm for the exact time. A message that arrives early is sent on with the delay left.
 */

export const WAKE_QUEUE_NAME = "interview-wake";
/** How long before its first timer an interview's object is opened. */
export const WAKE_LEAD_MS = 60_000;
/**
 * How far ahead wake messages are sent: at creation, and by each cron run (every 15 minutes), for
 * the seeds waking within it. Twice the cron's period, so every seed is covered by a run before
 * its time even if one run is late; interviews further out are not messages in the queue.
 */
export const WAKE_HORIZON_MS = 30 * 60_000;
/** The longest delay Queues accepts on a message. */
export const MAX_QUEUE_DELAY_SECONDS = 43_200;
/** Messages per `sendBatch`, the Queues maximum. */
const SEND_BATCH = 100;
/** Seconds before a failed wake is tried again, by attempt (then the last, until max_retries). */
const RETRY_DELAYS = [5, 30, 120, 600];

export interface WakeMessage {
	kind: "wake_interview";
	id: string;
	wake_at: number;
}

/** Seconds to hold a wake message for `wakeAt` sent at `now`: 0 when it is due (pure). */
export function wakeDelaySeconds(wakeAt: number, now: number): number {
	const seconds = Math.ceil((wakeAt - WAKE_LEAD_MS - now) / 1000);
	return Math.min(Math.max(seconds, 0), MAX_QUEUE_DELAY_SECONDS);
}

/** Seconds before a failed wake's next attempt (pure; `attempts` counts from 1). */
export function wakeRetryDelaySeconds(attempts: number): number {
	return RETRY_DELAYS[Math.min(Math.max(attempts, 1), RETRY_DELAYS.length) - 1] as number;
}

/** Sends the wake messages of the seeds waking within the horizon; the others wait for the cron. */
export async function sendWakeMessages(
	env: Env,
	seeds: readonly { id: string; wakeAt: number }[],
	now: number,
): Promise<void> {
	const soon = seeds.filter((seed) => seed.wakeAt <= now + WAKE_HORIZON_MS);
	for (const part of chunks(soon, SEND_BATCH)) {
		await env.WAKE_QUEUE.sendBatch(
			part.map((seed) => ({
				body: { kind: "wake_interview", id: seed.id, wake_at: seed.wakeAt } satisfies WakeMessage,
				contentType: "json" as const,
				delaySeconds: wakeDelaySeconds(seed.wakeAt, now),
			})),
		);
	}
}

function isWakeMessage(body: unknown): body is WakeMessage {
	if (typeof body !== "object" || body === null) return false;
	const b = body as Record<string, unknown>;
	return b.kind === "wake_interview" && typeof b.id === "string" && typeof b.wake_at === "number";
}

/**
 * Opens each due interview's object (which adopts its seed, or does nothing if it already has);
 * a message not yet due is sent on with the delay left. Malformed messages are dropped (logged).
 */
export async function handleWakeBatch(batch: MessageBatch, env: Env, now = Date.now()): Promise<void> {
	await Promise.all(
		batch.messages.map(async (message) => {
			const body = message.body;
			if (!isWakeMessage(body)) {
				console.error(JSON.stringify({ message: "malformed wake message dropped", id: message.id }));
				message.ack();
				return;
			}
			try {
				const delaySeconds = wakeDelaySeconds(body.wake_at, now);
				if (delaySeconds > 0) await env.WAKE_QUEUE.send(body, { contentType: "json", delaySeconds });
				else await interviewStub(env, body.id).wake();
				message.ack();
			} catch (error) {
				console.error(
					JSON.stringify({ message: "wake failed", interview_id: body.id, error: errorText(error) }),
				);
				message.retry({ delaySeconds: wakeRetryDelaySeconds(message.attempts) });
			}
		}),
	);
}

/** Seeds given a wake message per cron run, at most (the rest get theirs from the next run). */
export const MAX_WAKE_MESSAGES = 1_000;

/**
 * The cron's wake messages: one per seed whose wake time has come within the horizon, sent once
 * and recorded (`wake_sent_at`), so later runs do not send it again; seeds that their creation
 * already sent one are left out. A message that is lost is covered by the overdue sweep, which
 * opens every seed still there at its wake time. Returns how many were sent.
 */
export async function sendOwedWakes(env: Env, now: number): Promise<number> {
	const db = getDb(env.DB);
	const seeds = await seedsOwingWake(db, now, now + WAKE_HORIZON_MS, WAKE_HORIZON_MS, MAX_WAKE_MESSAGES);
	if (seeds.length === 0) return 0;
	await sendWakeMessages(env, seeds, now);
	await markWakesSent(
		db,
		seeds.map((seed) => seed.id),
		now,
	);
	return seeds.length;
}
