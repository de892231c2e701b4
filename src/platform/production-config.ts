/**
 * What production needs from its configuration before it may serve (docs/decisions.md): the
 * public origins that links in e-mails and answers are built from, and the compatibility flag that
 * keeps webhook delivery off private addresses. Checked at deploy time from wrangler.toml
 * (`scripts/check-deploy.mjs`, run by `npm run deploy`) and at request time from the bindings.
 * This file imports nothing, so the deploy script runs it as it is.
 */

export interface PublicOrigins {
	APP_URL?: string;
	WS_URL?: string;
}

/** Flags `[env.production]` must list (environments do not inherit the top-level ones). */
export const PRODUCTION_COMPATIBILITY_FLAGS = ["nodejs_compat", "global_fetch_strictly_public"] as const;

function schemeOf(value: string): string | null {
	try {
		const url = new URL(value);
		return url.host ? url.protocol : null;
	} catch {
		return null;
	}
}

/** Why these settings cannot serve production: empty when APP_URL is https and WS_URL wss. */
export function originProblems(vars: PublicOrigins): string[] {
	const problems: string[] = [];
	const app = vars.APP_URL?.trim() ?? "";
	const ws = vars.WS_URL?.trim() ?? "";
	if (app === "") problems.push("APP_URL is not set");
	else if (schemeOf(app) !== "https:") problems.push(`APP_URL must be an https:// URL, not '${app}'`);
	if (ws === "") problems.push("WS_URL is not set");
	else if (schemeOf(ws) !== "wss:") problems.push(`WS_URL must be a wss:// URL, not '${ws}'`);
	return problems;
}

interface WranglerSection {
	compatibility_flags?: string[];
	vars?: PublicOrigins & Record<string, unknown>;
	observability?: { enabled?: boolean; logs?: { enabled?: boolean; invocation_logs?: boolean } };
}

/**
 * Whether the platform would log each request's full URL: invocation logs are on unless the
 * environment turns observability, its logs or its invocation logs off.
 */
function logsUrls(section: WranglerSection): boolean {
	const o = section.observability;
	if (!o || o.enabled === false || o.logs?.enabled === false) return false;
	return o.logs?.invocation_logs !== false;
}

/** Why wrangler.toml's `[env.production]` (parsed) cannot be deployed: empty when it can. */
export function productionConfigProblems(
	config: WranglerSection & { env?: { production?: WranglerSection } },
): string[] {
	const production = config.env?.production;
	if (!production) return ["wrangler.toml has no [env.production]"];
	// An environment inherits the top-level flags only when it lists none of its own.
	const flags = production.compatibility_flags ?? config.compatibility_flags ?? [];
	const missing = PRODUCTION_COMPATIBILITY_FLAGS.filter((flag) => !flags.includes(flag));
	return [
		...originProblems(production.vars ?? {}).map((p) => `[env.production.vars] ${p}`),
		...missing.map((flag) => `[env.production] compatibility_flags lacks "${flag}"`),
		...(logsUrls(production)
			? [
					"[env.production.observability.logs] invocation_logs must be false: they record full URLs, and candidate URLs carry tokens",
				]
			: []),
	];
}
