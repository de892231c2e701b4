import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// `npm run eval` as a user runs it: tsx on eval/run.ts, in Node, against an answer set on disk.
const TSX = join(process.cwd(), "node_modules", ".bin", "tsx");

function evalRun(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		execFile(TSX, ["eval/run.ts", ...args], { timeout: 90_000 }, (error, stdout, stderr) => {
			const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
			resolve({ code, stdout, stderr });
		});
	});
}

describe("npm run eval", () => {
	it("prints its usage for --help", async () => {
		const run = await evalRun(["--help"]);
		expect(run.code).toBe(0);
		expect(run.stdout).toContain("--split tune|holdout|all");
	});

	it("refuses an unknown option or value with the usage and exit code 2, not a stack trace", async () => {
		for (const [args, reason] of [
			[["--bogus"], "Unknown option '--bogus'"],
			[["--split", "nope"], "--split is tune, holdout or all"],
			[["--interviewer", "nope"], "unknown --interviewer nope"],
		] as const) {
			const run = await evalRun([...args]);
			expect(run.code).toBe(2);
			expect(run.stderr).toContain(reason);
			expect(run.stderr).toContain("npm run eval -- [options]");
			expect(run.stderr).not.toMatch(/\n\s+at /);
		}
	});

	it("scores an answer set and prints the acceptance figures", async () => {
		const run = await evalRun(["--data", "eval/holdout20", "--split", "holdout"]);
		expect(run.code).toBe(0);
		expect(run.stdout).toContain("== split: holdout (13 questions, 117 answers, 9 skills)");
		expect(run.stdout).toMatch(/honest answers pooled: 0\.\d{4}/);
		expect(run.stdout).toContain("determinism: 0 of 117 answers differed");
	});
});
