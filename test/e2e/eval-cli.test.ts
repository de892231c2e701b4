import { execFile } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenAiTestServer, startOpenAiServer } from "../support/openai-server";

// `npm run eval` as a user runs it: tsx on eval/run.ts, in Node, against an answer set on disk.
const TSX = join(process.cwd(), "node_modules", ".bin", "tsx");

function evalRun(
	args: string[],
	env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		const options = { timeout: 90_000, env: { ...process.env, ...env } };
		execFile(TSX, ["eval/run.ts", ...args], options, (error, stdout, stderr) => {
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

	describe("--interviewer openai, against a local OpenAI-compatible server", () => {
		let server: OpenAiTestServer;
		beforeAll(async () => {
			server = await startOpenAiServer();
		});
		afterAll(async () => {
			await server.close();
		});
		const endpoint = (model: string) => ({
			OPENAI_BASE_URL: `http://127.0.0.1:${server.port}/v1`,
			OPENAI_MODEL: model,
			OPENAI_API_KEY: "sk-test-key",
		});

		it("scores every answer through the model when it answers well", async () => {
			const run = await evalRun(
				["--interviewer", "openai", "--data", "eval/holdout20", "--split", "holdout"],
				endpoint("well-formed"),
			);
			expect(run.code).toBe(0);
			expect(run.stdout).toContain("interviewer: openai");
			expect(run.stdout).toContain("decided by: openai 117");
		});

		it("falls back to the offline scorer for every answer when the provider fails, and says so", async () => {
			const args = ["--data", "eval/holdout20", "--split", "holdout"];
			const [failing, offline] = await Promise.all([
				evalRun(["--interviewer", "openai", ...args], endpoint("failing")),
				evalRun(args),
			]);
			expect(failing.code).toBe(0);
			expect(failing.stdout).toContain("decided by: offline 117");
			// The answers' figures are the offline scorer's own, line for line (whole interviews differ:
			// a fallback is flagged scorer_fallback, and a recommendation on lower confidence says maybe).
			const figures = (out: string) =>
				out.slice(out.indexOf("== split:"), out.indexOf("whole interviews")).replace(/decided by: .*\n/, "");
			expect(figures(failing.stdout)).toBe(figures(offline.stdout));
			expect(figures(failing.stdout)).toContain("honest answers pooled");
		});

		it("refuses --interviewer openai without an endpoint", async () => {
			const run = await evalRun(["--interviewer", "openai"], { OPENAI_BASE_URL: "", OPENAI_MODEL: "" });
			expect(run.code).toBe(2);
			expect(run.stderr).toContain("--interviewer openai needs OPENAI_BASE_URL and OPENAI_MODEL");
		});
	});
});
