// The production bundle, as `wrangler deploy --env production` would upload it: the bench-only
// seeding path (scripts/bench/seed-sql.mjs, run with `wrangler d1 execute --local`) is no part of
// it, so production has no way to write the interview projection other than the interview objects.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedSql } from "../../scripts/bench/seed-sql.mjs";

const ROOT = join(import.meta.dirname, "..", "..");
let dir: string;
let bundle: string;

beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), "interview-bundle-"));
	// Through the project's wrangler script: no metrics, and no banner (which would ask the npm
	// registry for wrangler's latest version).
	const result = spawnSync(
		process.execPath,
		[join(ROOT, "scripts", "wrangler.mjs"), "deploy", "--dry-run", "--env", "production", "--outdir", dir],
		{ cwd: ROOT, encoding: "utf8", timeout: 150_000, env: { ...process.env, CI: "true" } },
	);
	if (result.status !== 0) throw new Error(`dry run failed:\n${result.stdout}\n${result.stderr}`);
	// wrangler names the bundle index.js or worker.js depending on its contents.
	const name = readdirSync(dir).find((f) => f === "index.js" || f === "worker.js");
	if (!name) throw new Error(`no bundle in ${dir}: ${readdirSync(dir).join(", ")}`);
	bundle = readFileSync(join(dir, name), "utf8");
});

afterAll(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the production bundle", () => {
	it("contains no bench seeding code", () => {
		const sql = seedSql({ accountId: "acc_000000000000000000000000", count: 1, before: 1e12 });
		expect(sql).toContain("int_seed");
		expect(bundle.length).toBeGreaterThan(100_000);
		for (const marker of ["int_seed", "WITH RECURSIVE n(i)", "seedSql", "seedCommandArgs", "scripts/bench"]) {
			expect(bundle).not.toContain(marker);
		}
	});

	it("still keeps the interview counters only through the projection's triggers", () => {
		expect(bundle).toContain("interview_counts");
		expect(bundle).not.toMatch(/UPDATE\s+[`"]?interview_counts/i);
		expect(bundle).not.toMatch(/INSERT\s+INTO\s+[`"]?interview_counts/i);
	});
});
