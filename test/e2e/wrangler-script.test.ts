// scripts/wrangler.mjs, which `npm run types` and the production-bundle test run wrangler through:
// wrangler in `npm start`'s environment, so it asks the npm registry nothing.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const dirs: string[] = [];

afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs the script with a temporary folder of its own and none of the variables CI sets. */
function wrangler(...args: string[]) {
	const tmp = mkdtempSync(join(tmpdir(), "wrangler-script-"));
	dirs.push(tmp);
	const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
	for (const name of ["CI", "WRANGLER_HIDE_BANNER", "WRANGLER_SEND_METRICS"]) delete env[name];
	const result = spawnSync(process.execPath, [join(ROOT, "scripts", "wrangler.mjs"), ...args], {
		cwd: ROOT,
		encoding: "utf8",
		timeout: 60_000,
		env,
	});
	return { ...result, tmpFiles: readdirSync(tmp) };
}

describe("scripts/wrangler.mjs", () => {
	it("runs wrangler without its banner, so nothing asks the registry for its latest version", () => {
		const result = wrangler(
			"types",
			"--include-runtime=false",
			"--strict-vars=false",
			"--env-file=.dev.vars.example",
			"--check",
		);
		expect(result.status).toBe(0);
		expect(result.stdout).toContain("up to date");
		expect(`${result.stdout}${result.stderr}`).not.toMatch(/wrangler \d+\.\d+\.\d+/);
		// Where wrangler caches the registry's answer when it shows the banner.
		expect(result.tmpFiles).not.toContain("update-check");
	});

	it("exits with wrangler's own code", () => {
		const args = ["types", "--env-file=does-not-exist.vars", "--check"];
		const direct = spawnSync(join(ROOT, "node_modules", ".bin", "wrangler"), args, {
			cwd: ROOT,
			encoding: "utf8",
			timeout: 60_000,
		});
		const result = wrangler(...args);
		expect(direct.status).toBeGreaterThan(0);
		expect(result.status).toBe(direct.status);
		expect(`${result.stdout}${result.stderr}`).toContain("does-not-exist.vars");
	});
});
