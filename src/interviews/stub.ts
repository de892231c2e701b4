import { getDb } from "../platform/db/client";
import { hasIdShape } from "../platform/lib/random";
import { interviewExists } from "./db/interviews-repo";

/** The interview's Durable Object, by interview id (typed from the generated `INTERVIEW` namespace). */
export function interviewStub(env: Env, id: string) {
	return env.INTERVIEW.get(env.INTERVIEW.idFromName(id));
}

/**
 * Whether the projection has the interview, asked before its object is opened: ids that were never
 * created open no Durable Object (an opened object has its own database, written or not).
 */
export async function isKnownInterview(env: Env, id: string): Promise<boolean> {
	if (!hasIdShape(id, "int")) return false;
	// D1 unreachable: the object, the authoritative state, answers (a known id must not fail).
	return interviewExists(getDb(env.DB), id).catch(() => true);
}
