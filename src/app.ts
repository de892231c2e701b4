import { type Context, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { adminRoutes } from "./accounts/admin-routes";
import { authenticate } from "./accounts/auth";
import { rateLimit } from "./accounts/rate-limit-middleware";
import { accountRoutes } from "./accounts/routes";
import { adminUserRoutes } from "./dashboard/admin-users";
import { dashboardRoutes, settingsRedirect } from "./dashboard/routes";
import { eventRoutes } from "./events/routes";
import { interviewRoutes } from "./interviews/api/routes";
import { testHelperRoutes } from "./interviews/api/test-helper-routes";
import { roomRoutes } from "./interviews/room/routes";
import type { AppBindings } from "./platform/http/context";
import { errorBody, ok } from "./platform/http/envelope";
import { AppError } from "./platform/http/errors";
import { type Clock, requestContext, whenRouted } from "./platform/http/middleware";
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
	app.use("*", requestContext(options.clock ?? Date.now));
	app.route("/", roomRoutes);

	app.get("/api/v1/health", (c) =>
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
	for (const prefix of ["/v1", "/api/v1"]) {
		for (const path of SHADOWED_PATHS)
			app.on(["GET", "PUT", "PATCH", "DELETE"], `${prefix}${path}`, unrouted);
	}
	const api = apiV1();
	app.route("/v1", api);
	app.route("/api/v1", api);

	app.notFound(unrouted);

	app.onError((err, c) => {
		const requestId = c.get("requestId") ?? "unknown";
		const now = c.get("now") ?? Date.now();
		let error: AppError;
		if (err instanceof AppError) {
			error = err;
		} else if (err instanceof HTTPException && err.status === 400) {
			error = new AppError("VALIDATION_ERROR", "The request body is not valid JSON.", { body: err.message });
		} else {
			console.error(
				JSON.stringify({
					message: "unhandled error",
					request_id: requestId,
					error: String(err),
				}),
			);
			error = new AppError(
				"INTERNAL_ERROR",
				"Something went wrong on our side; the request id identifies it.",
				{
					request_id: requestId,
				},
			);
		}
		for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
		return c.json(errorBody(error, requestId, now), error.status);
	});

	return app;
}

/**
 * Paths routed for one method that `/interviews/:id` would otherwise take as an id: another method
 * on them is a wrong method on a known route (405), not an unknown interview.
 */
const SHADOWED_PATHS = ["/interviews/bulk", "/interviews/bulk-results"];

/** No route for the method and path: 405 with the allowed methods if the path is known, else 404. */
export function unrouted(c: Context<AppBindings>): Response {
	const path = new URL(c.req.url).pathname;
	const allowed = allowedMethods(path);
	const error =
		allowed.length > 0
			? new AppError(
					"METHOD_NOT_ALLOWED",
					`${c.req.method} is not allowed here; use ${allowed.join(", ")}.`,
					{
						allowed_methods: allowed,
					},
				)
			: new AppError("NOT_FOUND", `No route for ${c.req.method} ${path}.`);
	if (allowed.length > 0) c.header("Allow", allowed.join(", "));
	return c.json(errorBody(error, c.get("requestId"), c.get("now")), error.status);
}

interface RoutePattern {
	method: string;
	literal: boolean;
	pattern: RegExp;
}

let routePatterns: RoutePattern[] | undefined;

/**
 * Methods registered for a path, so a wrong method answers 405 rather than 404. A path that is
 * a route written out (`/v1/interviews/bulk`) is that route alone, not also a `:id`.
 */
function allowedMethods(path: string): string[] {
	routePatterns ??= createApp()
		.routes.filter((r) => r.method !== "ALL" && !r.path.includes("*") && r.handler !== unrouted)
		.map((r) => ({
			method: r.method,
			literal: !r.path.includes(":"),
			pattern: new RegExp(
				`^${r.path
					.replace(/\/+$/, "")
					.replace(/[.+?^${}()|[\]\\]/g, "\\$&")
					.replace(/:[^/]+/g, "[^/]+")}/?$`,
			),
		}));
	const normalised = path.length > 1 ? path.replace(/\/+$/, "") : path;
	const matching = routePatterns.filter((p) => p.pattern.test(normalised));
	const chosen = matching.some((p) => p.literal) ? matching.filter((p) => p.literal) : matching;
	return [...new Set(chosen.map((p) => p.method))];
}
