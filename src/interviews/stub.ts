import { getDb } from "../platform/db/client";
import { hasIdShape } from "../platform/lib/random";
import type { InterviewState } from "./core/model";
import { interviewExists } from "./db/interviews-repo";

/** The interview's Durable Object, by interview id (typed from the generated `INTERVIEW` namespace). */
export function interviewStub(env: Env, id: string) {
	return env.INTERVIEW.get(env.INTERVIEW.idFromName(id));
}

/**
 * Whether the projection has the interview, asked before its object is opened: ids that were never
 * created open no Durable Object (an opened object has its own database, written or not).
 * An id found once is remembered in this isolate (bounded, forgotten all at once when full), so
 * the reads that follow go straight to the object: a projection row is only ever deleted with
 * its interview's data (the dev sandbox's purge), and an object asked about an interview it does
 * not hold answers "not found" and writes nothing.
 */
export async function isKnownInterview(env: Env, id: string): Promise<boolean> {
	if (!hasIdShape(id, "int")) return false;
	if (known.has(id)) return true;
	// D1 unreachable: the object, the authoritative state, answers (a known id must not fail).
	const exists = await interviewExists(getDb(env.DB), id).catch(() => null);
	if (exists === null) return true;
	if (exists) remember(id);
	return exists;
}

/** The interview's state from its object, or null for an id the projection does not have (no object is opened). */
export async function readInterview(env: Env, id: string): Promise<InterviewState | null> {
	return (await isKnownInterview(env, id)) ? interviewStub(env, id).get() : null;
}

/**
 * `readInterview`, and whether the interview's recording may have chunks in R2, in the same call to
 * its object (`InterviewObject.getWithRecordings`).
 */
export async function readInterviewWithRecordings(
	env: Env,
	id: string,
): Promise<{ state: InterviewState | null; recordings: boolean } | null> {
	return (await isKnownInterview(env, id)) ? interviewStub(env, id).getWithRecordings() : null;
}

const known = new Set<string>();
const KNOWN_MAX = 10_000;

function remember(id: string): void {
	if (known.size >= KNOWN_MAX) known.clear();
	known.add(id);
}

/** After its data was deleted (the dev sandbox's purge): asked about again, like any id. */
export function forgetInterview(id: string): void {
	known.delete(id);
}
