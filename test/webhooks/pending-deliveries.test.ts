import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "../../src/platform/db/client";
import {
	PENDING_EVENTS_PER_STATEMENT,
	pendingDeliveriesOf,
	pendingDeliveriesQuery,
} from "../../src/webhooks/deliveries-repo";

/** Delivery rows written straight to D1: only the columns the read looks at vary. */
async function insertDeliveries(
	rows: { id: string; eventId: string; outcome?: string; enqueuedAt?: number | null }[],
): Promise<void> {
	const json = JSON.stringify(
		rows.map((r) => ({
			id: r.id,
			event_id: r.eventId,
			outcome: r.outcome ?? "pending",
			enqueued_at: r.enqueuedAt ?? null,
		})),
	);
	await env.DB.prepare(
		`INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event_id, event_type, kind, outcome, attempt_count, enqueued_at, created_at, updated_at)
		 SELECT value ->> 'id', 'acc_pending', 'we_pending', value ->> 'event_id', 'interview.updated', 'event',
		        value ->> 'outcome', 0, value ->> 'enqueued_at', 1, 1
		 FROM json_each(?)`,
	)
		.bind(json)
		.run();
}

const sorted = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

describe("the unsent deliveries of recorded events", () => {
	it("reads exactly the pending, never-enqueued deliveries of the events asked about", async () => {
		const tag = crypto.randomUUID().slice(0, 8);
		const e = (n: number) => `evt_${tag}_${n}`;
		await insertDeliveries([
			{ id: `dlv_${tag}_a1`, eventId: e(1) },
			{ id: `dlv_${tag}_a2`, eventId: e(1) },
			{ id: `dlv_${tag}_b1`, eventId: e(2) },
			// Sent already, or final: not unsent.
			{ id: `dlv_${tag}_b2`, eventId: e(2), enqueuedAt: 5 },
			{ id: `dlv_${tag}_c1`, eventId: e(3), outcome: "succeeded" },
			{ id: `dlv_${tag}_c2`, eventId: e(3), outcome: "cancelled" },
			// Another event's, not asked about.
			{ id: `dlv_${tag}_d1`, eventId: e(4) },
		]);
		const db = getDb(env.DB);

		expect(sorted(await pendingDeliveriesOf(db, [e(1)]))).toEqual([`dlv_${tag}_a1`, `dlv_${tag}_a2`]);
		const several = await pendingDeliveriesOf(db, [e(1), e(2), e(3), `evt_${tag}_none`]);
		expect(sorted(several)).toEqual([`dlv_${tag}_a1`, `dlv_${tag}_a2`, `dlv_${tag}_b1`]);
		expect(several.find((d) => d.id === `dlv_${tag}_b1`)).toEqual({
			id: `dlv_${tag}_b1`,
			endpointId: "we_pending",
			eventId: e(2),
		});
		// An event id given twice still reads each delivery once.
		expect(sorted(await pendingDeliveriesOf(db, [e(2), e(2)]))).toEqual([`dlv_${tag}_b1`]);
		expect(await pendingDeliveriesOf(db, [])).toEqual([]);
	});

	it("reads a list longer than one statement takes, in as many statements as it needs", async () => {
		const tag = crypto.randomUUID().slice(0, 8);
		const count = PENDING_EVENTS_PER_STATEMENT + 5;
		const eventIds = Array.from({ length: count }, (_, i) => `evt_${tag}_${i}`);
		await insertDeliveries(eventIds.map((eventId, i) => ({ id: `dlv_${tag}_${i}`, eventId })));
		const db = getDb(env.DB);

		expect(pendingDeliveriesQuery(db, eventIds)).toHaveLength(2);
		const found = await pendingDeliveriesOf(db, eventIds);
		expect(found).toHaveLength(count);
		expect(new Set(found.map((d) => d.eventId))).toEqual(new Set(eventIds));
	});

	it("searches the deliveries' event index for a list of events", async () => {
		// The statements as they reach D1: their SQL and bound values, caught on their way.
		const prepared: { sql: string; args: unknown[] }[] = [];
		const spy = new Proxy(env.DB, {
			get(target, prop) {
				if (prop === "prepare") {
					return (sql: string) => {
						const statement = target.prepare(sql);
						return new Proxy(statement, {
							get(s, p) {
								if (p === "bind")
									return (...args: unknown[]) => {
										prepared.push({ sql, args });
										return s.bind(...args);
									};
								const value = Reflect.get(s, p, s);
								return typeof value === "function" ? value.bind(s) : value;
							},
						});
					};
				}
				const value = Reflect.get(target, prop, target);
				return typeof value === "function" ? value.bind(target) : value;
			},
		});
		expect(pendingDeliveriesQuery(getDb(spy), ["evt_a", "evt_b"])).toHaveLength(1);
		const [statement] = prepared;
		if (!statement) throw new Error("no statement was prepared");
		expect(statement.sql).toContain("json_each");
		const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
			.bind(...statement.args)
			.all<{ detail: string }>();
		const details = plan.results.map((r) => r.detail).join("\n");
		expect(details).toContain("webhook_deliveries_event_idx");
		expect(details).not.toMatch(/SCAN webhook_deliveries\b/);
	});
});
