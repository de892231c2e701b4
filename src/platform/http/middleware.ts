import type { MiddlewareHandler } from "hono";
import { requestId } from "hono/request-id";
import { matchedRoutes } from "hono/route";
import { newId } from "../lib/random";
import { originProblems } from "../production-config";
import type { AppBindings } from "./context";
import { AppError } from "./errors";

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
		if (c.res.status === 101) return;
		c.res.headers.set("X-Request-Id", c.get("requestId"));
		if (isJson(c.res.headers.get("Content-Type"))) {
			// API and admin answers (errors too) carry keys, secrets and join tokens: never cached,
			// never sniffed as another type.
			c.res.headers.set("Cache-Control", "no-store");
			c.res.headers.set("X-Content-Type-Options", "nosniff");
		}
	};
}

function isJson(contentType: string | null): boolean {
	const media = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
	return media === "application/json" || media.endsWith("+json");
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

let refusalLogged = false;

/**
 * Production refuses to serve without its public origins (docs/decisions.md): links in e-mails
 * and answers would otherwise follow the request's `Host` header. Every request is answered 500
 * with a message that says why, and the reason is logged once per isolate.
 */
export const productionConfigured: MiddlewareHandler<AppBindings> = async (c, next) => {
	if (c.env.ENVIRONMENT !== "production") return next();
	const problems = originProblems(c.env);
	if (problems.length === 0) return next();
	if (!refusalLogged) {
		refusalLogged = true;
		console.error(
			JSON.stringify({
				message: "refusing to serve: production configuration incomplete",
				problems,
			}),
		);
	}
	throw new AppError(
		"INTERNAL_ERROR",
		`The service is not configured for production: ${problems.join("; ")}.`,
		{ request_id: c.get("requestId") },
	);
};
