// `npm start` as a newcomer meets it: a taken port, a first start and a second one on the same state.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "./harness";

const ROOT = join(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "interview-start-"));
const children: ChildProcess[] = [];

afterAll(() => {
	for (const child of children) if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGKILL");
	rmSync(dir, { recursive: true, force: true });
});

/** Runs `npm start`'s script until `until` matches its output or it exits; answers both. */
function start(port: number, until: RegExp, timeoutMs = 120_000) {
	const devVarsFile = join(dir, ".dev.vars");
	writeFileSync(devVarsFile, "ADMIN_TOKEN=adm_start_test\n");
	const child = spawn(process.execPath, ["scripts/start.mjs"], {
		cwd: ROOT,
		env: {
			...process.env,
			PORT: String(port),
			PERSIST_TO: join(dir, "state"),
			DEV_VARS_FILE: devVarsFile,
			CRON_INTERVAL_S: "0",
			ADMIN_TOKEN: "adm_start_test",
		},
		stdio: ["ignore", "pipe", "pipe"],
		detached: true,
	});
	children.push(child);
	let output = "";
	return new Promise<{ output: string; log: () => string; code: number | null; stop: () => Promise<void> }>(
		(resolve, reject) => {
			const stop = () =>
				new Promise<void>((done) => {
					if (child.exitCode !== null || !child.pid) return done();
					child.once("exit", () => done());
					process.kill(-child.pid, "SIGTERM");
				});
			const timer = setTimeout(() => reject(new Error(`npm start timed out:\n${output}`)), timeoutMs);
			const take = (chunk: Buffer) => {
				output += chunk;
				if (until.test(output)) {
					clearTimeout(timer);
					resolve({ output, log: () => output, code: null, stop });
				}
			};
			child.stdout?.on("data", take);
			child.stderr?.on("data", take);
			child.once("exit", (code) => {
				clearTimeout(timer);
				resolve({ output, log: () => output, code, stop });
			});
		},
	);
}

describe("npm start", () => {
	it("refuses a port that is already taken, saying so, with a non-zero exit", async () => {
		const port = await freePort();
		const other: Server = createServer();
		await new Promise<void>((done) => other.listen(port, "127.0.0.1", done));
		try {
			const run = await start(port, /$^/, 30_000);
			expect(run.code).toBe(1);
			expect(run.output).toContain(`Port ${port} is already in use`);
			expect(run.output).not.toContain("is running on");
		} finally {
			await new Promise((done) => other.close(done));
		}
	});

	it("prints the bindings once, no contradicting cron warning and no colour codes, then says how to get keys again", async () => {
		const port = await freePort();
		const first = await start(port, /is running on/);
		await first.stop();
		expect(first.output.match(/following bindings/g)).toHaveLength(1);
		expect(first.output).not.toContain("Scheduled Workers are not automatically triggered");
		expect(first.output).toContain("The scheduled work is off (CRON_INTERVAL_S=0)");
		expect(first.output).not.toContain("\u001b[");
		expect(first.output).toMatch(/test: svc_test_\w+/);
		// The demo account's webhook secret too, and where to find it again.
		expect(first.output).toMatch(/\n {2}whsec_[A-Za-z0-9+/=_-]{20,}\n/);
		expect(first.output).toContain(`PORT=${port} npm run admin -- get-account --account acc_`);

		const second = await start(port, /is running on/);
		await second.stop();
		expect(second.output).not.toMatch(/svc_(live|test|dev)_\w+/);
		// On a port other than 8787 the printed command reaches it (the CLI reads PORT).
		expect(second.output).toMatch(
			new RegExp(`PORT=${port} npm run admin -- create-key --account acc_\\w+ --env test`),
		);
		expect(second.output).toContain(`The dashboard: http://localhost:${port}/dashboard`);
	});

	it("logs a JSON line for each answer of 400 and above, and leaves the rest to wrangler's own request lines", async () => {
		const port = await freePort();
		const service = await start(port, /is running on/);
		try {
			const base = `http://127.0.0.1:${port}`;
			expect((await fetch(`${base}/api/v1/health/`)).status).toBe(200);
			expect((await fetch(`${base}/v1/interviews/int_nothing`)).status).toBe(401);
			const deadline = Date.now() + 10_000;
			while (!/"status":401/.test(service.log()) && Date.now() < deadline) {
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
			const records = service
				.log()
				.split("\n")
				// wrangler puts "▲ [WARNING] " before a console.warn line.
				.map((line) => line.slice(line.indexOf("{")))
				.filter((line) => line.startsWith('{"level"'))
				.map((line) => JSON.parse(line) as Record<string, unknown>)
				.filter((r) => r.message === "request");
			expect(records).toContainEqual(
				expect.objectContaining({
					level: "warn",
					method: "GET",
					status: 401,
					error_code: "AUTHENTICATION_REQUIRED",
				}),
			);
			expect(records.filter((r) => r.status === 200)).toEqual([]);
			expect(service.log()).toMatch(/GET \/api\/v1\/health\/ 200/);
		} finally {
			await service.stop();
		}
	});
});
