import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { upsertProjections } from "../../src/interviews/db/interviews-repo";
import { getDb } from "../../src/platform/db/client";
import { jsonObjectOf, readJsonRow } from "../../src/platform/db/json-row";
import { interviews } from "../../src/platform/db/schema";
import { type Bound, runBatch, selectLike, Template } from "../../src/platform/db/templates";
import { randomBase62 } from "../../src/platform/lib/random";
import { interviewState } from "../fixtures";

const fresh = () => `int_${randomBase62(24)}`;

describe("a row as one JSON value", () => {
	it("reads back as drizzle reads the row: booleans, JSON, numbers and nulls", async () => {
		const db = getDb(env.DB);
		const id = fresh();
		const state = interviewState({
			id,
			accountId: "acc_jsonrow",
			testMode: true,
			skills: ["SQL", 'Quotes "and" \\ slashes'],
			startedAt: 1_700_000_000_123,
			completedAt: null,
		});
		await runBatch(db, upsertProjections(db, [state]) as Bound[]);
		const plain = await db.select().from(interviews).where(eq(interviews.id, id)).get();
		const carried = await db
			.select({ row: sql<string>`${jsonObjectOf(interviews)}` })
			.from(interviews)
			.where(eq(interviews.id, id))
			.get();
		const read = readJsonRow(interviews, JSON.parse(carried?.row as string));
		expect(plain?.testMode).toBe(true);
		expect(plain?.skills).toEqual(state.skills);
		expect(plain?.completedAt).toBeNull();
		expect(plain?.startedAt).toBe(1_700_000_000_123);
		expect(read).toEqual(plain);
	});

	it("refuses an object without one of the table's columns", () => {
		expect(() => readJsonRow(interviews, { id: "int_x" })).toThrow(/has no "accountId"/);
	});
});

describe("a select written in SQL, read like another", () => {
	it("binds its placeholders and reads its rows with the model's decoders", async () => {
		const db = getDb(env.DB);
		const ids = [fresh(), fresh()];
		await runBatch(
			db,
			upsertProjections(
				db,
				ids.map((id, i) =>
					interviewState({ id, accountId: "acc_selectlike", testMode: i === 0, skills: [`S${i}`] }),
				),
			) as Bound[],
		);
		const model = db
			.select({ id: interviews.id, testMode: interviews.testMode, skills: interviews.skills })
			.from(interviews)
			.where(eq(interviews.accountId, sql.placeholder("account")));
		const template = new Template<{ account: string; extra: string }>((d) =>
			selectLike(
				d,
				sql`select * from ${model} union all select ${sql.placeholder("extra")}, 1, '["X"]' order by 1`,
				model,
			),
		);
		const rows = (await template
			.bind(db, { account: "acc_selectlike", extra: "int_zzzz" })
			.statement.raw()) as unknown[][];
		const read = template.bind(db, { account: "acc_selectlike", extra: "int_zzzz" }).readRows(rows);
		expect(read).toEqual(
			[
				{ id: ids[0], testMode: true, skills: ["S0"] },
				{ id: ids[1], testMode: false, skills: ["S1"] },
				{ id: "int_zzzz", testMode: true, skills: ["X"] },
			].sort((x, y) => ((x.id as string) < (y.id as string) ? -1 : 1)),
		);
	});
});
