import { createApp } from "./app";
import { callCountsWanted, countingNamespace, readCallCounts } from "./platform/lib/call-counts";
import { handleQueueBatch } from "./queues";
import { runHousekeeping } from "./scheduled";

export { AccountObject } from "./accounts/account-object";
export { InterviewObject } from "./interviews/object/interview-object";

const app = createApp();

const countingEnvs = new WeakMap<Env, Env>();

/**
 * Development only (`DEV_CALL_COUNTS=1`, src/platform/lib/call-counts.ts): the counters' route,
 * and an env whose Durable Object namespaces count the Worker's calls.
 */
function fetchCounting(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> {
	const url = new URL(request.url);
	if (url.pathname === "/__dev/call-counts") {
		return Response.json(readCallCounts(url.searchParams.get("reset") === "1"));
	}
	let counting = countingEnvs.get(env);
	if (!counting) {
		counting = {
			...env,
			INTERVIEW: countingNamespace(env.INTERVIEW, "INTERVIEW"),
			ACCOUNT: countingNamespace(env.ACCOUNT, "ACCOUNT"),
		};
		countingEnvs.set(env, counting);
	}
	return app.fetch(request, counting, ctx);
}

export default {
	fetch: (request, env, ctx) =>
		callCountsWanted(env) ? fetchCounting(request, env, ctx) : app.fetch(request, env, ctx),
	queue: handleQueueBatch,
	scheduled: (controller, env, ctx) => ctx.waitUntil(runHousekeeping(env, controller.scheduledTime)),
} satisfies ExportedHandler<Env>;
