// One request through the Worker with the development counters on (src/platform/lib/call-counts.ts),
// and what it cost: D1 statements, batches and runs, and the Worker's object calls.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { type CallCounts, callCountsWanted, readCallCounts } from "../../src/platform/lib/call-counts";
import worker from "../../src/worker";
import { BASE } from "./helpers";

export async function countedCall(
	method: string,
	path: string,
	key: string,
	body?: unknown,
): Promise<{ status: number; body: any; counts: CallCounts; roundTrips: number }> {
	const counted = await countedRequest(
		new Request(`${BASE}${path}`, {
			method,
			headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
			...(body === undefined ? {} : { body: JSON.stringify(body) }),
		}),
	);
	return { ...counted, body: await counted.response.json() };
}

/** Any request (a dashboard page with its cookie, say), counted as `countedCall` counts. */
export async function countedRequest(
	request: Request,
): Promise<{ status: number; response: Response; counts: CallCounts; roundTrips: number }> {
	const counting = { ...env, DEV_CALL_COUNTS: "1" } as Env;
	const ctx = createExecutionContext();
	readCallCounts(true);
	try {
		const response = await worker.fetch(request as Parameters<typeof worker.fetch>[0], counting, ctx);
		await waitOnExecutionContext(ctx);
		const counts = readCallCounts(true);
		// Round trips: each batch, and each statement run alone.
		return { status: response.status, response, counts, roundTrips: counts.d1Batches + counts.d1Executions };
	} finally {
		callCountsWanted({});
	}
}
