import { accountStub } from "../accounts/account-stub";
import { getDb } from "../db/client";
import { upsertProjection } from "../db/interviews-repo";
import { insertLedgerEntry } from "../db/ledger-repo";
import { releaseMonthlyCount } from "../db/quota-repo";
import type { CandidateEmailRequest } from "../email/model";
import { queueCandidateEmail } from "../email/queue-email";
import { candidateEmailRequest } from "../email/request";
import type { Env } from "../env";
import { type EventRecord, insertEvent } from "../events/events-repo";
import { publishEvents } from "../events/publish";
import { newId } from "../lib/random";
import { activeEndpointsQuery, type EndpointRow } from "../webhooks/endpoints-repo";
import { endpointsKey } from "../webhooks/fan-out";
import type { InterviewState } from "./model";
import type { Effect } from "./state-machine";
import type { OutboxItem, OutboxRow } from "./storage";
import { interviewUrl } from "./views";

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
		case "notify":
			// The notice describes the interview as this commit left it, whatever follows.
			return {
				kind: "notify",
				request: candidateEmailRequest(next, {
					messageId: newId("msg"),
					template: effect.template,
					interviewUrl: interviewUrl(next.appUrl, next),
					reason: effect.reason,
				}),
			};
		case "release_quota":
			return { kind: "release_quota", createdAt: now };
		case "release_slot":
			return { kind: "release_slot" };
		case "timer":
			return null;
	}
}

/** Applies outbox rows: one D1 batch (projection first), then notices, slot releases and fan-out. */
export async function applyOutboxRows(env: Env, state: InterviewState, rows: OutboxRow[]): Promise<void> {
	const db = getDb(env.DB);
	const events: EventRecord[] = [];
	const statements = [];
	for (const { item } of rows) {
		if (item.kind === "event") {
			const record = {
				...item.event,
				accountId: state.accountId,
				environment: state.environment,
				interviewId: state.id,
				testMode: state.testMode,
			};
			events.push(record);
			statements.push(insertEvent(db, record));
		} else if (item.kind === "refund") {
			statements.push(
				insertLedgerEntry(db, {
					id: item.entryId,
					accountId: state.accountId,
					interviewId: state.id,
					kind: "refund",
					amount: item.credits,
					createdAt: item.createdAt,
				}),
			);
		} else if (item.kind === "release_quota") {
			statements.push(releaseMonthlyCount(db, state.id, item.createdAt));
		}
	}
	// The projection is always written from the newest state, in the same batch as the events;
	// with events, the batch also reads the webhook endpoints the fan-out needs.
	const owner = { accountId: state.accountId, environment: state.environment };
	const results = await db.batch([
		upsertProjection(db, state),
		...statements,
		...(events.length > 0 ? [activeEndpointsQuery(db, owner)] : []),
	]);
	const known = new Map(
		events.length > 0 ? [[endpointsKey(owner), results.at(-1) as EndpointRow[]] as const] : [],
	);
	for (const { item } of rows) {
		if (item.kind === "notify") await queueNotice(env, item.request);
		// Idempotent per interview, so a retried flush never frees a slot twice.
		if (item.kind === "release_slot")
			await accountStub(env, state.accountId).releaseSlot(state.accountId, state.id);
	}
	await publishEvents(env, events, known);
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
