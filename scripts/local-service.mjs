// Starts the real local service (`npm start`'s script: wrangler dev on workerd) on free ports with
// its own state folder: used by the end-to-end suite (test/e2e/harness.ts) and the benchmark.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./lib.mjs";

export function freePort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			const port = typeof address === "object" && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/**
 * @param {{vars?: Record<string, string>, env?: Record<string, string>, timeoutMs?: number, stopOnSignal?: boolean,
 *   restart?: {dir: string, port: number, adminToken: string, accountId: string,
 *   keys: {live: string, test: string, dev: string}}}} options
 * @returns {Promise<{baseUrl: string, port: number, adminToken: string, accountId: string,
 *   keys: {live: string, test: string, dev: string}, owner: {email: string, password: string}, persistTo: string, output: () => string,
 *   stop: () => Promise<void>}>}
 */
export async function startService(options = {}) {
	// `restart`: the same folder, state, port and keys as a service that was killed (fault suite).
	const previous = options.restart;
	const dir = previous?.dir ?? mkdtempSync(join(tmpdir(), "interview-local-"));
	const port = previous?.port ?? (await freePort());
	const inspectorPort = await freePort();
	const adminToken = previous?.adminToken ?? `adm_local_${Math.random().toString(36).slice(2)}`;
	const devVarsFile = join(dir, ".dev.vars");
	const persistTo = join(dir, "state");
	// The runtime's temporary files too: wrangler removes them when it exits in time, and `stop`
	// removes the folder when it does not (a stop while it is still starting).
	const tmp = join(dir, "tmp");
	mkdirSync(tmp, { recursive: true });
	if (!previous) writeFileSync(devVarsFile, `ADMIN_TOKEN=${adminToken}\n`);
	const args = ["scripts/start.mjs"];
	for (const [name, value] of Object.entries(options.vars ?? {})) args.push("--var", `${name}:${value}`);
	const child = spawn(process.execPath, args, {
		cwd: ROOT,
		env: {
			...process.env,
			PORT: String(port),
			PERSIST_TO: persistTo,
			TMPDIR: tmp,
			DEV_VARS_FILE: devVarsFile,
			INSPECTOR_PORT: String(inspectorPort),
			ADMIN_TOKEN: adminToken,
			...options.env,
		},
		stdio: ["ignore", "pipe", "pipe"],
		detached: true,
	});
	let output = "";
	/** The signal handlers `stopOnSignal` installed, removed when the service stops. */
	const signals = [];
	const keep = (chunk) => {
		output += chunk;
		// Keep memory bounded over a long run: only the tail matters after start-up.
		if (output.length > 2_000_000) output = output.slice(-1_000_000);
	};
	child.stdout?.on("data", keep);
	child.stderr?.on("data", keep);
	const stop = async () => {
		for (const [signal, handler] of signals.splice(0)) process.off(signal, handler);
		if (child.exitCode === null && child.pid) {
			const exited = new Promise((resolve) => child.once("exit", resolve));
			try {
				process.kill(-child.pid, "SIGTERM");
			} catch {
				// already gone
			}
			await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
			if (child.exitCode === null) {
				try {
					process.kill(-child.pid, "SIGKILL");
				} catch {
					// already gone
				}
			}
		}
		rmSync(dir, { recursive: true, force: true });
	};
	/** SIGKILL to the whole process group (node, wrangler, workerd): the state folder stays. */
	const kill = async () => {
		if (child.exitCode !== null || !child.pid) return;
		const exited = new Promise((resolve) => child.once("exit", resolve));
		try {
			process.kill(-child.pid, "SIGKILL");
		} catch {
			// already gone
		}
		await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
	};
	// The service runs in a process group of its own, which a Ctrl-C in the terminal does not
	// reach: with `stopOnSignal`, SIGINT and SIGTERM stop it (and its folder) before this process
	// exits as the signal would have ended it (128 + its number).
	if (options.stopOnSignal) {
		for (const [signal, code] of [
			["SIGINT", 130],
			["SIGTERM", 143],
		]) {
			const handler = () => {
				stop().finally(() => process.exit(code));
			};
			process.once(signal, handler);
			signals.push([signal, handler]);
		}
	}
	const deadline = Date.now() + (options.timeoutMs ?? 120_000);
	while (!/is running on/.test(output)) {
		if (child.exitCode !== null || Date.now() > deadline) {
			await stop();
			throw new Error(`The service did not start:\n${output}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	const found = (pattern) => pattern.exec(output)?.[1];
	const account = previous?.accountId ?? found(/Created a demo account \((acc_[0-9A-Za-z]+)/);
	const keys =
		previous?.keys ??
		Object.fromEntries(
			["live", "test", "dev"].map((env) => [env, found(new RegExp(`${env}:\\s+(svc_${env}_[0-9A-Za-z]+)`))]),
		);
	if (!account || !keys.live || !keys.test || !keys.dev) {
		// Nothing may outlive a failed start: its process group and state go first.
		await stop();
		throw new Error(`No demo account or keys in the start output:\n${output}`);
	}
	const owner = {
		email: found(/email:\s+(\S+@\S+)/),
		password: found(/password:\s+([0-9A-Za-z]+)/),
	};
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		owner,
		port,
		inspectorPort,
		pid: child.pid,
		adminToken,
		accountId: account,
		keys: { live: keys.live, test: keys.test, dev: keys.dev },
		persistTo,
		output: () => output,
		stop,
		kill,
		dir,
	};
}

/** One JSON request; throws with the body on anything but the expected status. */
export async function call(service, method, path, { key, body, expect } = {}) {
	const headers = {};
	if (key) headers.Authorization = `Bearer ${key}`;
	if (body !== undefined) headers["Content-Type"] = "application/json";
	const response = await fetch(`${service.baseUrl}${path}`, {
		method,
		headers,
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(120_000),
	});
	const json = await response.json().catch(() => null);
	const expected = expect ?? [200, 201];
	if (!expected.includes(response.status)) {
		throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(json)?.slice(0, 500)}`);
	}
	return json;
}
