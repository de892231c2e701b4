import type { Context } from "hono";
import type { AppBindings } from "./context";

function trimSlash(url: string): string {
	return url.replace(/\/+$/, "");
}

/**
 * The request's origin. The runtime hands over the URL already parsed and serialised, so the
 * origin is what precedes the path; parsing it again cost more than the rest of a view.
 */
function origin(c: Context<AppBindings>): string {
	const url = c.req.url;
	const path = url.indexOf("/", url.indexOf("://") + 3);
	const head = path === -1 ? url : url.slice(0, path);
	return head.includes("@") ? new URL(url).origin : head;
}

/** `{app_url}`: `APP_URL`, or the request's own origin when unset (so `PORT` works locally). */
export function appUrl(c: Context<AppBindings>): string {
	return c.env.APP_URL ? trimSlash(c.env.APP_URL) : origin(c);
}

/** `{ws_url}`: `WS_URL`, or the request's origin with ws/wss. */
export function wsUrl(c: Context<AppBindings>): string {
	if (c.env.WS_URL) return trimSlash(c.env.WS_URL);
	return origin(c).replace(/^http/, "ws");
}

/** A URL's origin (scheme, host and port), as a Content-Security-Policy source; "" if it is none. */
export function originOf(url: string): string {
	try {
		return new URL(url).origin;
	} catch {
		return "";
	}
}
