import type { Context } from "hono";
import type { AppBindings } from "./context";

function trimSlash(url: string): string {
	return url.replace(/\/+$/, "");
}

function origin(c: Context<AppBindings>): string {
	return new URL(c.req.url).origin;
}

/** `{app_url}`: `APP_URL`, or the request's own origin when unset (so `PORT` works locally). */
export function appUrl(c: Context<AppBindings>): string {
	return c.env.APP_URL ? trimSlash(c.env.APP_URL) : origin(c);
}

export function baseUrl(c: Context<AppBindings>): string {
	return c.env.PUBLIC_BASE_URL ? trimSlash(c.env.PUBLIC_BASE_URL) : origin(c);
}

/** `{ws_url}`: `WS_URL`, or the request's origin with ws/wss. */
export function wsUrl(c: Context<AppBindings>): string {
	if (c.env.WS_URL) return trimSlash(c.env.WS_URL);
	return origin(c).replace(/^http/, "ws");
}
