import { env } from "cloudflare:workers";
import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { type EventRecord, insertEvents } from "../../src/events/events-repo";
import { upsertProjections } from "../../src/interviews/db/interviews-repo";
import { insertSeeds, readSeed } from "../../src/interviews/db/seeds-repo";
import { getDb } from "../../src/platform/db/client";
import { webhookDeliveries, webhookEndpoints } from "../../src/platform/db/schema";
import {
	type Bound,
	boundQuery,
	flatRowReader,
	JSON_ROWS_MAX_CHARS,
	JSON_ROWS_MAX_ROWS,
	JsonRowsTemplate,
	RowsTemplate,
	runBatch,
	runOne,
	runRows,
	Template,
} from "../../src/platform/db/templates";
import { randomBase62 } from "../../src/platform/lib/random";
import { interviewState } from "../fixtures";

const fresh = (prefix: string) => `${prefix}_${randomBase62(24)}`;

function event(accountId: string, i: number, overrides: Partial<EventRecord> = {}): EventRecord {
	return {
		id: fresh("evt"),
		accountId,
		environment: "production",
		type: "interview.scheduled",
		interviewId: null,
		testMode: i % 2 === 0,
		data: { n: i, nested: { ok: true } },
		createdAt: 1_000 + i,
		...overrides,
	};
}

describe("statements built once and bound per use", () => {
	it("binds each row's values, encoded by column: booleans, JSON, and null kept null", async () => {
		const db = getDb(env.DB);
		const accountId = fresh("acc");
		// A hundred rows are one statement of one parameter; the hundred-and-first starts another.
		const records = Array.from({ length: JSON_ROWS_MAX_ROWS + 1 }, (_, i) =>
			event(accountId, i, i === 3 ? { interviewId: "int_x", testMode: true } : {}),
		);
		const statements = insertEvents(db, records);
		expect(statements).toHaveLength(2);
		await runBatch(db, statements);
		// The same statements again (the full one and the one-row one) reuse their SQL with new values.
		const again = records.map((r, i) => ({ ...r, id: fresh("evt"), createdAt: 5_000 + i }));
		await runBatch(db, insertEvents(db, again));

		const { results } = await env.DB.prepare(
			"SELECT id, interview_id, test_mode, data, created_at FROM events WHERE account_id = ? ORDER BY created_at",
		)
			.bind(accountId)
			.all();
		expect(results).toHaveLength(records.length * 2);
		[...records, ...again].forEach((record, i) => {
			expect(results[i]).toEqual({
				id: record.id,
				interview_id: record.interviewId,
				test_mode: record.testMode ? 1 : 0,
				data: JSON.stringify(record.data),
				created_at: record.createdAt,
			});
		});
	});

	it("writes JSON rows exactly as bound rows: an upsert keeps the newer version, the order is kept, and big rows split by size", async () => {
		const db = getDb(env.DB);
		const accountId = fresh("acc");
		const states = Array.from({ length: 7 }, (_, i) =>
			interviewState({
				id: fresh("int"),
				accountId,
				testMode: i % 2 === 0,
				position: `Engineer "${i}" \\ ünïcode`,
				skills: ["SQL", `S${i}`],
				startedAt: i === 3 ? 12.5 : null,
				version: 2,
			}),
		);
		const statements = upsertProjections(db, states);
		expect(statements).toHaveLength(1);
		// One parameter: the guard's limit holds whatever the row count.
		const [one] = statements as [Bound];
		expect((one.statement as unknown as { params: unknown[] }).params).toHaveLength(1);
		await runBatch(db, [one]);
		// An older version never overwrites a newer one; a newer one does.
		const older = states.map((s) => ({ ...s, position: "old", version: 1 }));
		const newer = states.slice(0, 2).map((s) => ({ ...s, position: "new", version: 3 }));
		await runBatch(db, upsertProjections(db, [...older, ...newer]));
		const { results } = await env.DB.prepare(
			"SELECT id, test_mode, position, skills, started_at, version FROM interviews WHERE account_id = ? ORDER BY rowid",
		)
			.bind(accountId)
			.all();
		expect(results).toEqual(
			states.map((s, i) => ({
				id: s.id,
				test_mode: s.testMode ? 1 : 0,
				position: i < 2 ? "new" : s.position,
				skills: JSON.stringify(s.skills),
				started_at: s.startedAt,
				version: i < 2 ? 3 : 2,
			})),
		);
		// Rows whose JSON would pass the size limit go to the next statement.
		const big = Array.from({ length: 3 }, (_, i) =>
			event(accountId, i, { data: { text: "x".repeat(Math.ceil(JSON_ROWS_MAX_CHARS / 2.5)) } }),
		);
		const split = insertEvents(db, big);
		expect(split).toHaveLength(2);
		await runBatch(db, split);
		const stored = await env.DB.prepare("SELECT id FROM events WHERE account_id = ? ORDER BY seq")
			.bind(accountId)
			.all();
		expect(stored.results.map((r) => r.id)).toEqual(big.map((e) => e.id));
	});

	it("reads rows back the way drizzle does: field names and decoded values", async () => {
		const db = getDb(env.DB);
		const accountId = fresh("acc");
		const row = (active: boolean, environment: "production" | "dev") => ({
			id: fresh("wh"),
			accountId,
			environment,
			url: "https://hooks.example.com/x",
			events: ["interview.completed", "*"],
			active,
			createdAt: 1,
			updatedAt: 2,
		});
		const on = row(true, "production");
		await runBatch(db, [
			boundQuery(db, db.insert(webhookEndpoints).values(on)),
			boundQuery(db, db.insert(webhookEndpoints).values(row(false, "production"))),
			boundQuery(db, db.insert(webhookEndpoints).values(row(true, "dev"))),
		]);
		const activeOf = new Template<{ accountId: string; environment: string }>((d) =>
			d
				.select()
				.from(webhookEndpoints)
				.where(
					and(
						eq(webhookEndpoints.accountId, sql.placeholder("accountId")),
						eq(webhookEndpoints.environment, sql.placeholder("environment")),
						eq(webhookEndpoints.active, true),
					),
				),
		);
		const activeEndpoints = async (owner: { accountId: string; environment: string }) =>
			runOne(activeOf.bind(db, owner));
		const found = await activeEndpoints({ accountId, environment: "production" });
		expect(found).toEqual([
			expect.objectContaining({
				...on,
				consecutiveFailures: 0,
				failingSince: null,
				disabledEventPublished: false,
			}),
		]);
		expect(await activeEndpoints({ accountId: fresh("acc"), environment: "production" })).toEqual([]);
	});

	it("round-trips a seed and refuses a statement with no rows or too many", async () => {
		const db = getDb(env.DB);
		const state = interviewState({ id: fresh("int") });
		const seed = { state, outbox: [], timers: [{ name: "start", dueAt: 9 }], wakeAt: 9 };
		await runBatch(db, insertSeeds(db, [seed]));
		expect(await readSeed(db, state.id)).toEqual({ ...seed, claimed: false });
		expect(await readSeed(db, fresh("int"))).toBeNull();
		expect(insertSeeds(db, [])).toEqual([]);
		const two = new RowsTemplate<{ id: string }, "id">(2, ["id"], (d, rows) =>
			d.insert(webhookEndpoints).values(
				rows.map((r) => ({
					...r,
					accountId: "a",
					environment: "dev" as const,
					url: "u",
					events: [],
					active: true,
					createdAt: 0,
					updatedAt: 0,
				})),
			),
		);
		expect(() => two.bind(db, [])).toThrow(/1 to 2 rows, not 0/);
		expect(() => two.bind(db, [{ id: "a" }, { id: "b" }, { id: "c" }])).toThrow(/1 to 2 rows, not 3/);
		expect(() => two.bind(db, [{ id: "a" }, { id: "b" }])).not.toThrow();
	});

	it("stores JSON cells as the exact text JSON.stringify gives, whatever they hold, and a null as SQL null", async () => {
		const db = getDb(env.DB);
		const accountId = fresh("acc");
		// Numbers SQLite could render its own way, strings that need escapes or look like JSON,
		// code points beyond the BMP and a lone surrogate, empty containers, and a JSON null inside.
		const awkward = {
			reals: [0.1, 1e21, 1.5e-7, -2.5, 123456789.125, Number.MAX_SAFE_INTEGER, -0],
			text: 'quote " backslash \\ slash / tab \t newline \n nul \u0000 é 😀 \ud800 </script>',
			lookalikes: ["null", "[1]", '{"a":1}', ""],
			empty: { list: [], map: {} },
			nothing: null,
			nested: [[[{ deep: [true, false] }]]],
		};
		const records = [event(accountId, 0, { data: awkward }), event(accountId, 1, { data: { n: 1 } })];
		await runBatch(db, insertEvents(db, records));
		const { results } = await env.DB.prepare("SELECT data FROM events WHERE account_id = ? ORDER BY seq")
			.bind(accountId)
			.all<{ data: string }>();
		expect(results.map((r) => r.data)).toEqual(records.map((r) => JSON.stringify(r.data)));

		// A seed's JSON text columns, given already serialized, are stored as that text.
		const state = interviewState({ id: fresh("int"), position: awkward.text, instructions: "null" });
		const seed = { state, outbox: [], timers: [{ name: "no_show", dueAt: 1.5e-7 }], wakeAt: 9 };
		const seedStatements = insertSeeds(db, [seed]);
		expect(seedStatements).toHaveLength(1);
		// The state travels as JSON inside the rows' parameter, not as a string escaped into it.
		const [one] = seedStatements as [Bound];
		const [param] = (one.statement as unknown as { params: string[] }).params;
		expect(param).toContain(`,${JSON.stringify(state)},[],`);
		await runBatch(db, seedStatements);
		const row = await env.DB.prepare("SELECT state, outbox, timers FROM interview_seeds WHERE id = ?")
			.bind(state.id)
			.first();
		expect(row).toEqual({
			state: JSON.stringify(state),
			outbox: "[]",
			timers: JSON.stringify(seed.timers),
		});
		expect(await readSeed(db, state.id)).toEqual({ ...seed, claimed: false });

		// A drizzle JSON column with a null value is SQL null, as drizzle writes it; a value is its text.
		const columns = [
			"id",
			"accountId",
			"endpointId",
			"eventId",
			"eventType",
			"kind",
			"payload",
			"outcome",
			"attemptCount",
			"createdAt",
			"updatedAt",
		] as const;
		const deliveries = new JsonRowsTemplate<typeof webhookDeliveries.$inferInsert, (typeof columns)[number]>(
			columns,
			(d, r) => d.insert(webhookDeliveries).values(r),
		);
		const delivery = (id: string, payload: Record<string, unknown> | null) => ({
			id,
			accountId,
			endpointId: "wh_x",
			eventId: "evt_x",
			eventType: "interview.scheduled",
			kind: "test" as const,
			payload,
			outcome: "pending" as const,
			attemptCount: 0,
			createdAt: 1,
			updatedAt: 1,
		});
		const ids = [fresh("dlv"), fresh("dlv")] as const;
		await runBatch(db, deliveries.bind(db, [delivery(ids[0], null), delivery(ids[1], awkward)]));
		const stored = await env.DB.prepare(
			"SELECT payload, typeof(payload) AS type FROM webhook_deliveries WHERE account_id = ? ORDER BY id = ?",
		)
			.bind(accountId, ids[1])
			.all();
		expect(stored.results).toEqual([
			{ payload: null, type: "null" },
			{ payload: JSON.stringify(awkward), type: "text" },
		]);
	});

	it("fails loudly when a placeholder has no value", () => {
		const db = getDb(env.DB);
		const template = new Template<{ id: string }>((d) =>
			d
				.select()
				.from(webhookEndpoints)
				.where(sql`${webhookEndpoints.id} = ${sql.placeholder("other")}`),
		);
		expect(() => template.bind(db, { id: "wh_x" })).toThrow(/No value for placeholder "other"/);
	});

	it("keeps a query's own constants beside its placeholders, use after use", async () => {
		const db = getDb(env.DB);
		const accountId = fresh("acc");
		const rows = ["production", "dev"].map((environment, i) => ({
			id: fresh("wh"),
			accountId,
			environment: environment as "production" | "dev",
			url: `https://hooks.example.com/${i}`,
			events: ["*"],
			active: true,
			createdAt: 1,
			updatedAt: 1,
		}));
		await runBatch(db, [boundQuery(db, db.insert(webhookEndpoints).values(rows))]);
		// "production" is a constant of the query (a bound parameter that is not a placeholder).
		const template = new Template<{ account: string }>((d) =>
			d
				.select({ url: webhookEndpoints.url, events: webhookEndpoints.events })
				.from(webhookEndpoints)
				.where(
					and(
						eq(webhookEndpoints.environment, "production"),
						eq(webhookEndpoints.accountId, sql.placeholder("account")),
					),
				),
		);
		expect(await runOne(template.bind(db, { account: accountId }))).toEqual([
			{ url: "https://hooks.example.com/0", events: ["*"] },
		]);
		expect(await runOne(template.bind(db, { account: fresh("acc") }))).toEqual([]);
		expect(await runOne(template.bind(db, { account: accountId }))).toHaveLength(1);
	});

	it("runs a single bound statement", async () => {
		const db = getDb(env.DB);
		const template = new Template<{ n: number }>((d) =>
			d
				.select({ n: sql<number>`${sql.placeholder("n")} + 1` })
				.from(webhookEndpoints)
				.limit(1),
		);
		const accountId = fresh("acc");
		await runBatch(db, [
			boundQuery(
				db,
				db.insert(webhookEndpoints).values({
					id: fresh("wh"),
					accountId,
					environment: "production",
					url: "https://hooks.example.com/y",
					events: ["*"],
					active: true,
					createdAt: 1,
					updatedAt: 1,
				}),
			),
		]);
		expect(await runOne(template.bind(db, { n: 41 }))).toEqual([{ n: 42 }]);
	});

	it("reads a flat select's rows fetched as arrays exactly as drizzle reads them", async () => {
		const db = getDb(env.DB);
		const accountId = fresh("acc");
		const rows = [true, false].map((active, i) => ({
			id: fresh("wh"),
			accountId,
			environment: "production" as const,
			url: `https://hooks.example.com/${i}`,
			events: i === 0 ? ["interview.completed", "*"] : [],
			active,
			failingSince: i === 0 ? null : 7,
			createdAt: 1 + i,
			updatedAt: 2,
		}));
		await runBatch(db, [boundQuery(db, db.insert(webhookEndpoints).values(rows))]);
		// Columns (text, JSON, boolean, nullable), SQL with and without a decoder, an aliased one.
		const select = (d: typeof db) =>
			d
				.select({
					id: webhookEndpoints.id,
					events: webhookEndpoints.events,
					active: webhookEndpoints.active,
					failingSince: webhookEndpoints.failingSince,
					total:
						sql<number>`(select count(*) from ${webhookEndpoints} where ${webhookEndpoints.accountId} = ${sql.placeholder("accountId")})`.mapWith(
							(v) => `n=${v}`,
						),
					raw: sql<string>`upper(${webhookEndpoints.url})`,
					named: sql<boolean>`${webhookEndpoints.active} = 0`.mapWith(Boolean).as("named"),
				})
				.from(webhookEndpoints)
				.where(eq(webhookEndpoints.accountId, sql.placeholder("accountId")))
				.orderBy(webhookEndpoints.createdAt);
		expect(flatRowReader(select(db).prepare())).not.toBeNull();
		const fast = await runRows(new Template<{ accountId: string }>(select).bind(db, { accountId }));
		const drizzles = await select(db).all({ accountId });
		expect(fast).toStrictEqual(drizzles);
		expect(fast).toEqual([
			{
				id: rows[0]?.id,
				events: ["interview.completed", "*"],
				active: true,
				failingSince: null,
				total: "n=2",
				raw: "HTTPS://HOOKS.EXAMPLE.COM/0",
				named: false,
			},
			{
				id: rows[1]?.id,
				events: [],
				active: false,
				failingSince: 7,
				total: "n=2",
				raw: "HTTPS://HOOKS.EXAMPLE.COM/1",
				named: true,
			},
		]);
		// Nested objects and joined tables are left to drizzle.
		expect(flatRowReader(db.select({ one: webhookEndpoints }).from(webhookEndpoints).prepare())).toBeNull();
		expect(
			flatRowReader(
				db
					.select({ nested: { id: webhookEndpoints.id } })
					.from(webhookEndpoints)
					.prepare(),
			),
		).toBeNull();
	});

	it("reads a join of tables with columns of the same name without merging them", async () => {
		const db = getDb(env.DB);
		const accountId = fresh("acc");
		const [first, second] = [fresh("wh"), fresh("wh")];
		await runBatch(
			db,
			[first, second].map((id, i) =>
				boundQuery(
					db,
					db.insert(webhookEndpoints).values({
						id,
						accountId,
						environment: "production",
						url: `https://hooks.example.com/${i}`,
						events: ["*"],
						active: i === 0,
						createdAt: 10 + i,
						updatedAt: 10 + i,
					}),
				),
			),
		);
		const other = alias(webhookEndpoints, "other");
		const pair = new Template<{ id: string }>((d) =>
			d
				.select({ one: webhookEndpoints, two: other })
				.from(webhookEndpoints)
				.innerJoin(other, eq(other.accountId, webhookEndpoints.accountId))
				.where(
					and(eq(webhookEndpoints.id, sql.placeholder("id")), sql`${other.id} <> ${webhookEndpoints.id}`),
				),
		);
		const [row] = (await runRows(pair.bind(db, { id: first }))) as {
			one: typeof webhookEndpoints.$inferSelect;
			two: typeof webhookEndpoints.$inferSelect;
		}[];
		expect([row?.one.id, row?.one.active, row?.one.events]).toEqual([first, true, ["*"]]);
		expect([row?.two.id, row?.two.active, row?.two.url]).toEqual([
			second,
			false,
			"https://hooks.example.com/1",
		]);
	});
});
