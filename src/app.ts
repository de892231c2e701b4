import { type Context, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { methodNotAllowed } from "hono/method-not-allowed";
import { routePath } from "hono/route";
import { z } from "zod";
import { adminRoutes } from "./accounts/admin-routes";
import { authenticate } from "./accounts/auth";
import { rateLimit } from "./accounts/rate-limit-middleware";
import { accountRoutes } from "./accounts/routes";
import { adminUserRoutes } from "./dashboard/admin-users";
import { dashboardNotFound, dashboardRoutes, isDashboardPath, settingsRedirect } from "./dashboard/routes";
import { docsPage } from "./docs";
import { eventRoutes } from "./events/routes";
import { interviewRoutes } from "./interviews/api/routes";
import { testHelperRoutes } from "./interviews/api/test-helper-routes";
import { roomRoutes } from "./interviews/room/routes";
import { socketIoRoutes } from "./interviews/room/socketio/routes";
import { openApiDocument } from "./openapi";
import type { AppBindings } from "./platform/http/context";
import { errorBody, ok } from "./platform/http/envelope";
import { AppError } from "./platform/http/errors";
import { logLine, requestFields, requestLog } from "./platform/http/logging";
import {
	type Clock,
	productionConfigured,
	requestContext,
	requestIdentity,
	whenRouted,
} from "./platform/http/middleware";
import { apiOperation } from "./platform/http/openapi";
import { errorText } from "./platform/lib/error-text";
import { webhookRoutes } from "./webhooks/routes";

export interface AppOptions {
	clock?: Clock;
}

/** The public API: the same operations under `/v1` and the setup guide's `/api/v1`. */
function apiV1() {
	const api = new Hono<AppBindings>({ strict: false });
	api.use("*", whenRouted(authenticate, rateLimit));
	api.route("/interviews", interviewRoutes);
	api.route("/interviews", testHelperRoutes);
	api.route("/events", eventRoutes);
	api.route("/webhooks", webhookRoutes);
	api.route("/", accountRoutes);
	return api;
}

export function createApp(options: AppOptions = {}) {
	const app = new Hono<AppBindings>({ strict: false });
	app.use("*", requestIdentity, requestContext(options.clock ?? Date.now));
	// The log line wraps the method-not-allowed middleware: that one turns a 404 into the 405 only
	// after its next() returns, so a line written inside it would record the 404 it replaced.
	app.use("*", requestLog);
	app.use("*", methodNotAllowed({ app, onMethodNotAllowed: wrongMethod }));
	app.use("*", productionConfigured);
	app.route("/", roomRoutes);
	app.route("/", socketIoRoutes);

	app.get("/openapi.json", async (c) => c.json(await openApiDocument(createApp())));
	app.get("/docs", docsPage);

	app.get(
		"/api/v1/health",
		apiOperation({
			summary: "Health",
			tags: ["Service"],
			scopes: null,
			success: {
				status: 200,
				description: "The service answers",
				data: z.object({
					status: z.literal("ok"),
					service: z.string(),
					version: z.string(),
					environment: z.string(),
				}),
			},
			errors: [],
		}),
		(c) =>
			ok(c, {
				status: "ok",
				service: "interview-assessment-service",
				version: "v1",
				environment: c.env.ENVIRONMENT,
			}),
	);
	app.route("/admin", adminRoutes);
	// After adminRoutes: its admin-token check and body guard (`use("*")`) cover these too.
	app.route("/admin", adminUserRoutes);
	app.route("/dashboard", dashboardRoutes as never);
	app.route("/", settingsRedirect as never);
	for (const prefix of ["/v1", "/api/v1"]) shadow(app, prefix);
	const api = apiV1();
	app.route("/v1", api);
	app.route("/api/v1", api);
	noteShadowed(app);

	// Unknown dashboard paths get a page in its layout; every other path the API's envelope.
	app.notFound((c) => (isDashboardPath(new URL(c.req.url).pathname) ? dashboardNotFound(c) : unrouted(c)));

	app.onError((err, c) => {
		const requestId = c.get("requestId") ?? "unknown";
		const now = c.get("now") ?? Date.now();
		let error: AppError;
		if (err instanceof AppError) {
			error = err;
		} else if (err instanceof HTTPException && err.status === 400) {
			error = new AppError("VALIDATION_ERROR", "The request body is not valid JSON.", { body: err.message });
		} else {
			logLine("error", { message: "unhandled error", ...requestFields(c), error: errorText(err) });
			error = new AppError(
				"INTERNAL_ERROR",
				"Something went wrong on our side; the request id identifies it.",
				{
					request_id: requestId,
				},
			);
		}
		for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
		c.set("errorCode", error.code);
		return c.json(errorBody(error, requestId, now), error.status);
	});

	return app;
}

/**
 * Paths routed for one method that `/interviews/:id` would otherwise take as an id: another method
 * on them is a wrong method on a known route (405), not an unknown interview.
 */
const SHADOWED_PATHS = ["/interviews/bulk", "/interviews/bulk-results"];

/** Each shadowed path's own methods (taken from the built app's routes), by full path. */
const shadowedMethods = new Map<string, string[]>();

/** Registers `unrouted` for the other methods of each shadowed path (before `/:id` is mounted). */
function shadow(app: Hono<AppBindings>, prefix: string): void {
	// OPTIONS too: left to the method-not-allowed middleware, it would take `/:id`'s methods as well.
	for (const path of SHADOWED_PATHS) {
		app.on(["GET", "PUT", "PATCH", "DELETE", "OPTIONS"], `${prefix}${path}`, unrouted);
	}
}

/** Notes each shadowed path's own methods, once the app's routes are all registered. */
function noteShadowed(app: Hono<AppBindings>): void {
	for (const prefix of ["/v1", "/api/v1"]) {
		for (const path of SHADOWED_PATHS) {
			const full = `${prefix}${path}`;
			const own = app.routes.filter((r) => r.path === full && r.method !== "ALL" && r.handler !== unrouted);
			shadowedMethods.set(full, [...new Set(own.map((r) => r.method))]);
		}
	}
}

/**
 * No route for the method and path: 404 NOT_FOUND, which hono's method-not-allowed middleware
 * turns into a 405 when another method is routed on the path. On a shadowed path (registered
 * here for its other methods) it is the 405 itself.
 */
export function unrouted(c: Context<AppBindings>): Response {
	const allowed = shadowedMethods.get(routePath(c));
	if (allowed?.length) return wrongMethod(c, allowed);
	const path = new URL(c.req.url).pathname;
	const error = new AppError("NOT_FOUND", `No route for ${c.req.method} ${path}.${versionHint(path)}`);
	c.set("errorCode", error.code);
	return c.json(errorBody(error, c.get("requestId"), c.get("now")), error.status);
}

/** The first path segments of the API's routes (`interviews`, `webhooks`, ...). */
const API_SEGMENTS = new Set(
	apiV1()
		.routes.map((r) => r.path.split("/")[1])
		.filter((segment): segment is string => Boolean(segment) && !segment?.startsWith(":")),
);

/** A path that names an API route without its version prefix: " Did you mean /v1/…?" */
function versionHint(path: string): string {
	if (/^\/(api\/)?v\d+(\/|$)/.test(path) || path === "/") return "";
	return API_SEGMENTS.has(path.split("/")[1] ?? "") ? ` Did you mean /v1${path}?` : "";
}

/** 405 METHOD_NOT_ALLOWED with the methods routed on the path (HEAD goes with GET, unnamed). */
function wrongMethod(c: Context<AppBindings>, methods: string[]): Response {
	const allowed = methods.filter((m) => m !== "HEAD");
	const error = new AppError(
		"METHOD_NOT_ALLOWED",
		`${c.req.method} is not allowed here; use ${allowed.join(", ")}.`,
		{
			allowed_methods: allowed,
		},
	);
	c.header("Allow", allowed.join(", "));
	c.set("errorCode", error.code);
	return c.json(errorBody(error, c.get("requestId"), c.get("now")), error.status);
}
