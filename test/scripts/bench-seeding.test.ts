import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { seedCommandArgs, seedId, seedSql } from "../../scripts/bench/seed-sql.mjs";
import { hasIdShape } from "../../src/platform/lib/random";

describe("the bench-only seeding of the projection", () => {
	it("runs only against a local database in the bench's own state folder", () => {
		const args = seedCommandArgs({ persistTo: "/tmp/interview-bench-x/state", file: "/tmp/seed.sql" });
		expect(args).toContain("--local");
		expect(args).not.toContain("--remote");
		expect(args.slice(args.indexOf("--persist-to"), args.indexOf("--persist-to") + 2)).toEqual([
			"--persist-to",
			"/tmp/interview-bench-x/state",
		]);
		expect(() => seedCommandArgs({ persistTo: "", file: "/tmp/seed.sql" })).toThrow();
	});

	it("writes projection rows of one account only, with real id shapes, counted by the counters", async () => {
		const accountId = "acc_BENCHSEEDTEST00000000001";
		const other = "acc_BENCHSEEDTEST00000000002";
		expect(hasIdShape(seedId(1), "int")).toBe(true);
		expect(() =>
			seedSql({ accountId: "acc_x'; DROP TABLE interviews; --", count: 1, before: 1e12 }),
		).toThrow();
		await env.DB.prepare(seedSql({ accountId, count: 250, first: 1, before: 1_700_000_000_000 })).run();
		await env.DB.prepare(
			seedSql({ accountId: other, count: 10, first: 1_000, before: 1_700_000_000_000 }),
		).run();
		const rows = await env.DB.prepare(
			"SELECT status, count(*) AS n FROM interviews WHERE account_id = ? GROUP BY status ORDER BY status",
		)
			.bind(accountId)
			.all<{ status: string; n: number }>();
		expect(rows.results).toEqual([
			{ status: "cancelled", n: 25 },
			{ status: "completed", n: 25 },
			{ status: "in_progress", n: 25 },
			{ status: "scheduled", n: 175 },
		]);
		const counters = await env.DB.prepare(
			"SELECT sum(count) AS n FROM interview_counts WHERE account_id = ? AND environment = 'production'",
		)
			.bind(accountId)
			.first<{ n: number }>();
		expect(counters?.n).toBe(250);
		// The position filter reads the folded column: seeded rows carry it as the Worker writes it.
		const folded = await env.DB.prepare(
			"SELECT count(*) AS n FROM interviews WHERE account_id = ? AND position_lower = 'backend engineer'",
		)
			.bind(accountId)
			.first<{ n: number }>();
		expect(folded?.n).toBe(250);
	});
});
