import type { MiddlewareHandler } from "hono";
import { requestId } from "hono/request-id";
import { matchedRoutes } from "hono/route";
import { newId } from "../lib/random";
import type { AppBindings } from "./context";

export type Clock = () => number;

/**
 * The request id: a client's own `X-Request-Id` when it is 1 to 128 letters, digits, `_`, `-` or
 * `=` (hono's request-id check), otherwise a new `req_...`; read with `c.get("requestId")`.
 */
export const requestIdentity: MiddlewareHandler<AppBindings> = requestId({
	limitLength: 128,
	generator: () => newId("req"),
});

/** The request's time, read once from the clock, and the request id echoed as `X-Request-Id`. */
export function requestContext(clock: Clock): MiddlewareHandler<AppBindings> {
	return async (c, next) => {
		c.set("now", clock());
		await next();
		// A WebSocket upgrade's response headers are immutable: the room's object sets the id there.
		if (c.res.status !== 101) c.res.headers.set("X-Request-Id", c.get("requestId"));
	};
}

/**
 * Runs `middleware` only when a handler matches the method and path, so that an unknown route
 * answers 404 (or 405) before authentication, as the contract's order of checks requires.
 */
export function whenRouted(...middleware: MiddlewareHandler<AppBindings>[]): MiddlewareHandler<AppBindings> {
	return async (c, next) => {
		if (!matchedRoutes(c).some((route) => route.method !== "ALL")) return next();
		let index = -1;
		const dispatch = async (i: number): Promise<void> => {
			if (i <= index) throw new Error("next() called twice");
			index = i;
			const mw = middleware[i];
			if (mw) await mw(c, () => dispatch(i + 1));
			else await next();
		};
		await dispatch(0);
	};
}
