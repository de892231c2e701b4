import { accountStub } from "../../accounts/account-stub";
import { insertLedgerEntry } from "../../accounts/ledger-repo";
import { releaseMonthlyCount } from "../../accounts/quota-repo";
import type { CandidateEmailRequest } from "../../email/model";
import { queueCandidateEmail } from "../../email/queue-email";
import { type EventRecord, insertEvents } from "../../events/events-repo";
import { type Db, getDb } from "../../platform/db/client";
import { type Bound, boundQuery, runOne } from "../../platform/db/templates";
import { newId } from "../../platform/lib/random";
import { type PendingDelivery, runRecordingEvents } from "../../webhooks/deliveries-repo";
import { publishEvents } from "../../webhooks/publish";
import { interviewUrl } from "../api/views";
import type { InterviewState } from "../core/model";
import type { Effect } from "../core/state-machine";
import { upsertProjection } from "../db/interviews-repo";
import { forgetSeed } from "../db/seeds-repo";
import { candidateEmailRequest } from "./email-request";
import type { OutboxItem, OutboxRow } from "./storage";

/**
 * The interview's outbox: what a committed change still owes the world (the D1 projection, the
 * event log, the ledger, the quota, candidate notices, the account's slot). Applying it is
 * idempotent, so the object may retry it after any failure.
 */

/** The outbox row an effect leaves, or null for effects carried out in the commit itself (timers). */
export function outboxItem(next: InterviewState, effect: Effect, now: number): OutboxItem | null {
	switch (effect.kind) {
		case "event":
			return {
				kind: "event",
				event: { id: newId("evt"), type: effect.type, data: effect.data, createdAt: now },
			};
		case "refund":
			return { kind: "refund", entryId: newId("msg"), credits: effect.credits, createdAt: now };
		case "notify": {
			// The notice describes the interview as this commit left it, whatever follows; one to a
			// replaced address describes what that address was booked for (with this commit's
			// version, so its calendar cancellation supersedes what it had).
			const subject = effect.replaced ? { ...effect.replaced, version: next.version } : next;
			return {
				kind: "notify",
				request: candidateEmailRequest(subject, {
					messageId: newId("msg"),
					template: effect.template,
					interviewUrl: interviewUrl(next.appUrl, subject),
					reason: effect.reason,
					addressReplaced: effect.replaced !== undefined,
				}),
			};
		}
		case "release_quota":
			return { kind: "release_quota", createdAt: now };
		case "release_slot":
			return { kind: "release_slot" };
		case "timer":
			return null;
	}
}

/** An outbox event as the event log records it, with the interview's owner and mode. */
export function eventRecord(
	state: InterviewState,
	event: Extract<OutboxItem, { kind: "event" }>["event"],
): EventRecord {
	return {
		...event,
		accountId: state.accountId,
		environment: state.environment,
		interviewId: state.id,
		testMode: state.testMode,
	};
}

/** The events among an outbox's items, as recorded (for the fan-out). */
export function outboxEvents(state: InterviewState, items: readonly OutboxItem[]): EventRecord[] {
	return items.flatMap((item) => (item.kind === "event" ? [eventRecord(state, item.event)] : []));
}

/** What an outbox owes D1, as batch statements, and the events among it (for the fan-out). */
export function outboxStatements(
	db: Db,
	state: InterviewState,
	items: readonly OutboxItem[],
): { statements: Bound[]; events: EventRecord[] } {
	const events = outboxEvents(state, items);
	// The projection is always written from the newest state, in the same batch as the events.
	const statements: Bound[] = [upsertProjection(db, state)];
	for (const item of items) {
		if (item.kind === "refund") {
			statements.push(
				boundQuery(
					db,
					insertLedgerEntry(db, {
						id: item.entryId,
						accountId: state.accountId,
						interviewId: state.id,
						kind: "refund",
						amount: item.credits,
						createdAt: item.createdAt,
					}),
				),
			);
		} else if (item.kind === "release_quota") {
			statements.push(boundQuery(db, releaseMonthlyCount(db, state.id, item.createdAt)));
		}
	}
	// The events in as few statements as D1's parameter limit allows, as creation writes them.
	statements.push(...insertEvents(db, events));
	return { statements, events };
}

/** What an outbox owes beyond D1, once its statements are written: notices, slot releases, fan-out. */
export async function settleOutbox(
	env: Env,
	state: InterviewState,
	items: readonly OutboxItem[],
	events: readonly EventRecord[],
	pending: readonly PendingDelivery[],
): Promise<void> {
	for (const item of items) {
		if (item.kind === "notify") await queueNotice(env, item.request);
		// Idempotent per interview, so a retried flush never frees a slot twice.
		if (item.kind === "release_slot")
			await accountStub(env, state.accountId).releaseSlot(state.accountId, state.id);
	}
	await publishEvents(env, events, pending);
}

/**
 * Applies outbox rows: one D1 batch (projection first), then notices, slot releases and fan-out,
 * and last, once all of that succeeded, the adopted seed's deletion (`forget_seed`). Until then
 * the seed row keeps the retention sweeps off the interview's events and e-mails, which a retry
 * of this replay inserts if absent: deleted in between, they would be recorded (and delivered)
 * again.
 */
export async function applyOutboxRows(env: Env, state: InterviewState, rows: OutboxRow[]): Promise<void> {
	const db = getDb(env.DB);
	const items = rows.map((row) => row.item);
	const { statements, events } = outboxStatements(db, state, items);
	// The events' webhook deliveries are recorded with them (a trigger) and read back here.
	const pending = await runRecordingEvents(db, statements, events);
	await settleOutbox(env, state, items, events, pending);
	if (items.some((item) => item.kind === "forget_seed")) await runOne(forgetSeed(db, state.id));
}

/** Throws only when D1 or the queue is unavailable, so the outbox retries; bad input is dropped. */
async function queueNotice(env: Env, request: CandidateEmailRequest): Promise<void> {
	const result = await queueCandidateEmail(env, request);
	if (result.status === "invalid") {
		console.error(
			JSON.stringify({
				message: "candidate notice refused",
				interview_id: request.interviewId,
				issues: result.issues,
			}),
		);
	}
}
