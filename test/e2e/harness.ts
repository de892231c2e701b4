// Starts the real local service (`npm start`'s script) on free ports with its own state folder,
// so every end-to-end file begins from a blank state, and stops it afterwards.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");

export interface Service {
	baseUrl: string;
	adminToken: string;
	accountId: string;
	keys: { live: string; test: string; dev: string };
	output: () => string;
	stop: () => Promise<void>;
}

export function freePort(): Promise<number> {
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

/** `vars` become wrangler `--var` overrides (e.g. short webhook retry delays). */
export async function startService(
	options: { vars?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Service> {
	const dir = mkdtempSync(join(tmpdir(), "interview-e2e-"));
	const port = await freePort();
	const inspectorPort = await freePort();
	const adminToken = `adm_e2e_${Math.random().toString(36).slice(2)}`;
	const devVarsFile = join(dir, ".dev.vars");
	writeFileSync(devVarsFile, `ADMIN_TOKEN=${adminToken}\n`);
	const args = ["scripts/start.mjs"];
	for (const [name, value] of Object.entries(options.vars ?? {})) args.push("--var", `${name}:${value}`);
	const child: ChildProcess = spawn(process.execPath, args, {
		cwd: ROOT,
		env: {
			...process.env,
			PORT: String(port),
			PERSIST_TO: join(dir, "state"),
			DEV_VARS_FILE: devVarsFile,
			INSPECTOR_PORT: String(inspectorPort),
			ADMIN_TOKEN: adminToken,
		},
		stdio: ["ignore", "pipe", "pipe"],
		detached: true,
	});
	let output = "";
	child.stdout?.on("data", (chunk) => {
		output += chunk;
	});
	child.stderr?.on("data", (chunk) => {
		output += chunk;
	});
	const stop = async () => {
		if (child.exitCode === null && child.pid) {
			const exited = new Promise((resolve) => child.once("exit", resolve));
			try {
				process.kill(-child.pid, "SIGTERM");
			} catch {
				// already gone
			}
			await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
			if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
		}
		rmSync(dir, { recursive: true, force: true });
	};
	const deadline = Date.now() + (options.timeoutMs ?? 120_000);
	while (!/is running on/.test(output)) {
		if (child.exitCode !== null || Date.now() > deadline) {
			await stop();
			throw new Error(`The service did not start:\n${output}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	const key = (env: string) => {
		const match = new RegExp(`${env}:\\s+(svc_${env}_[0-9A-Za-z]+)`).exec(output);
		if (!match?.[1]) throw new Error(`No ${env} key in the start output:\n${output}`);
		return match[1];
	};
	const account = /Created a demo account \((acc_[0-9A-Za-z]+)/.exec(output)?.[1];
	if (!account) throw new Error(`No demo account in the start output:\n${output}`);
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		adminToken,
		accountId: account,
		keys: { live: key("live"), test: key("test"), dev: key("dev") },
		output: () => output,
		stop,
	};
}

export async function api<T = any>(
	service: Service,
	method: string,
	path: string,
	options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: any & T }> {
	const headers: Record<string, string> = { ...options.headers };
	if (options.key) headers.Authorization = `Bearer ${options.key}`;
	if (options.body !== undefined) headers["Content-Type"] = "application/json";
	const response = await fetch(`${service.baseUrl}${path}`, {
		method,
		headers,
		body: options.body === undefined ? undefined : JSON.stringify(options.body),
		signal: AbortSignal.timeout(30_000),
	});
	return { status: response.status, headers: response.headers, body: await response.json() };
}
