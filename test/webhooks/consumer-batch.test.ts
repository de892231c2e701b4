// The webhook consumer works per queue batch (src/webhooks/consumer.ts): one read of every
// delivery's context, one D1 batch of claims and settlements, the attempts, one D1 batch of
// records. These tests pin what must not change with that: each message's own outcome, one
// attempt per attempt number, the auto-disable rule applied attempt by attempt, a failure of one
// message's work retrying that message only, and the round trips a batch costs.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { callCountsWanted, readCallCounts } from "../../src/platform/lib/call-counts";
import { type ConsumerConfig, consumeWebhookBatch } from "../../src/webhooks/consumer";
import { deliveryMessage } from "../../src/webhooks/message";
import { call, newAccount, validInterview } from "../support/helpers";
import { receiver } from "../support/receiver-client";
import {
	attemptsOf,
	createWebhook,
	deliveriesOf,
	deliveryRow,
	type PendingDelivery,
	runConsumer,
} from "../support/webhooks";

const rx = receiver();
const HOUR = 3600_000;
const routeName = (label: string) => `batch-${label}-${crypto.randomUUID().slice(0, 8)}`;

/** The configured `max_batch_size` of the interview-webhooks consumer (default environment). */
function configuredBatchSize(): number {
	const config = parse(env.TEST_WRANGLER_TOML) as {
		queues: { consumers: { queue: string; max_batch_size: number }[] };
	};
	const consumer = config.queues.consumers.find((c) => c.queue === "interview-webhooks");
	return consumer?.max_batch_size ?? 10;
}

/** `count` interviews of one bulk, so `count` deliveries to each subscribed endpoint. */
async function createInterviews(key: string, count: number) {
	const res = await call("POST", "/v1/interviews/bulk", {
		key,
		body: {
			interviews: Array.from({ length: count }, (_, i) =>
				validInterview({ candidate_email: `b${i}@example.com` }),
			),
		},
	});
	expect(res.status).toBe(200);
	expect(res.body.data.successful).toHaveLength(count);
}

/** One call of the consumer over these deliveries (in this order), as the queue's `attempts`. */
async function consume(
	items: (PendingDelivery & { attempts?: number })[],
	options: { env?: Env; overrides?: Partial<ConsumerConfig> } = {},
) {
	const batch = createMessageBatch(
		"interview-webhooks",
		items.map((d, i) => ({
			id: `msg-${i}-${d.id}`,
			timestamp: new Date(),
			attempts: d.attempts ?? d.attemptCount + 1,
			body: deliveryMessage({ id: d.id, endpointId: d.endpointId, eventId: d.eventId }),
		})),
	);
	// The queue helpers do not report a retry's delay: each message's retry options are kept here.
	const retries = new Map<string, QueueRetryOptions | undefined>();
	const messages = batch.messages.map((m) => ({
		id: m.id,
		timestamp: m.timestamp,
		body: m.body,
		attempts: m.attempts,
		ack: () => m.ack(),
		retry: (retry?: QueueRetryOptions) => {
			retries.set(m.id, retry);
			m.retry(retry);
		},
	}));
	const seen = { ...batch, queue: batch.queue, messages } as unknown as MessageBatch;
	await consumeWebhookBatch(seen, options.env ?? env, options.overrides);
	const result = await getQueueResult(batch, createExecutionContext());
	return { result, ids: batch.messages.map((m) => m.id), retries };
}

/** The statements that claim an attempt, and those that record one. */
const statementsOf = {
	claim: /^update "webhook_deliveries" set "attempt_count"/,
	record: /^insert into "webhook_attempts"/i,
};

/**
 * The local D1, with each statement of `kind` passed through `bound` once its parameters are
 * bound, every query through `preparing` first, and every D1 batch run by `batch`.
 */
function wrappedD1(
	kind: keyof typeof statementsOf,
	hooks: {
		bound(statement: D1PreparedStatement, args: unknown[]): D1PreparedStatement;
		batch(statements: D1PreparedStatement[], run: () => Promise<D1Result[]>): Promise<D1Result[]>;
		preparing?(query: string): void;
	},
): D1Database {
	return new Proxy(env.DB, {
		get(target, prop) {
			if (prop === "prepare") {
				return (query: string) => {
					hooks.preparing?.(query);
					const statement = target.prepare(query);
					if (!statementsOf[kind].test(query)) return statement;
					return new Proxy(statement, {
						get(s, p) {
							const value = Reflect.get(s, p, s);
							if (p !== "bind") return typeof value === "function" ? value.bind(s) : value;
							return (...args: unknown[]) => hooks.bound(s.bind(...args), args);
						},
					});
				};
			}
			if (prop === "batch") {
				return (statements: D1PreparedStatement[]) => hooks.batch(statements, () => target.batch(statements));
			}
			const value = Reflect.get(target, prop, target);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
}

/**
 * The local D1 with one fault: a statement of `kind` for `deliveryId` fails, run alone or in a D1
 * batch (which then writes nothing: a batch is one transaction), as a database error would.
 */
function failingFor(deliveryId: string, kind: "claim" | "record"): D1Database {
	const fault = () => new Error("D1_ERROR: injected fault");
	/** The poisoned statements handed out. */
	const poisoned = new WeakSet<object>();
	const poison = (bound: D1PreparedStatement) => {
		const proxy = new Proxy(bound, {
			get(target, prop) {
				if (prop === "run" || prop === "all" || prop === "first" || prop === "raw") {
					return async () => {
						throw fault();
					};
				}
				const value = Reflect.get(target, prop, target);
				return typeof value === "function" ? value.bind(target) : value;
			},
		});
		poisoned.add(proxy);
		return proxy;
	};
	return wrappedD1(kind, {
		bound: (bound, args) => (args.includes(deliveryId) ? poison(bound) : bound),
		batch: async (statements, run) => {
			if (statements.some((s) => poisoned.has(s))) throw fault();
			return run();
		},
	});
}

/**
 * The local D1 whose first batch holding a statement of `kind` is written and then reported as
 * failed, its answer lost on the way back; with `unreadableAfter`, every read prepared after that
 * fails too, so nothing can tell whether it was written (writes still reach D1).
 */
function losingAnswerOf(kind: "claim" | "record", options: { unreadableAfter?: boolean } = {}): D1Database {
	const marked = new WeakSet<object>();
	let armed = true;
	let unreadable = false;
	const lost = () => new Error("D1_ERROR: Network connection lost.");
	return wrappedD1(kind, {
		preparing: (query) => {
			if (unreadable && /^\s*select/i.test(query)) throw lost();
		},
		bound: (bound) => {
			marked.add(bound);
			return bound;
		},
		batch: async (statements, run) => {
			const results = await run();
			if (armed && statements.some((s) => marked.has(s))) {
				armed = false;
				unreadable = options.unreadableAfter === true;
				throw lost();
			}
			return results;
		},
	});
}

/** An endpoint whose receiver answers 500 to everything, subscribed to `interview.scheduled`. */
async function failingEndpoint(key: string, label: string) {
	const name = routeName(label);
	const endpoint = await createWebhook(key, {
		url: await rx.route(name, { fallback: "500" }),
		events: ["interview.scheduled"],
	});
	return { name, endpoint };
}

/** Puts an endpoint `failures` failures into a run that began at `since`. */
async function failingSince(endpointId: string, failures: number, since: number) {
	await env.DB.prepare(
		"UPDATE webhook_endpoints SET consecutive_failures = ?1, failing_since = ?2 WHERE id = ?3",
	)
		.bind(failures, since, endpointId)
		.run();
}

/** Asserts the endpoint was disabled as failing, with these counts, by one event; returns its data. */
async function expectDisabledOnce(
	account: { id: string; live: string },
	endpointId: string,
	counts: { consecutive: number; total_failed_attempts: number },
): Promise<Record<string, unknown>> {
	const view = (await call("GET", `/v1/webhooks/${endpointId}`, { key: account.live })).body.data;
	expect(view).toMatchObject({ active: false, disabled_reason: "failing", failure_counts: counts });
	const events = await env.DB.prepare("SELECT data FROM events WHERE account_id = ? AND type = ?")
		.bind(account.id, "webhook.endpoint.disabled")
		.all<{ data: string }>();
	expect(events.results).toHaveLength(1);
	return JSON.parse(events.results[0]!.data);
}

describe("a batch of webhook messages", () => {
	it("makes one attempt when two messages of the batch carry the same delivery and attempt, and acks both", async () => {
		const account = await newAccount();
		const name = routeName("same");
		const endpoint = await createWebhook(account.live, { url: await rx.route(name), events: ["*"] });
		await createInterviews(account.live, 3);
		const [a, b, c] = await deliveriesOf(endpoint.id);
		const { result, ids } = await consume([a!, b!, { ...a! }, c!, { ...b! }]);
		expect(result.explicitAcks.sort()).toEqual([...ids].sort());
		expect(result.retryMessages).toEqual([]);
		const requests = await rx.requests(name);
		expect(requests.map((r) => r.headers["x-service-delivery"]).sort()).toEqual([a!.id, b!.id, c!.id].sort());
		const log = await attemptsOf(endpoint.id);
		expect(log.map((l) => [l.delivery_id, l.attempt]).sort()).toEqual(
			[a!, b!, c!].map((d) => [d.id, 1]).sort(),
		);
		for (const d of [a!, b!, c!]) {
			expect(await deliveryRow(d.id)).toMatchObject({ outcome: "succeeded", attempt_count: 1 });
		}
	});

	it("logs no attempt for a delivery whose endpoint was deleted while the attempt was in flight", async () => {
		const account = await newAccount();
		const name = routeName("deleted-meanwhile");
		const endpoint = await createWebhook(account.live, {
			url: await rx.route(name, { fallback: "hang" }),
			events: ["*"],
		});
		await createInterviews(account.live, 1);
		const [delivery] = await deliveriesOf(endpoint.id);
		const consumed = consume([delivery!], { overrides: { timeoutMs: 1_500 } });
		// The request reaches the receiver, which holds it; the endpoint is deleted meanwhile.
		for (let i = 0; i < 100 && (await rx.requests(name)).length === 0; i++)
			await new Promise((r) => setTimeout(r, 20));
		expect(await rx.requests(name)).toHaveLength(1);
		expect((await call("DELETE", `/v1/webhooks/${endpoint.id}`, { key: account.live })).status).toBe(200);
		const { result } = await consumed;
		expect(result.retryMessages).toHaveLength(1);
		expect(await deliveryRow(delivery!.id)).toBeNull();
		// Nothing would ever delete an attempt whose delivery is gone: none is written.
		expect(await attemptsOf(endpoint.id)).toEqual([]);
	});

	it("settles each message of a batch mixing deleted, disabled, eventless, settled and good deliveries as it would alone", async () => {
		const account = await newAccount();
		const name = routeName("mixed");
		const url = await rx.route(name);
		const good = await createWebhook(account.live, { url, events: ["*"] });
		const disabled = await createWebhook(account.live, { url, events: ["*"] });
		const removed = await createWebhook(account.live, { url, events: ["*"] });
		const orphaned = await createWebhook(account.live, { url, events: ["*"] });
		await createInterviews(account.live, 2);
		const [good1, good2] = await deliveriesOf(good.id);
		const [toDisabled] = await deliveriesOf(disabled.id);
		const [toRemoved] = await deliveriesOf(removed.id);
		const [toOrphaned] = await deliveriesOf(orphaned.id);
		// good2's event is gone (as retention would do); good1 reached its receiver already.
		const disabledEventless = (await deliveriesOf(disabled.id))[1]!;
		await env.DB.prepare("DELETE FROM events WHERE id = ?").bind(good2!.eventId).run();
		await consume([good1!]);
		expect(await rx.requests(name)).toHaveLength(1);
		await call("PATCH", `/v1/webhooks/${disabled.id}`, { key: account.live, body: { active: false } });
		// Deleted through the API, deliveries go with it; deleted under them, the row is left.
		await call("DELETE", `/v1/webhooks/${removed.id}`, { key: account.live });
		await env.DB.prepare("DELETE FROM webhook_endpoints WHERE id = ?").bind(orphaned.id).run();
		const fresh = await createWebhook(account.live, { url, events: ["*"] });
		await createInterviews(account.live, 1);
		const [ok] = await deliveriesOf(fresh.id);

		const { result, ids } = await consume([
			{ ...good1!, attempts: 1 },
			toDisabled!,
			good2!,
			toRemoved!,
			ok!,
			toOrphaned!,
			disabledEventless,
		]);
		expect(result.explicitAcks.sort()).toEqual([...ids].sort());
		expect(result.retryMessages).toEqual([]);
		const requests = (await rx.requests(name)).map((r) => r.headers["x-service-delivery"]);
		expect(requests).toEqual([good1!.id, ok!.id]);
		expect(await deliveryRow(ok!.id)).toMatchObject({ outcome: "succeeded", attempt_count: 1 });
		expect(await deliveryRow(good1!.id)).toMatchObject({ outcome: "succeeded", attempt_count: 1 });
		expect(await deliveryRow(toRemoved!.id)).toBeNull();
		const reason = async (id: string) =>
			env.DB.prepare("SELECT outcome, last_error, attempt_count FROM webhook_deliveries WHERE id = ?")
				.bind(id)
				.first();
		expect(await reason(toDisabled!.id)).toEqual({
			outcome: "cancelled",
			last_error: "The endpoint is disabled",
			attempt_count: 0,
		});
		expect(await reason(disabledEventless.id)).toEqual({
			outcome: "cancelled",
			last_error: "The endpoint is disabled",
			attempt_count: 0,
		});
		expect(await reason(good2!.id)).toEqual({
			outcome: "cancelled",
			last_error: "The event no longer exists",
			attempt_count: 0,
		});
		expect(await reason(toOrphaned!.id)).toEqual({
			outcome: "cancelled",
			last_error: "The endpoint was deleted",
			attempt_count: 0,
		});
	});

	it.each(["claim", "record"] as const)(
		"retries only the message whose %s fails in D1, with the schedule's delay, and records the others",
		async (kind) => {
			const account = await newAccount();
			const name = routeName(`fault-${kind}`);
			const endpoint = await createWebhook(account.live, { url: await rx.route(name), events: ["*"] });
			await createInterviews(account.live, 4);
			const deliveries = await deliveriesOf(endpoint.id);
			const broken = deliveries[1]!;
			const faulty = { ...env, DB: failingFor(broken.id, kind) } as Env;
			const { result, ids, retries } = await consume(deliveries, { env: faulty });

			expect(result.retryMessages).toEqual([{ msgId: ids[1] }]);
			// Attempt 1's place in the schedule: the first retry delay.
			expect([...retries]).toEqual([[ids[1], { delaySeconds: 60 }]]);
			expect(result.explicitAcks.sort()).toEqual(ids.filter((_, i) => i !== 1).sort());
			const others = deliveries.filter((d) => d.id !== broken.id);
			const log = await attemptsOf(endpoint.id);
			expect(log.map((l) => l.delivery_id).sort()).toEqual(others.map((d) => d.id).sort());
			for (const d of others) expect(await deliveryRow(d.id)).toMatchObject({ outcome: "succeeded" });
			const requested = (await rx.requests(name)).map((r) => r.headers["x-service-delivery"]);
			expect(requested.filter((id) => id !== broken.id).sort()).toEqual(others.map((d) => d.id).sort());
			// A failed claim made no attempt; a failed record left the attempt made and claimed, so
			// the message's retry makes the next one.
			expect(requested.filter((id) => id === broken.id)).toHaveLength(kind === "claim" ? 0 : 1);
			expect(await deliveryRow(broken.id)).toMatchObject({
				outcome: "pending",
				attempt_count: kind === "claim" ? 0 : 1,
			});

			const again = await runConsumer([{ ...broken, attempts: 2 }]);
			expect(again.result.explicitAcks).toEqual(again.messageIds);
			expect(await deliveryRow(broken.id)).toMatchObject({ outcome: "succeeded", attempt_count: 2 });
		},
	);

	it("records each attempt once when the records' batch is written and its answer lost, and applies the disable rule once", async () => {
		const account = await newAccount();
		const okName = routeName("lost-record-ok");
		const ok = await createWebhook(account.live, {
			url: await rx.route(okName),
			events: ["interview.scheduled"],
		});
		const { endpoint: failing } = await failingEndpoint(account.live, "lost-record-failing");
		await createInterviews(account.live, 2);
		const t0 = Date.now() - 80 * HOUR;
		// Eight failures since t0: this batch's two make ten, 73 hours on, which reaches the rule.
		await failingSince(failing.id, 8, t0);
		const toOk = await deliveriesOf(ok.id);
		const toFailing = await deliveriesOf(failing.id);
		const { result, ids, retries } = await consume([...toOk, ...toFailing], {
			env: { ...env, DB: losingAnswerOf("record") } as Env,
			overrides: { clock: () => t0 + 73 * HOUR },
		});

		// Each message goes on as its attempt decided, not as a failure of ours.
		expect(result.explicitAcks.sort()).toEqual(ids.slice(0, 2).sort());
		expect(result.retryMessages.map((m) => m.msgId).sort()).toEqual(ids.slice(2).sort());
		for (const id of ids.slice(2)) expect(retries.get(id)).toEqual({ delaySeconds: 60 });
		for (const endpoint of [ok, failing]) {
			const log = await attemptsOf(endpoint.id);
			expect(log.map((l) => [l.delivery_id, l.attempt]).sort()).toEqual(
				(endpoint === ok ? toOk : toFailing).map((d) => [d.id, 1]).sort(),
			);
		}
		const okView = (await call("GET", `/v1/webhooks/${ok.id}`, { key: account.live })).body.data;
		expect(okView.failure_counts).toMatchObject({ consecutive: 0, total_failed_attempts: 0 });
		await expectDisabledOnce(account, failing.id, { consecutive: 10, total_failed_attempts: 2 });
	});

	it("makes the attempts the claims' batch took when it is written and its answer lost", async () => {
		const account = await newAccount();
		const name = routeName("lost-claim");
		const endpoint = await createWebhook(account.live, { url: await rx.route(name), events: ["*"] });
		await createInterviews(account.live, 3);
		const [a, b, c] = await deliveriesOf(endpoint.id);
		// b twice: the batch's second message for the same attempt still takes nothing.
		const { result, ids } = await consume([a!, b!, { ...b! }, c!], {
			env: { ...env, DB: losingAnswerOf("claim") } as Env,
		});
		expect(result.explicitAcks.sort()).toEqual([...ids].sort());
		expect(result.retryMessages).toEqual([]);
		const requested = (await rx.requests(name)).map((r) => r.headers["x-service-delivery"]);
		expect(requested.sort()).toEqual([a!.id, b!.id, c!.id].sort());
		for (const d of [a!, b!, c!]) {
			expect(await deliveryRow(d.id)).toMatchObject({ outcome: "succeeded", attempt_count: 1 });
		}
		expect(await attemptsOf(endpoint.id)).toHaveLength(3);
	});

	it("writes no attempt twice when the records' batch is written, its answer lost, and D1 then cannot be read", async () => {
		const account = await newAccount();
		const { endpoint } = await failingEndpoint(account.live, "lost-record-unreadable");
		await createInterviews(account.live, 2);
		const deliveries = await deliveriesOf(endpoint.id);
		const { result, ids, retries } = await consume(deliveries, {
			env: { ...env, DB: losingAnswerOf("record", { unreadableAfter: true }) } as Env,
		});
		// Failures of ours: retried on the schedule (attempt 1's delay is the same as the step's).
		expect(result.retryMessages.map((m) => m.msgId).sort()).toEqual([...ids].sort());
		for (const id of ids) expect(retries.get(id)).toEqual({ delaySeconds: 60 });
		const log = await attemptsOf(endpoint.id);
		expect(log.map((l) => [l.delivery_id, l.attempt]).sort()).toEqual(
			deliveries.map((d) => [d.id, 1]).sort(),
		);
		const view = (await call("GET", `/v1/webhooks/${endpoint.id}`, { key: account.live })).body.data;
		expect(view.failure_counts).toMatchObject({ consecutive: 2, total_failed_attempts: 2 });
		// The retry makes attempt 2, once.
		const again = await runConsumer(deliveries.map((d) => ({ ...d, attempts: 2 })));
		expect(again.result.retryMessages).toHaveLength(2);
		expect((await attemptsOf(endpoint.id)).filter((l) => l.attempt === 2)).toHaveLength(2);
	});

	it("applies several attempts on one endpoint in order, and disables it once, at the attempt that reached the rule", async () => {
		const account = await newAccount();
		const { name: failingName, endpoint: failing } = await failingEndpoint(account.live, "disable");
		await createInterviews(account.live, 3);
		const deliveries = await deliveriesOf(failing.id);
		const t0 = Date.now() - 80 * HOUR;
		// Eight failures since t0: the batch's second failure is the tenth, 73 hours on.
		await failingSince(failing.id, 8, t0);
		const { result, ids, retries } = await consume(deliveries, {
			overrides: { clock: () => t0 + 73 * HOUR },
		});
		expect(result.retryMessages.map((m) => m.msgId).sort()).toEqual([...ids].sort());
		for (const id of ids) expect(retries.get(id)).toEqual({ delaySeconds: 60 });
		expect(await rx.requests(failingName)).toHaveLength(3);

		const disabled = await expectDisabledOnce(account, failing.id, {
			consecutive: 11,
			total_failed_attempts: 3,
		});
		expect(disabled).toMatchObject({
			webhook_id: failing.id,
			consecutive_failures: 10,
			failing_since: new Date(t0).toISOString(),
		});
	});

	it("costs three D1 round trips however many messages it holds, up to the configured batch size", async () => {
		const size = configuredBatchSize();
		const account = await newAccount();
		const name = routeName("trips");
		const endpoint = await createWebhook(account.live, { url: await rx.route(name), events: ["*"] });
		await createInterviews(account.live, size);
		const deliveries = await deliveriesOf(endpoint.id);
		expect(deliveries).toHaveLength(size);

		callCountsWanted({ ENVIRONMENT: "development", DEV_CALL_COUNTS: "1" });
		let counts: ReturnType<typeof readCallCounts>;
		let acked: string[];
		try {
			readCallCounts(true);
			// Every statement also passes the bound-parameter guard (src/platform/db/client.ts).
			acked = (await consume(deliveries)).result.explicitAcks;
			counts = readCallCounts(true);
		} finally {
			callCountsWanted({});
		}
		expect(acked).toHaveLength(size);
		// The contexts' read; the claims; the records (attempt, delivery and endpoint per message).
		expect(counts.d1Executions + counts.d1Batches).toBe(3);
		expect(counts.d1BatchedStatements).toBe(size + 3 * size);
		expect(new Set((await rx.requests(name)).map((r) => r.headers["x-service-delivery"])).size).toBe(size);
		expect(await deliveriesOf(endpoint.id, "succeeded")).toHaveLength(size);
	});
});
