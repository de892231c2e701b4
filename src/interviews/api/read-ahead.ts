import type { Context } from "hono";
import type { AppBindings } from "../../platform/http/context";
import { hasIdShape } from "../../platform/lib/random";
import type { InterviewState } from "../core/model";
import { interviewStub, isKnownInterview } from "../service";

/** `GET {/v1,/api/v1}/interviews/{id}`, the single fetch. */
const SINGLE_FETCH = /^\/(?:api\/)?v1\/interviews\/([^/]+)\/?$/;

/**
 * The single fetch's read of the interview's object, started while the request's rate-limit call
 * is in flight so that the two calls overlap. The read changes nothing and its result is used only
 * by the handler, after authentication, the rate limit, the scope and validation have passed in
 * their order; a refused request simply drops it. Ownership is checked on the result as always.
 * The object is opened only once the projection has the id (`isKnownInterview`), so the read is
 * one D1 lookup and then the object call, both beside the rate-limit call.
 */
export function startInterviewReadAhead(c: Context<AppBindings>): void {
	if (c.req.method !== "GET") return;
	const id = SINGLE_FETCH.exec(c.req.path)?.[1];
	if (!id || !hasIdShape(id, "int")) return;
	// The projection first: an id that was never created opens no object (nothing is stored).
	const state = isKnownInterview(c.env, id).then((known) => (known ? interviewStub(c.env, id).get() : null));
	// Dropped when the request is refused before its handler: never an unhandled rejection.
	state.catch(() => undefined);
	c.set("interviewReadAhead", { id, state });
}

/** The read started for `id` by `startInterviewReadAhead`, if any. */
export function interviewReadAhead(
	c: Context<AppBindings>,
	id: string,
): Promise<InterviewState | null> | undefined {
	const ahead = c.get("interviewReadAhead");
	return ahead?.id === id ? ahead.state : undefined;
}
