import { type Context, Hono } from "hono";
import type { AppBindings } from "../platform/http/context";
import { appUrl, originOf, wsUrl } from "../platform/http/urls";
import { accountPages } from "./account-pages";
import { authRoutes } from "./auth-routes";
import { csrf, ownerOnly } from "./guard";
import { interviewListPages } from "./interview-list";
import { interviewPages } from "./interview-pages";
import { keyPages } from "./key-pages";
import { Page } from "./layout";
import { resultsPage } from "./results-page";
import { DASHBOARD_JS } from "./script";
import { type DashBindings, requireUser } from "./session";
import { webhookPages } from "./webhook-pages";

/** The dashboard under `/dashboard` (docs/dashboard.md). */
export const dashboardRoutes = new Hono<DashBindings>({ strict: false });

/**
 * The dashboard's Content-Security-Policy: script only from the service's own files (the one
 * script, script.ts; no inline script, no event-handler attributes), styles inline (the layout's
 * stylesheet and a few `style` attributes), connections to the service's own origins (the live
 * view's ticket and WebSocket), audio from the app's origin (the results page's recordings), forms
 * posting only to the service, and no framing.
 */
export function dashboardPolicy(connect: readonly string[], media: readonly string[] = []): string {
	return [
		"default-src 'none'",
		"script-src 'self'",
		"style-src 'unsafe-inline'",
		"img-src 'self' data:",
		// The results page's players: recordings are served from the app's origin.
		`media-src 'self' ${[...new Set(media.filter(Boolean))].join(" ")}`.trim(),
		`connect-src 'self' ${[...new Set(connect.filter(Boolean))].join(" ")}`.trim(),
		"form-action 'self'",
		"frame-ancestors 'none'",
		"base-uri 'none'",
	].join("; ");
}

dashboardRoutes.use("*", async (c, next) => {
	await next();
	c.header(
		"Content-Security-Policy",
		dashboardPolicy(
			[originOf(appUrl(c as never)), originOf(wsUrl(c as never))],
			[originOf(appUrl(c as never))],
		),
	);
	c.header("X-Frame-Options", "DENY");
	c.header("Referrer-Policy", "same-origin");
	c.header("X-Content-Type-Options", "nosniff");
	if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
});
dashboardRoutes.get("/assets/dashboard.js", (c) =>
	c.body(DASHBOARD_JS, 200, {
		"Content-Type": "text/javascript; charset=utf-8",
		// Its URL carries its digest (DASHBOARD_JS_PATH): a new script is a new URL.
		"Cache-Control": "public, max-age=86400",
	}),
);
dashboardRoutes.route("/", authRoutes);
// The interviews list signs its visitor in itself, reading the session with its page.
dashboardRoutes.route("/interviews", interviewListPages);

const signedIn = new Hono<DashBindings>({ strict: false });
signedIn.use("*", requireUser, csrf);
signedIn.get("/", (c) => c.redirect("/dashboard/interviews", 303));
signedIn.route("/interviews", interviewPages);
signedIn.route("/interviews", resultsPage);
signedIn.use("/settings/*", ownerOnly);
signedIn.route("/settings/api-keys", keyPages);
signedIn.route("/settings/webhooks", webhookPages);
signedIn.route("/", accountPages);
dashboardRoutes.route("/", signedIn);

/**
 * An unknown path under `/dashboard`: a 404 page in the dashboard's layout, not the API's JSON
 * envelope (the app's not-found handler sends these paths here). A visitor without a session was
 * already sent to sign in by `requireUser`, like for any dashboard page.
 */
export function dashboardNotFound(c: Context<AppBindings>): Response | Promise<Response> {
	const dash = c as unknown as Context<DashBindings>;
	const user = dash.var.dashboard ?? null;
	const path = new URL(c.req.url).pathname;
	dash.status(404);
	return dash.html(
		<Page title="Page not found" user={user}>
			<h1>Page not found</h1>
			<p>
				There is no dashboard page at <code>{path}</code>. It may have moved, or the link may be mistyped.
			</p>
			<ul>
				<li>
					<a href="/dashboard/interviews">Interviews</a>
				</li>
				<li>
					<a href="/dashboard/account">Account</a>
				</li>
			</ul>
		</Page>,
		404,
	);
}

/** Whether a path is the dashboard's (its unknown paths answer `dashboardNotFound`). */
export function isDashboardPath(path: string): boolean {
	return path === "/dashboard" || path.startsWith("/dashboard/");
}

/** `/settings/api-keys`: an expired key's `renewal_url`. */
export const settingsRedirect = new Hono<DashBindings>();
settingsRedirect.get("/settings/api-keys", (c) => c.redirect("/dashboard/settings/api-keys", 302));
