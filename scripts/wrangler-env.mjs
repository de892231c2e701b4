// The environment `npm start` runs wrangler in. Pure, so the unit suite can check it.

/**
 * Offline and quiet: no usage metrics, miniflare's placeholder `Request.cf` instead of fetching
 * one, and wrangler's local trace collector off unless asked for (`X_LOCAL_OBSERVABILITY=true`).
 * That collector is a streaming tail worker in the same runtime thread as the service: it records
 * every invocation, each Durable Object call included, for wrangler's local explorer, and cost
 * about a fifth of that thread's time (docs/performance.md). Nothing in the service uses it, and
 * production observability is set in wrangler.toml, not here. Its banner is hidden too: printing it
 * asks the npm registry for wrangler's latest version, and the service reaches nothing but itself.
 * @param {Record<string, string | undefined>} env
 * @returns {Record<string, string | undefined>}
 */
export function wranglerEnv(env) {
	return {
		...env,
		WRANGLER_SEND_METRICS: "false",
		WRANGLER_HIDE_BANNER: "true",
		CLOUDFLARE_CF_FETCH_ENABLED: "false",
		X_LOCAL_OBSERVABILITY: env.X_LOCAL_OBSERVABILITY || "false",
		CI: env.CI ?? "",
	};
}
