import { AccountObject } from "./accounts/account-object";
import { createApp } from "./app";
import { writeCreations } from "./interviews/creation/creation";
import { decideSeedCommand, writeSeedChanges } from "./interviews/creation/seed-commands";
import { readSeeds } from "./interviews/db/seeds-repo";
import { SocketIoSessionObject } from "./interviews/room/socketio/session";
import { interviewStub } from "./interviews/stub";
import { getDb } from "./platform/db/client";
import { callCountsWanted, countingNamespace, readCallCounts } from "./platform/lib/call-counts";
import { floorProbeWanted, parseFloorShape, runFloorCalls } from "./platform/lib/floor-probe";
import { handleQueueBatch } from "./queues";
import { runHousekeeping } from "./scheduled";

// The account object writes single creates and changes and starts waiting interviews through
// interviews/, which accounts/ does not import: handed over here, before any object is constructed.
AccountObject.configure({
	commitCreates: (env, writes) => writeCreations(getDb(env.DB), writes),
	interviewsIn: (write) => write.seeds.length,
	commitChanges: (env, writes) => writeSeedChanges(getDb(env.DB), writes),
	readSeeds: (env, ids) => readSeeds(getDb(env.DB), ids),
	decideChange: (request, io) => decideSeedCommand(io, request),
	startWaiting: (env, interviewId, now) => interviewStub(env, interviewId).startFromWaitingRoom(now),
});

export { InterviewObject } from "./interviews/object/interview-object";
export { AccountObject };

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

const FLOOR_PATH = "/__dev/floor/";

/**
 * Development only (`DEV_FLOOR_PROBE=1`, src/platform/lib/floor-probe.ts): `GET /__dev/floor/<shape>`
 * makes the shape's calls, then answers as the health endpoint, through the app. A shape that is
 * not one goes to the app as it is (a 404).
 */
async function fetchFloor(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
	const url = new URL(request.url);
	const groups =
		request.method === "GET" && url.pathname.startsWith(FLOOR_PATH)
			? parseFloorShape(url.pathname.slice(FLOOR_PATH.length))
			: null;
	if (!groups) return app.fetch(request, env, ctx);
	await runFloorCalls(env, groups);
	return app.fetch(new Request(new URL("/api/v1/health/", url), request), env, ctx);
}

/**
 * A Socket.IO client's Engine.IO session; it opens each interview namespace through the Worker's
 * own route for the plain channel, so both channels authenticate and refuse alike.
 */
export class SocketIoSession extends SocketIoSessionObject {
	protected override openRoom(request: Request): Promise<Response> {
		const ctx = this.ctx;
		return Promise.resolve(
			app.fetch(request, this.env, {
				waitUntil: (promise: Promise<unknown>) => ctx.waitUntil(promise),
				passThroughOnException: () => {},
				props: {},
			} as unknown as ExecutionContext),
		);
	}
}

export default {
	fetch: (request, env, ctx) =>
		callCountsWanted(env)
			? fetchCounting(request, env, ctx)
			: floorProbeWanted(env)
				? fetchFloor(request, env, ctx)
				: app.fetch(request, env, ctx),
	queue: handleQueueBatch,
	scheduled: (controller, env, ctx) => ctx.waitUntil(runHousekeeping(env, controller.scheduledTime)),
} satisfies ExportedHandler<Env>;
