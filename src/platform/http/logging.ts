import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { iso } from "../lib/time";
import type { AppBindings } from "./context";

export type LogLevel = "info" | "warn" | "error";

/**
 * One structured line per request (and the same fields on every error line): JSON with level,
 * time, request_id, account_id, route, method, status and duration_ms. The route is the matched
 * pattern (`/v1/interviews/:id`), never the URL: no query string (join tokens, observer keys),
 * no header, no body is ever written.
 */
export function requestFields(c: Context<AppBindings>) {
	// The handler's pattern; middleware are mounted for ALL methods: none matched is a 404/405.
	const route = matchedRoutes(c).findLast((r) => r.method !== "ALL")?.path ?? null;
	return {
		request_id: c.get("requestId") ?? null,
		account_id: c.get("auth")?.accountId ?? null,
		route,
		method: c.req.method,
	};
}

export function logLine(level: LogLevel, fields: Record<string, unknown>): void {
	const line = JSON.stringify({ level, time: iso(Date.now()), ...fields });
	if (level === "error") console.error(line);
	else if (level === "warn") console.warn(line);
	else console.log(line);
}

function levelOf(status: number): LogLevel {
	if (status >= 500) return "error";
	if (status >= 400) return "warn";
	return "info";
}

/**
 * Which requests get a line (`LOG_REQUESTS`): `all` (the default, and production's setting) or
 * `errors`, only answers of 400 and above. The local default is `errors`: wrangler already prints
 * every request it serves, and each console line travels through its inspector relay (measured in
 * docs/performance.md). Anything else means `all`, so a typo never hides requests.
 */
export function logsEveryRequest(setting: string | undefined): boolean {
	return setting?.trim().toLowerCase() !== "errors";
}

/**
 * The request line: mounted outside every middleware but the request id's and clock's (the
 * method-not-allowed one included), so it measures and sees every answer as sent, errors included.
 */
export const requestLog: MiddlewareHandler<AppBindings> = async (c, next) => {
	const started = Date.now();
	await next();
	const status = c.res.status;
	if (status < 400 && !logsEveryRequest(c.env.LOG_REQUESTS)) return;
	const fields: Record<string, unknown> = {
		message: "request",
		...requestFields(c),
		status,
		duration_ms: Date.now() - started,
	};
	if (status >= 400) fields.error_code = c.get("errorCode") ?? null;
	logLine(levelOf(status), fields);
};
