// Ctrl-C on the measuring scripts a person runs (`npm run bench`, `npm run capacity`,
// `npm run floors`): each starts the local service in a process group of its own, which the
// terminal's SIGINT does not reach, so each must stop that service itself. The processes are found
// by a marker in their environment, which every process the script starts inherits.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { waitForHealth } from "../../scripts/lib.mjs";

const ROOT = join(import.meta.dirname, "../..");
const MARKER = "INTERRUPT_TEST_MARKER";
const started: string[] = [];

/** The processes whose environment carries `MARKER=value`, each with its command line. */
function marked(value: string): { pid: number; command: string }[] {
	const found: { pid: number; command: string }[] = [];
	for (const name of readdirSync("/proc")) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const environ = readFileSync(`/proc/${name}/environ`, "latin1").split("\0");
			if (!environ.includes(`${MARKER}=${value}`)) continue;
			const command = readFileSync(`/proc/${name}/cmdline`, "latin1").split("\0").join(" ");
			found.push({ pid: Number(name), command });
		} catch {
			// gone meanwhile, or not ours to read
		}
	}
	return found;
}

/** Polls `check` every 100 ms until it answers true or `ms` pass; answers its last answer. */
async function until(check: () => boolean, ms: number): Promise<boolean> {
	const deadline = Date.now() + ms;
	while (Date.now() < deadline) {
		if (check()) return true;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	return check();
}

afterAll(() => {
	// Whatever a failed test left behind goes, so that it cannot hold the machine.
	for (const value of started) {
		for (const { pid } of marked(value)) {
			try {
				process.kill(pid, "SIGKILL");
			} catch {
				// gone
			}
		}
	}
});

describe("Ctrl-C on a measuring script stops the service it started", () => {
	const scripts: [string, string[]][] = [
		["bench", ["scripts/bench.mjs", "--no-write"]],
		["capacity", ["scripts/capacity.mjs"]],
		["floors", ["scripts/floors.mjs"]],
	];
	// Interrupted while the service starts (its runtime is up, wrangler may still be setting up),
	// or once it answers, as through a run.
	const moments = ["starting", "answering"] as const;
	it.each(scripts.flatMap(([name, args]) => moments.map((moment) => [name, moment, args] as const)))(
		"npm run %s, interrupted while the service is %s",
		async (_name, moment, args) => {
			const value = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
			started.push(value);
			const tmp = mkdtempSync(join(tmpdir(), "interrupt-"));
			let output = "";
			const script: ChildProcess = spawn(process.execPath, args, {
				cwd: ROOT,
				env: { ...process.env, [MARKER]: value, TMPDIR: tmp, CRON_INTERVAL_S: "0" },
				stdio: ["ignore", "pipe", "pipe"],
			});
			script.stdout?.on("data", (chunk) => {
				output += chunk;
			});
			script.stderr?.on("data", (chunk) => {
				output += chunk;
			});
			const exited = new Promise<number | null>((resolve) => script.once("exit", (code) => resolve(code)));
			try {
				// The runtime is up: this is what outlived the script before.
				const runtime = () => marked(value).some((p) => /workerd/.test(p.command));
				expect(await until(runtime, 90_000), output).toBe(true);
				// The service answers (the port is on wrangler's command line).
				let port: string | undefined;
				const listed = () => {
					port ??= marked(value)
						.map((p) => /wrangler\S* dev .*--port (\d+)/.exec(p.command)?.[1])
						.find((found) => found !== undefined);
					return port !== undefined;
				};
				expect(await until(listed, 90_000), output).toBe(true);
				if (moment === "answering") {
					await waitForHealth(`http://127.0.0.1:${port}`, {
						timeoutMs: 60_000,
						isAlive: () => script.exitCode === null,
					});
				}
				expect(readdirSync(tmp).filter((n) => n.startsWith("interview-local-"))).toHaveLength(1);

				script.kill("SIGINT");
				const code = await Promise.race([
					exited,
					new Promise((resolve) => setTimeout(() => resolve("timeout"), 30_000)),
				]);
				expect(code, output).toBe(130);
				// Nothing the script started is left: not wrangler, not the runtime, not its folder.
				expect(await until(() => marked(value).length === 0, 15_000), JSON.stringify(marked(value))).toBe(
					true,
				);
				// Nor anything else in its temporary folder: no state, none of the runtime's temporary
				// files (kept in the service's folder), and no answer of the npm registry cached by
				// wrangler, which the service does not ask (scripts/wrangler-env.mjs).
				expect(readdirSync(tmp)).toEqual([]);
			} finally {
				if (script.exitCode === null) script.kill("SIGKILL");
				rmSync(tmp, { recursive: true, force: true });
			}
		},
	);
});
