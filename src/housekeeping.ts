import type { Env } from "./env";

/** The cron trigger's work (see wrangler.toml `[triggers]`). */
export async function runHousekeeping(_env: Env, _scheduledTime: number): Promise<void> {
	// Nothing is scheduled yet: the dev-data purge arrives with the limits work.
}
