import { z } from "zod";
import type { AuthContext } from "../../accounts/auth-context";
import { getDb } from "../../platform/db/client";
import { hasIdShape } from "../../platform/lib/random";
import type { InterviewState } from "../core/model";
import { ownedInterviewIds } from "../db/interviews-repo";
import { interviewStub } from "../stub";
import { fields, message } from "./schemas";

export const MAX_BULK_RESULT_IDS = 100;

export const bulkResultsBody = z.strictObject(
	{
		// Any string is taken: an empty, malformed or overlong id is answered by its element
		// (`found: false`), as an unknown one is. The 1 MiB body cap bounds what is echoed.
		interview_ids: z
			.array(z.string({ error: message("Must be a string") }), {
				error: message("Must be an array of interview ids"),
			})
			.min(1, { error: "Must contain at least one interview id" })
			.max(MAX_BULK_RESULT_IDS, { error: `At most ${MAX_BULK_RESULT_IDS} interview ids per request` }),
		include_results: fields.flag.default(false),
		include_transcripts: fields.flag.default(false),
	},
	{ error: message("Must be a JSON object") },
);
export type BulkResultsBody = z.infer<typeof bulkResultsBody>;

/**
 * The caller's interviews by id, read from their Durable Objects (the authoritative state) in
 * parallel. Each distinct id is read once; ids that are malformed, unknown, or another account's
 * or environment's map to null alike.
 */
export async function readOwnedInterviews(
	env: Env,
	auth: AuthContext,
	ids: readonly string[],
): Promise<Map<string, InterviewState | null>> {
	const distinct = [...new Set(ids)];
	const shaped = distinct.filter((id) => hasIdShape(id, "int"));
	// Only ids the projection knows are read from their objects: made-up ids open nothing.
	const known =
		shaped.length > 0
			? await ownedInterviewIds(getDb(env.DB), auth.accountId, auth.dataEnvironment, shaped)
			: new Set<string>();
	const states = await Promise.all(
		distinct.map(async (id) => {
			if (!known.has(id)) return null;
			const state = await interviewStub(env, id).get();
			const owned = state && state.accountId === auth.accountId && state.environment === auth.dataEnvironment;
			return owned ? state : null;
		}),
	);
	return new Map(distinct.map((id, i) => [id, states[i] ?? null]));
}
