/**
 * The dependency rule of docs/architecture.md, enforced in `npm run lint`.
 * Modules, lowest first: platform; accounts, events, idempotency, interviewer; webhooks; email;
 * interviews; dashboard. A module imports only modules below it; only the composition files
 * (src/worker.ts, app.ts, queues.ts, scheduled.ts) see everything.
 */
const MODULES = "(platform|accounts|events|idempotency|interviewer|webhooks|email|interviews|dashboard)";
const only = (name, from, allowed, comment) => ({
	name,
	comment,
	severity: "error",
	from: { path: `^src/${from}/` },
	to: { path: "^src/", pathNot: [`^src/(${[from, ...allowed].join("|")})/`] },
});

module.exports = {
	forbidden: [
		only(
			"platform-imports-no-module",
			"platform",
			[],
			"platform/ is what every module uses; it knows none of them.",
		),
		only(
			"accounts-imports-platform-only",
			"accounts",
			["platform"],
			"accounts/ reaches higher modules only through interfaces it declares.",
		),
		only(
			"events-imports-below",
			"events",
			["platform", "accounts"],
			"events/ sits below webhooks, email and interviews.",
		),
		only(
			"idempotency-imports-below",
			"idempotency",
			["platform", "accounts"],
			"idempotency/ sits below interviews and webhooks.",
		),
		only(
			"interviewer-imports-platform-only",
			"interviewer",
			["platform"],
			"the interviewer is a leaf: interviews use it, never the other way.",
		),
		only(
			"webhooks-imports-below",
			"webhooks",
			["platform", "accounts", "events", "idempotency"],
			"webhooks/ sits below email and interviews.",
		),
		only(
			"email-imports-below",
			"email",
			["platform", "accounts", "events", "webhooks"],
			"email/ sits below interviews.",
		),
		only(
			"interviews-imports-below",
			"interviews",
			["platform", "accounts", "events", "idempotency", "interviewer", "webhooks", "email"],
			"interviews/ sits below the dashboard.",
		),
		only(
			"dashboard-imports-modules",
			"dashboard",
			["platform", "accounts", "events", "idempotency", "interviewer", "webhooks", "email", "interviews"],
			"nothing but the composition files imports the dashboard.",
		),
		{
			name: "core-is-pure",
			comment: "The interview model and state machine import no runtime, database or HTTP code.",
			severity: "error",
			from: { path: "^src/interviews/core/" },
			to: { path: ["^cloudflare:", "^src/platform/(db|http)/", "(^|/)node_modules/(hono|drizzle-orm)/"] },
		},
		{
			name: "no-circular",
			comment: "No import cycle, type-only imports included.",
			severity: "error",
			from: { path: "^src/" },
			to: { circular: true },
		},
		{
			name: "composition-is-on-top",
			comment: "Modules do not import the composition files.",
			severity: "error",
			from: { path: `^src/${MODULES}/` },
			to: { path: "^src/(worker|app|queues|scheduled)\\.tsx?$" },
		},
	],
	options: {
		doNotFollow: { path: "node_modules" },
		tsPreCompilationDeps: true,
		parser: "swc",
		tsConfig: { fileName: "tsconfig.json" },
		enhancedResolveOptions: {
			exportsFields: ["exports"],
			conditionNames: ["import", "require", "node", "default", "types"],
		},
		exclude: { path: "^src/interviews/room/client-bundle\\.ts$" },
	},
};
