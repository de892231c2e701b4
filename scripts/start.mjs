#!/usr/bin/env node
// `npm start`: migrate the local D1, make sure local secrets exist, serve the whole service on
// workerd (no account, no network), and on the first run create a demo account with keys.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { buildAssets } from "./assets.mjs";
import { adminRequest, DEV_VARS, ensureDevVars, ROOT, waitForHealth } from "./lib.mjs";
import { wranglerEnv } from "./wrangler-env.mjs";
import { wranglerOutputFilter } from "./wrangler-output.mjs";

const port = Number(process.env.PORT ?? 8787);
const baseUrl = `http://localhost:${port}`;
const persistTo = process.env.PERSIST_TO ?? join(ROOT, ".wrangler", "state");
const demoMarker = join(persistTo, "demo-account.json");
const wrangler = join(ROOT, "node_modules", ".bin", "wrangler");
const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const quietEnv = { ...wranglerEnv(process.env), ...(color ? {} : { NO_COLOR: "1", FORCE_COLOR: "0" }) };
const cronSeconds = Number(process.env.CRON_INTERVAL_S ?? 60);

await ensurePortFree(port);

// The static assets (public/) come from node_modules: refreshed here as well as on npm install.
buildAssets();

// DEV_VARS_FILE lets a test run keep its own secrets file beside its own state.
const devVarsFile = process.env.DEV_VARS_FILE ?? DEV_VARS;
const { added, vars } = ensureDevVars(devVarsFile);
const adminToken = process.env.ADMIN_TOKEN ?? vars.ADMIN_TOKEN;
if (added.length > 0) console.log(`Added ${added.join(", ")} to ${devVarsFile}`);

const migrate = spawnSync(
	wrangler,
	["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo],
	{
		cwd: ROOT,
		stdio: ["ignore", "pipe", "pipe"],
		env: { ...quietEnv, CI: "true" },
		encoding: "utf8",
		timeout: 120_000,
	},
);
if (migrate.status !== 0) {
	process.stderr.write(migrate.stdout + migrate.stderr);
	process.exit(migrate.status ?? 1);
}
console.log("Local D1 migrations applied.");

const server = spawn(
	wrangler,
	[
		"dev",
		"--local",
		"--port",
		String(port),
		"--ip",
		"127.0.0.1",
		"--persist-to",
		persistTo,
		"--show-interactive-dev-session=false",
		"--env-file",
		devVarsFile,
		...(process.env.INSPECTOR_PORT ? ["--inspector-port", process.env.INSPECTOR_PORT] : []),
		...process.argv.slice(2),
	],
	{ cwd: ROOT, stdio: ["inherit", "pipe", "pipe"], env: quietEnv },
);
const filter = wranglerOutputFilter({
	color,
	cronNote:
		cronSeconds > 0
			? `npm start runs the scheduled work (the cron's housekeeping) every ${cronSeconds} s itself (CRON_INTERVAL_S).`
			: "The scheduled work is off (CRON_INTERVAL_S=0).",
});
for (const [stream, out] of [
	[server.stdout, process.stdout],
	[server.stderr, process.stderr],
]) {
	createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
		const kept = filter(line);
		if (kept !== null) out.write(`${kept}\n`);
	});
}
let exited = false;
let failed = false;
server.on("exit", (code, signal) => {
	exited = true;
	process.exit(failed ? 1 : (code ?? (signal === "SIGINT" || signal === "SIGTERM" ? 0 : 1)));
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));

try {
	await waitForHealth(baseUrl, { timeoutMs: 90_000, isAlive: () => !exited });
	if (existsSync(demoMarker)) printReturningStart();
	else await createDemoAccount();
	console.log(`\nInterview Assessment Service is running on ${baseUrl}\n`);
	runCronLocally();
} catch (error) {
	console.error(`npm start failed: ${String(error)}`);
	failed = true;
	server.kill("SIGTERM");
}

/**
 * Refuses a port something else already listens on, before anything starts: wrangler would fail
 * later, or (worse) a health check would find the other process and call it ours.
 */
async function ensurePortFree(port) {
	const error = await new Promise((resolve) => {
		const probe = createServer();
		probe.once("error", resolve);
		probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(null)));
	});
	if (!error) return;
	const why =
		error.code === "EADDRINUSE"
			? "is already in use (is another npm start running?)"
			: `cannot be used (${error.code ?? error})`;
	console.error(`Port ${port} ${why}. Stop that process, or choose another port: PORT=${port + 1} npm start`);
	process.exit(1);
}

/** A start on existing state: the demo keys were shown once, on the first start. */
function printReturningStart() {
	// The admin CLI finds a service on another port by PORT, as npm start does.
	const admin = port === 8787 ? "npm run admin --" : `PORT=${port} npm run admin --`;
	let accountId = "acc_...";
	try {
		accountId = JSON.parse(readFileSync(demoMarker, "utf8")).account_id ?? accountId;
	} catch {
		// An unreadable marker still means the demo account exists; the placeholder will do.
	}
	console.log(`
Using the existing local state in ${persistTo} (delete that folder to start from scratch).
The demo account ${accountId} was created on the first start, and its keys were shown then only.
To make another key:

  ${admin} create-key --account ${accountId} --env test --permissions interviews:read,interviews:write

The dashboard: ${baseUrl}/dashboard (sign in as the demo owner printed on the first start, or make
another user: ${admin} create-user --account ${accountId} --email you@example.com --role owner)
`);
}

/**
 * wrangler does not fire cron triggers locally, so the cron's work (housekeeping, the wake
 * messages of interviews coming up, see docs/architecture.md) is run every minute through the
 * local scheduled endpoint. CRON_INTERVAL_S changes the period; 0 turns it off.
 */
function runCronLocally() {
	const seconds = cronSeconds;
	if (!(seconds > 0)) return;
	const timer = setInterval(() => {
		fetch(`${baseUrl}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("*/15 * * * *")}`, {
			signal: AbortSignal.timeout(30_000),
		}).catch(() => {
			// The server is stopping or busy; the next tick tries again.
		});
	}, seconds * 1000);
	timer.unref();
}

async function createDemoAccount() {
	const account = await adminRequest(
		"POST",
		"/accounts",
		{
			company_name: "Demo Company",
			plan: "professional",
			credits: 100,
		},
		{ baseUrl, token: adminToken },
	);
	const keys = {};
	for (const environment of ["live", "test", "dev"]) {
		const key = await adminRequest(
			"POST",
			`/accounts/${account.id}/keys`,
			{ name: `Demo ${environment} key`, environment },
			{ baseUrl, token: adminToken },
		);
		keys[environment] = key.key;
	}
	const owner = await adminRequest(
		"POST",
		`/accounts/${account.id}/users`,
		{ email: "owner@demo.example", role: "owner" },
		{ baseUrl, token: adminToken },
	);
	mkdirSync(persistTo, { recursive: true });
	writeFileSync(
		demoMarker,
		JSON.stringify({ account_id: account.id, created_at: new Date().toISOString() }, null, 2),
	);
	console.log(`
Created a demo account (${account.id}, plan professional, 100 credits).
These keys are shown once; keep them somewhere safe:

  live: ${keys.live}
  test: ${keys.test}
  dev:  ${keys.dev}

The webhook signing secret (verify deliveries with it; the dashboard's Webhooks page or
\`${port === 8787 ? "" : `PORT=${port} `}npm run admin -- get-account --account ${account.id}\` shows it again):

  ${account.webhook_secret}

The dashboard: ${baseUrl}/dashboard
  email:    ${owner.email}
  password: ${owner.password}

Try it:

  curl -s ${baseUrl}/v1/interviews \\
    -H "Authorization: Bearer ${keys.test}" \\
    -H "Content-Type: application/json" \\
    -d '{"candidate_email":"ada@example.com","position":"Backend Engineer","skills":["TypeScript","SQL"]}'
`);
}
