// Runs the bench-only seeding (see seed-sql.mjs) against the running local service's state.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT } from "../lib.mjs";
import { seedCommandArgs, seedSql } from "./seed-sql.mjs";

/** Tries of the seeding while the running service holds the database's write lock. */
const BUSY_TRIES = 5;
const BUSY_WAIT_MS = 3_000;

/**
 * The service's background work (the room's analysis timers, queue consumers) may hold the local
 * D1's write lock when the seeding starts, which then fails at once with SQLITE_BUSY having written
 * nothing: it is tried again, a bounded number of times. Any other failure stops the bench.
 */
export function seedProjection(service, { accountId, count, first, before }) {
	const file = join(dirname(service.persistTo), `seed-${first}.sql`);
	writeFileSync(file, seedSql({ accountId, count, first, before }));
	for (let attempt = 1; ; attempt++) {
		const result = spawnSync(
			join(ROOT, "node_modules", ".bin", "wrangler"),
			seedCommandArgs({ persistTo: service.persistTo, file }),
			{
				cwd: ROOT,
				encoding: "utf8",
				env: {
					...process.env,
					CI: "true",
					WRANGLER_SEND_METRICS: "false",
					CLOUDFLARE_CF_FETCH_ENABLED: "false",
				},
				timeout: 300_000,
			},
		);
		if (result.status === 0) return;
		const output = `${result.stdout}\n${result.stderr}`;
		if (!output.includes("SQLITE_BUSY") || attempt >= BUSY_TRIES)
			throw new Error(`seeding failed:\n${output}`);
		Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, BUSY_WAIT_MS);
	}
}
