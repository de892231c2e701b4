/**
 * Development only (`ENVIRONMENT=development` and `DEV_FLOOR_PROBE=1`, and not with the call
 * counters on, which src/worker.ts serves first; `npm run floors` sets it):
 * the floor of a request's calls. `GET /__dev/floor/<shape>` makes the calls its shape names, each
 * of which does nothing, then answers exactly as the health endpoint does, through the whole app.
 * Measured against health, it is what a case making those calls would cost with no work of its
 * own (docs/performance.md, "The floor of each case's calls").
 *
 * A shape is groups joined by `-`, run one after another; the letters of a group run side by
 * side: `a` the account object (its `ping`), `i` an interview object (its `ping`, one of
 * `INTERVIEW_OBJECTS` in turn), `d` one D1 statement (`select 1`), `b` one D1 batch of four.
 * The single fetch is `ai`, a list `a-d`, a create `a-b`.
 */
export type FloorCall = "a" | "i" | "d" | "b";

/** The most groups and calls a shape may hold, so that a request's work stays bounded. */
export const MAX_FLOOR_GROUPS = 8;
export const MAX_FLOOR_GROUP_CALLS = 4;
/** Interview objects the `i` calls go to in turn (as the bench's single fetch goes to 100). */
export const INTERVIEW_OBJECTS = 100;

/** Whether this request may use the probe (development only, and asked for). */
export function floorProbeWanted(env: { ENVIRONMENT?: string; DEV_FLOOR_PROBE?: string }): boolean {
	return env.ENVIRONMENT === "development" && env.DEV_FLOOR_PROBE === "1";
}

/** A shape's groups of calls, or null for a shape that is not one. */
export function parseFloorShape(shape: string): FloorCall[][] | null {
	if (!/^[aidb]+(-[aidb]+)*$/.test(shape)) return null;
	const groups = shape.split("-").map((group) => [...group] as FloorCall[]);
	if (groups.length > MAX_FLOOR_GROUPS || groups.some((g) => g.length > MAX_FLOOR_GROUP_CALLS)) return null;
	return groups;
}

type FloorEnv = Pick<Env, "ACCOUNT" | "INTERVIEW" | "DB">;

let nextInterview = 0;

function floorCall(env: FloorEnv, call: FloorCall): Promise<unknown> {
	switch (call) {
		case "a":
			return env.ACCOUNT.get(env.ACCOUNT.idFromName("floor-probe")).ping();
		case "i": {
			const n = nextInterview++ % INTERVIEW_OBJECTS;
			return env.INTERVIEW.get(env.INTERVIEW.idFromName(`floor-probe-${n}`)).ping();
		}
		case "d":
			return env.DB.prepare("select 1 as one").first();
		case "b":
			return env.DB.batch([1, 2, 3, 4].map(() => env.DB.prepare("select 1 as one")));
	}
}

/** Makes a shape's calls: its groups one after another, each group's calls side by side. */
export async function runFloorCalls(env: FloorEnv, groups: FloorCall[][]): Promise<void> {
	for (const group of groups) await Promise.all(group.map((call) => floorCall(env, call)));
}
