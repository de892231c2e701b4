#!/usr/bin/env node
// wrangler as the project's own scripts run it (`npm run types`, the production-bundle test):
// in the environment of `npm start` (scripts/wrangler-env.mjs), so that it sends no metrics and
// shows no banner, which would ask the npm registry for wrangler's latest version. The arguments
// are wrangler's; the exit code is its own (128 + the signal's number when a signal ended it).
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { join } from "node:path";
import { ROOT } from "./lib.mjs";
import { wranglerEnv } from "./wrangler-env.mjs";

const child = spawn(join(ROOT, "node_modules", ".bin", "wrangler"), process.argv.slice(2), {
	cwd: process.cwd(),
	stdio: "inherit",
	env: wranglerEnv(process.env),
});
// The terminal's Ctrl-C reaches wrangler too (same process group); a SIGTERM to this script is passed on.
process.on("SIGINT", () => undefined);
process.on("SIGTERM", () => child.kill("SIGTERM"));
child.on("error", (error) => {
	console.error(`wrangler could not start: ${error.message}`);
	process.exit(1);
});
child.on("exit", (code, signal) => {
	process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
});
