import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { listInterviews, upsertProjections } from "../../src/interviews/db/interviews-repo";
import { countBoundParameters, D1_MAX_BOUND_PARAMETERS, getDb, guardD1 } from "../../src/platform/db/client";
import { type Bound, JSON_ROWS_MAX_ROWS, runBatch } from "../../src/platform/db/templates";
import { interviewState } from "../fixtures";

describe("the D1 bound-parameter guard", () => {
	it("counts placeholders but not question marks inside literals", () => {
		expect(countBoundParameters("SELECT * FROM t WHERE a = ? AND b = ?")).toBe(2);
		expect(countBoundParameters("SELECT '?' AS q, \"?\" FROM t WHERE a = ?")).toBe(1);
	});

	it("fails a statement with more than 100 parameters, as production D1 would", () => {
		const db = guardD1(env.DB);
		const placeholders = (n: number) => Array.from({ length: n }, () => "?").join(",");
		expect(() => db.prepare(`SELECT 1 WHERE 1 IN (${placeholders(D1_MAX_BOUND_PARAMETERS + 1)})`)).toThrow(
			/101 bound parameters/,
		);
		expect(() => db.prepare(`SELECT 1 WHERE 1 IN (${placeholders(D1_MAX_BOUND_PARAMETERS)})`)).not.toThrow();
	});

	it("lets the fullest projection upsert and the fully filtered list through", async () => {
		const db = getDb(env.DB);
		const states = Array.from({ length: JSON_ROWS_MAX_ROWS }, (_, i) =>
			interviewState({ id: `int_guardguardguardguardgua${i}`, accountId: "acc_guard" }),
		);
		const [statement, ...more] = upsertProjections(db, states);
		expect(more).toEqual([]);
		await runBatch(db, [statement as Bound]);
		const stored = await env.DB.prepare(
			"SELECT count(*) AS n FROM interviews WHERE account_id = 'acc_guard'",
		).first();
		expect(stored).toEqual({ n: JSON_ROWS_MAX_ROWS });
		await expect(
			listInterviews(
				db,
				"acc_guard",
				"production",
				{
					status: "scheduled",
					candidateEmail: "g@example.com",
					position: "p",
					createdAfter: 0,
					createdBefore: 2,
					scheduledAfter: 0,
					scheduledBefore: 2,
				},
				100,
				{ createdAt: 5, id: "int_z" },
			),
		).resolves.toMatchObject({ total: 0 });
	});
});
