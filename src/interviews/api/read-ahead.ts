import type { Context, MiddlewareHandler } from "hono";
import type { AppBindings } from "../../platform/http/context";
import { hasIdShape } from "../../platform/lib/random";
import type { InterviewState } from "../core/model";
import { readInterview, readInterviewWithRecordings } from "../stub";

declare module "hono" {
	interface ContextVariableMap {
		/** The single fetch's read of the interview, started before the request's rate-limit count. */
		interviewReadAhead: {
			id: string;
			state: Promise<InterviewState | null>;
			/** With `include_recordings=true`: whether the recording may have chunks to list. */
			recordings?: Promise<boolean>;
		};
	}
}

/**
 * Mounted first on the single fetch (`GET /interviews/:id`): starts the read of the interview's
 * object before the request is counted against the rate limit (by the scope check that follows),
 * so that the two calls overlap. The read changes nothing and its result is used only by the
 * handler, after the rate limit, the scope and validation have passed in their order; a refused
 * request simply drops it. Ownership is checked on the result as always. The object is opened only
 * once the projection has the id (`isKnownInterview`): an id that was never created opens no object.
 */
export const readAhead: MiddlewareHandler<AppBindings> = async (c, next) => {
	const id = c.req.param("id");
	if (id && hasIdShape(id, "int")) {
		let state: Promise<InterviewState | null>;
		let recordings: Promise<boolean> | undefined;
		if (c.req.query("include_recordings") === "true") {
			// The recording's count comes in the same call: R2 is listed only when it may hold chunks.
			const read = readInterviewWithRecordings(c.env, id);
			state = read.then((r) => r?.state ?? null);
			recordings = read.then((r) => r?.recordings ?? false);
		} else {
			state = readInterview(c.env, id);
		}
		// Dropped when the request is refused before its handler: never an unhandled rejection.
		state.catch(() => undefined);
		recordings?.catch(() => undefined);
		c.set("interviewReadAhead", { id, state, recordings });
	}
	await next();
};

/** The read started for `id` by `readAhead`, if any. */
export function interviewReadAhead(
	c: Context<AppBindings>,
	id: string,
): Promise<InterviewState | null> | undefined {
	const ahead = c.get("interviewReadAhead");
	return ahead?.id === id ? ahead.state : undefined;
}

/** Whether the recording may have chunks, as read by `readAhead` for `id`; undefined when not read. */
export function recordingsReadAhead(c: Context<AppBindings>, id: string): Promise<boolean> | undefined {
	const ahead = c.get("interviewReadAhead");
	return ahead?.id === id ? ahead.recordings : undefined;
}
