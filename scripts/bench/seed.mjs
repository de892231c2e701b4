// Runs the bench-only seeding (see seed-sql.mjs) against the running local service's state.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT } from "../lib.mjs";
import { seedCommandArgs, seedSql } from "./seed-sql.mjs";

export function seedProjection(service, { accountId, count, first, before }) {
	const file = join(dirname(service.persistTo), `seed-${first}.sql`);
	writeFileSync(file, seedSql({ accountId, count, first, before }));
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
	if (result.status !== 0) throw new Error(`seeding failed:\n${result.stdout}\n${result.stderr}`);
}
