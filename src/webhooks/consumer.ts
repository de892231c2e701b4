import type { BatchItem } from "drizzle-orm/batch";
import { type Db, getDb } from "../platform/db/client";
import { errorText } from "../platform/lib/error-text";
import { newId } from "../platform/lib/random";
import { type AttemptReport, attemptDelivery } from "./attempt";
import { shouldDisable } from "./auto-disable";
import { parseRetryDelays, parseTimeoutMs, retryDelaySeconds } from "./backoff";
import { type NextStep, nextStep } from "./classify";
import {
	attemptStatements,
	claimAttemptStatement,
	claimStates,
	type DeliveryContext,
	loadDeliveryContext,
	loadDeliveryContexts,
	recordedAttempts,
	settlePendingDelivery,
	settlePendingStatement,
} from "./deliveries-repo";
import {
	disableFailingEndpoint,
	type EndpointRow,
	findEndpointById,
	markDisabledEventPublished,
	recordEndpointAttempt,
} from "./endpoints-repo";
import { parseDeliveryMessage } from "./message";
import { publishEvents } from "./publish";
import { signingSecrets } from "./secrets";

export interface ConsumerConfig {
	environment: string;
	timeoutMs: number;
	retryDelays: number[];
	clock: () => number;
}

export function consumerConfig(env: Env, overrides: Partial<ConsumerConfig> = {}): ConsumerConfig {
	return {
		environment: env.ENVIRONMENT,
		timeoutMs: parseTimeoutMs(env.WEBHOOK_TIMEOUT_MS),
		retryDelays: parseRetryDelays(env.WEBHOOK_RETRY_DELAYS),
		clock: Date.now,
		...overrides,
	};
}

/**
 * Attempts in flight at once within one batch: a Worker invocation keeps at most six outgoing
 * connections open and queues the rest, so a seventh fetch would spend its timeout waiting for a
 * connection. Each attempt's timeout starts when its request does.
 */
export const ATTEMPTS_IN_FLIGHT = 6;

/** A well-formed message of the batch, and the attempt number it stands for. */
interface Job {
	message: Message;
	deliveryId: string;
	attempt: number;
}

/** A message whose delivery is pending, with an endpoint, account and event to attempt it with. */
interface Target extends Job {
	ctx: DeliveryContext;
	endpoint: EndpointRow;
	account: NonNullable<DeliveryContext["account"]>;
	data: Record<string, unknown>;
}

/** A claimed attempt that was made, with what to do with its message next. */
interface Attempted extends Target {
	report: AttemptReport;
	step: NextStep;
	finishedAt: number;
}

/** The endpoint's failure run after an attempt was counted (`recordEndpointAttempt`). */
type Counters = { consecutiveFailures: number; failingSince: number | null; active: boolean };

/**
 * The `interview-webhooks` consumer: one attempt per message, with the batch's D1 work done per
 * batch rather than per message, since every D1 round trip is costly (locally the Worker, the
 * objects and D1 share one thread; in production each is a trip to the database). For a batch:
 * one read of every delivery's context; one D1 batch that claims the attempts to make (each its
 * own guarded update, so a second message for the same attempt takes nothing) and settles the
 * deliveries to cancel; the attempts, up to `ATTEMPTS_IN_FLIGHT` at once, each bounded by the
 * timeout; one D1 batch recording every attempt, the deliveries' new state and the endpoints'
 * counters, in the order the attempts ended. Each message is then acked or retried on its own: a
 * failed attempt through `message.retry` with the schedule's delay; after the last attempt the
 * delivery is failed and the message is retried once more so that the queue dead-letters it
 * (`max_retries = 5`). A failure of our own (D1 unavailable) retries the messages whose work it
 * stopped, with the schedule's delay, and no other (see `runGroups`).
 */
export async function consumeWebhookBatch(
	batch: MessageBatch,
	env: Env,
	overrides: Partial<ConsumerConfig> = {},
): Promise<void> {
	const config = consumerConfig(env, overrides);
	const db = getDb(env.DB);
	const jobs: Job[] = [];
	for (const message of batch.messages) {
		const body = parseDeliveryMessage(message.body);
		if (!body) {
			console.warn(JSON.stringify({ message: "dropping malformed webhook message", id: message.id }));
			message.ack();
			continue;
		}
		// A message handed over again by the resend sweep counts on from the attempts already made.
		jobs.push({ message, deliveryId: body.delivery_id, attempt: (body.base ?? 0) + message.attempts });
	}
	if (jobs.length === 0) return;

	let contexts: Map<string, DeliveryContext>;
	try {
		contexts = await loadDeliveryContexts(
			db,
			jobs.map((job) => job.deliveryId),
		);
	} catch (error) {
		for (const job of jobs) processingFailed(job, error, config);
		return;
	}
	const targets = await claimAttempts(env, db, jobs, contexts, config);
	const attempted = await attemptAll(targets, config);
	await recordAttempts(env, db, attempted, config);
}

/**
 * Settles what will not be attempted and claims the attempts of the rest, in one D1 batch; acks
 * or retries every message that stops here, and returns the claimed ones.
 */
async function claimAttempts(
	env: Env,
	db: Db,
	jobs: readonly Job[],
	contexts: ReadonlyMap<string, DeliveryContext>,
	config: ConsumerConfig,
): Promise<Target[]> {
	// Once per endpoint of the batch, whatever its deliveries' state, as each message did alone.
	const endpoints = new Map<string, EndpointRow>();
	for (const { endpoint } of contexts.values()) if (endpoint) endpoints.set(endpoint.id, endpoint);
	const publishFailures = new Map<string, unknown>();
	for (const endpoint of endpoints.values()) {
		try {
			await publishPendingDisabledEvent(env, endpoint);
		} catch (error) {
			publishFailures.set(endpoint.id, error);
		}
	}
	const now = config.clock();
	const writes: { job: Job; statement: BatchItem<"sqlite">; target: Target | null }[] = [];
	for (const job of jobs) {
		const ctx = contexts.get(job.deliveryId);
		if (!ctx) {
			job.message.ack();
			continue;
		}
		if (ctx.endpoint && publishFailures.has(ctx.endpoint.id)) {
			processingFailed(job, publishFailures.get(ctx.endpoint.id), config);
			continue;
		}
		if (ctx.delivery.outcome !== "pending") {
			job.message.ack();
			continue;
		}
		const target = targetOf(job, ctx);
		if (typeof target === "string") {
			const statement = settlePendingStatement(db, job.deliveryId, "cancelled", target, now);
			writes.push({ job, statement, target: null });
		} else {
			const statement = claimAttemptStatement(db, job.deliveryId, job.attempt, now);
			writes.push({ job, statement, target });
		}
	}
	const done = await runGroups(
		db,
		writes.map((w) => [w.statement]),
		() => claimsWritten(db, writes, now),
	);
	const targets: Target[] = [];
	for (const [i, { job, target }] of writes.entries()) {
		const result = done[i] as GroupResult;
		if (!result.ok) processingFailed(job, result.error, config);
		// A second message for this delivery (at least once) finds its attempt taken, and stops.
		else if (!target || (result.results[0] as unknown[]).length === 0) job.message.ack();
		else targets.push(target);
	}
	return targets;
}

/**
 * After the claims' D1 batch reported a failure: whether it committed all the same (its answer
 * lost), and if so each write's result as the batch would have returned it. A claim sets the
 * delivery's attempt count and `updated_at` to this batch's `now`, a settlement its outcome and
 * `updated_at`; one of them found means the whole batch was written (it is one transaction). In
 * the batch's order, the first claim of an attempt number took it, as when the batch ran.
 */
async function claimsWritten(
	db: Db,
	writes: readonly { job: Job; target: Target | null }[],
	now: number,
): Promise<GroupResult[] | null> {
	const states = new Map(
		(
			await claimStates(
				db,
				writes.map((w) => w.job.deliveryId),
			)
		).map((s) => [s.id, s]),
	);
	const wrote = (w: { job: Job; target: Target | null }) => {
		const state = states.get(w.job.deliveryId);
		if (!state || state.updatedAt !== now) return false;
		return w.target ? state.attemptCount === w.job.attempt : state.outcome === "cancelled";
	};
	if (!writes.some(wrote)) return null;
	const taken = new Set<string>();
	return writes.map((w) => {
		const key = `${w.job.deliveryId}/${w.job.attempt}`;
		const took = w.target !== null && wrote(w) && !taken.has(key);
		if (took) taken.add(key);
		return { ok: true, results: [took ? [{ id: w.job.deliveryId }] : []] };
	});
}

/** What to attempt a pending delivery with, or why it is cancelled instead. */
function targetOf(job: Job, ctx: DeliveryContext): Target | string {
	const { endpoint, account } = ctx;
	if (!endpoint || !account) return "The endpoint was deleted";
	if (!endpoint.active) return "The endpoint is disabled";
	const data = ctx.delivery.payload ?? ctx.event?.data;
	if (!data) return "The event no longer exists";
	return { ...job, ctx, endpoint, account, data };
}

/** The claimed attempts, up to `ATTEMPTS_IN_FLIGHT` at once; each message's own failure retries it. */
async function attemptAll(targets: readonly Target[], config: ConsumerConfig): Promise<Attempted[]> {
	const attempted: Attempted[] = [];
	let next = 0;
	const lane = async () => {
		while (next < targets.length) {
			const target = targets[next++] as Target;
			const { ctx, endpoint, account } = target;
			try {
				const report = await attemptDelivery(
					{
						url: endpoint.url,
						endpointId: endpoint.id,
						deliveryId: ctx.delivery.id,
						eventId: ctx.delivery.eventId,
						eventType: ctx.delivery.eventType,
						data: target.data,
						account: { id: account.id, name: account.name },
						secrets: signingSecrets(account.secret, ctx.previous, config.clock()),
					},
					config,
				);
				const step = nextStep(report.classification.outcome, target.attempt, config.retryDelays);
				attempted.push({ ...target, report, step, finishedAt: report.attemptedAt + report.durationMs });
			} catch (error) {
				processingFailed(target, error, config);
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(ATTEMPTS_IN_FLIGHT, targets.length) }, lane));
	return attempted;
}

/**
 * Records the attempts in one D1 batch, in the order they ended (so the endpoints' counters and
 * last attempt count them in that order), disables an endpoint whose failure run reached the
 * rule after one of them, and acks or retries each message as its attempt decided.
 */
async function recordAttempts(
	env: Env,
	db: Db,
	attempted: readonly Attempted[],
	config: ConsumerConfig,
): Promise<void> {
	const ordered = [...attempted].sort((a, b) => a.finishedAt - b.finishedAt);
	const recorded = await runGroups(
		db,
		ordered.map((a) => {
			const { step, finishedAt } = a;
			const [insertAttempt, updateDelivery] = attemptStatements(db, {
				delivery: a.ctx.delivery,
				attempt: a.attempt,
				url: a.endpoint.url,
				...a.report,
				nextAttemptAt: step.action === "retry" ? finishedAt + step.delaySeconds * 1000 : null,
				outcome: step.action === "done" ? "succeeded" : step.action === "give_up" ? "failed" : "pending",
			});
			return [
				insertAttempt,
				updateDelivery,
				recordEndpointAttempt(db, a.endpoint.id, a.report.classification, finishedAt),
			];
		}),
		() => recordsWritten(db, ordered),
	);
	// Endpoints this batch found disabled after an attempt: later attempts' counters predate that.
	const disabled = new Set<string>();
	for (const [i, a] of ordered.entries()) {
		const result = recorded[i] as GroupResult;
		if (!result.ok) {
			processingFailed(a, result.error, config);
			continue;
		}
		const counters = (result.results[2] as Counters[])[0];
		if (counters?.active && !disabled.has(a.endpoint.id) && shouldDisable(counters, a.finishedAt)) {
			try {
				await disableEndpoint(env, db, { ...a.endpoint, ...counters }, a.finishedAt);
				disabled.add(a.endpoint.id);
			} catch (error) {
				processingFailed(a, error, config);
				continue;
			}
		}
		switch (a.step.action) {
			case "done":
				a.message.ack();
				break;
			case "retry":
				a.message.retry({ delaySeconds: a.step.delaySeconds });
				break;
			case "give_up":
				a.message.retry();
				break;
		}
	}
}

/**
 * After the records' D1 batch reported a failure: whether it committed all the same, and if so
 * each group's result. One attempt row found means the whole batch was written. Each endpoint's
 * counters are read as they are now, after all of the batch's attempts, and given to its last
 * attempt only: the disable rule is applied once, to where the failure run ended.
 */
async function recordsWritten(db: Db, ordered: readonly Attempted[]): Promise<GroupResult[] | null> {
	const found = await recordedAttempts(db, ordered);
	if (found.length === 0) return null;
	const counters = new Map(found.map((f) => [f.endpointId, f.counters]));
	const last = new Map(ordered.map((a, i) => [a.endpoint.id, i]));
	return ordered.map((a, i) => {
		const now = last.get(a.endpoint.id) === i ? counters.get(a.endpoint.id) : null;
		return { ok: true, results: [[], [], now ? [now] : []] };
	});
}

/**
 * Our own failure (D1 unavailable, ...): not the receiver's fault, but the schedule still bounds
 * it, and the dead-letter consumer settles a delivery whose message runs out.
 */
function processingFailed(job: Job, error: unknown, config: ConsumerConfig): void {
	console.error(
		JSON.stringify({
			message: "webhook delivery processing failed",
			delivery_id: job.deliveryId,
			error: errorText(error),
		}),
	);
	const delay = retryDelaySeconds(job.attempt, config.retryDelays);
	job.message.retry(delay === null ? {} : { delaySeconds: delay });
}

type GroupResult = { ok: true; results: unknown[] } | { ok: false; error: unknown };

/**
 * Runs each message's statements (a group) in one D1 batch for all of them: one round trip. A D1
 * batch is one transaction: when it reports a failure, either nothing of it was written, or all
 * of it was and only the answer was lost. `written` tells which (null: nothing), and gives each
 * group's result in the second case. In the first, each group runs in a batch of its own, in
 * order, and only the messages whose own statements fail are failed. So one message's failure
 * never loses another's claim or record (an attempt made and not recorded would be made again by
 * the message's retry), and a batch that was written is not written again. If `written` fails too
 * (D1 unreachable), the groups run alone: a claim already taken then takes nothing (its delivery
 * waits for the resend sweep), and an attempt already recorded fails on the attempts' unique
 * index, so neither its row nor its counters are written twice.
 */
async function runGroups(
	db: Db,
	groups: readonly (readonly BatchItem<"sqlite">[])[],
	written: () => Promise<GroupResult[] | null>,
): Promise<GroupResult[]> {
	const [first, ...rest] = groups.flat();
	if (!first) return groups.map(() => ({ ok: true, results: [] }));
	try {
		const results = (await db.batch([first, ...rest])) as unknown[];
		let at = 0;
		return groups.map((group) => {
			at += group.length;
			return { ok: true, results: results.slice(at - group.length, at) };
		});
	} catch (error) {
		const found = await written().catch(() => null);
		if (found) return found;
		if (groups.length === 1) return [{ ok: false, error }];
		const out: GroupResult[] = [];
		for (const group of groups) {
			const [head, ...tail] = group;
			try {
				out.push({ ok: true, results: head ? ((await db.batch([head, ...tail])) as unknown[]) : [] });
			} catch (failure) {
				out.push({ ok: false, error: failure });
			}
		}
		return out;
	}
}

async function disableEndpoint(env: Env, db: Db, endpoint: EndpointRow, now: number): Promise<void> {
	const disabled = await disableFailingEndpoint(
		env.DB,
		endpoint,
		{
			id: newId("evt"),
			data: {
				webhook_id: endpoint.id,
				url: endpoint.url,
				reason: "failing",
				disabled_at: new Date(now).toISOString(),
				failing_since: endpoint.failingSince === null ? null : new Date(endpoint.failingSince).toISOString(),
				consecutive_failures: endpoint.consecutiveFailures,
			},
		},
		now,
	);
	if (!disabled) return;
	console.warn(JSON.stringify({ message: "webhook endpoint disabled", webhook_id: endpoint.id }));
	const fresh = await findEndpointById(db, endpoint.id);
	if (fresh) await publishPendingDisabledEvent(env, fresh);
}

/**
 * Hands a recorded `webhook.endpoint.disabled` event to the fan-out once. If that fails, the
 * error retries the message, and the next message about this endpoint tries again.
 */
async function publishPendingDisabledEvent(env: Env, endpoint: EndpointRow): Promise<void> {
	if (endpoint.active || !endpoint.disabledEventId || endpoint.disabledEventPublished) return;
	const db = getDb(env.DB);
	// Its deliveries were recorded with the event, in the transaction that disabled the endpoint.
	await publishEvents(env, [{ id: endpoint.disabledEventId }]);
	await markDisabledEventPublished(db, endpoint.id, endpoint.disabledEventId);
}

/**
 * The dead-letter queue's consumer: whatever reached it (the sixth failure, or processing that
 * kept failing) leaves no delivery pending. Settled deliveries are left as they are.
 */
export async function consumeDeadLetters(batch: MessageBatch, env: Env, clock: () => number = Date.now) {
	const db = getDb(env.DB);
	for (const message of batch.messages) {
		const body = parseDeliveryMessage(message.body);
		try {
			if (body) {
				const ctx = await loadDeliveryContext(db, body.delivery_id);
				if (ctx?.endpoint) await publishPendingDisabledEvent(env, ctx.endpoint);
				await settlePendingDelivery(
					db,
					body.delivery_id,
					"failed",
					"Dead-lettered after the last attempt",
					clock(),
				);
			}
			message.ack();
		} catch (error) {
			console.error(
				JSON.stringify({ message: "dead letter not settled", id: message.id, error: errorText(error) }),
			);
			message.retry();
		}
	}
}
