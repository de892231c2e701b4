// Helpers shared by the start script, the admin CLI, the end-to-end tests and the benchmark.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const DEV_VARS = join(ROOT, ".dev.vars");

/** Local secrets that `npm start` fills in when missing; values already present are kept. */
const LOCAL_SECRETS = {
	ADMIN_TOKEN: () => `adm_${randomBytes(24).toString("hex")}`,
	RECORDING_URL_SECRET: () => randomBytes(32).toString("hex"),
};

export function parseDevVars(text) {
	const vars = {};
	for (const line of text.split(/\r?\n/)) {
		const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
		if (!match) continue;
		let value = match[2];
		if (/^".*"$/.test(value) || /^'.*'$/.test(value)) value = value.slice(1, -1);
		vars[match[1]] = value;
	}
	return vars;
}

export function readDevVars(path = DEV_VARS) {
	return existsSync(path) ? parseDevVars(readFileSync(path, "utf8")) : {};
}

/** Creates `.dev.vars` when missing and appends any missing local secret; returns what was added. */
export function ensureDevVars(path = DEV_VARS) {
	const existing = existsSync(path) ? readFileSync(path, "utf8") : "";
	const vars = parseDevVars(existing);
	const added = [];
	let text = existing;
	if (text === "") text = "# Local secrets for `npm start` (never committed). Existing values are kept.\n";
	for (const [name, make] of Object.entries(LOCAL_SECRETS)) {
		if (vars[name]) continue;
		if (!text.endsWith("\n")) text += "\n";
		text += `${name}=${make()}\n`;
		added.push(name);
	}
	if (added.length > 0 || existing === "") writeFileSync(path, text, { mode: 0o600 });
	return { added, vars: parseDevVars(text) };
}

export function serviceUrl() {
	return (process.env.SERVICE_URL ?? `http://localhost:${process.env.PORT ?? 8787}`).replace(/\/+$/, "");
}

/** An admin API call; answers the response's `data` (an error status throws). */
export async function adminRequest(method, path, body, options = {}) {
	return (await adminRequestEnvelope(method, path, body, options)).data;
}

/** An admin API call; answers the whole JSON envelope (`data`, and `pagination` on a list). */
export async function adminRequestEnvelope(method, path, body, { baseUrl = serviceUrl(), token } = {}) {
	const adminToken = token ?? process.env.ADMIN_TOKEN ?? readDevVars().ADMIN_TOKEN;
	if (!adminToken)
		throw new Error("No ADMIN_TOKEN: set it in the environment or run `npm start` once to create .dev.vars");
	let response;
	try {
		response = await fetch(`${baseUrl}/admin${path}`, {
			method,
			headers: {
				Authorization: `Bearer ${adminToken}`,
				...(body === undefined ? {} : { "Content-Type": "application/json" }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(15_000),
		});
	} catch (error) {
		// "fetch failed" alone does not say where: name the address and how to choose another.
		const cause = error?.cause?.code ?? error?.cause?.message ?? error?.message ?? String(error);
		throw new Error(
			`Could not reach the service at ${baseUrl} (${cause}). Is it running (npm start)? On another address, pass --url URL or set SERVICE_URL (or PORT for http://localhost:PORT).`,
		);
	}
	const json = await response.json().catch(() => null);
	if (!response.ok) {
		const error = json?.error;
		throw new Error(
			`${method} /admin${path} failed with ${response.status}: ${error ? `${error.code}: ${error.message} ${JSON.stringify(error.details ?? {})}` : "no body"}`,
		);
	}
	return json;
}

export async function waitForHealth(baseUrl, { timeoutMs = 60_000, isAlive = () => true } = {}) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (!isAlive()) throw new Error("The server exited before it became healthy");
		try {
			const response = await fetch(`${baseUrl}/api/v1/health/`, {
				signal: AbortSignal.timeout(2_000),
			});
			if (response.ok) return;
		} catch {
			// not up yet
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`${baseUrl} did not become healthy within ${timeoutMs} ms`);
}

/** A positive number given on the command line as `--name N`, or `fallback`; anything else throws. */
export function numberOption(name, fallback, argv = process.argv) {
	const i = argv.indexOf(`--${name}`);
	if (i === -1) return fallback;
	const value = Number(argv[i + 1]);
	if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number`);
	return value;
}
