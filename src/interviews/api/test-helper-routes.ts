import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { requireScope } from "../../accounts/auth";
import { counted } from "../../accounts/rate-limit-middleware";
import { idempotent } from "../../idempotency/middleware";
import type { AppBindings } from "../../platform/http/context";
import { ok } from "../../platform/http/envelope";
import { AppError } from "../../platform/http/errors";
import { apiOperation } from "../../platform/http/openapi";
import { appUrl } from "../../platform/http/urls";
import { noQuery, validate } from "../../platform/http/validation";
import { ADVANCE_TARGETS } from "../core/transitions/test-advance";
import { advanceInterview } from "../service";
import { fullInterviewSchema } from "./openapi";
import { message } from "./schemas";
import { fullView } from "./views";

/** Test-mode helpers for callers' own integration tests (docs/test-mode.md). */
export const testHelperRoutes = new Hono<AppBindings>();

/** For live keys these endpoints do not exist: a live integration can never call one by mistake. */
const testKeysOnly: MiddlewareHandler<AppBindings> = async (c, next) => {
	if (c.get("auth").keyEnvironment === "live") {
		throw new AppError(
			"NOT_FOUND",
			`No route for ${c.req.method} ${new URL(c.req.url).pathname}: test helpers exist only for svc_test_ and svc_dev_ keys.`,
		);
	}
	await next();
};

const advanceBody = z.strictObject(
	{
		to: z.enum(ADVANCE_TARGETS, { error: message(`Must be one of ${ADVANCE_TARGETS.join(", ")}`) }),
	},
	{ error: message("Must be a JSON object") },
);

testHelperRoutes.post(
	"/:id/test/advance",
	counted,
	apiOperation({
		summary: "Move a test interview along (test and dev keys only)",
		description: "For live keys this route does not exist (404 NOT_FOUND). docs/test-mode.md.",
		tags: ["Test mode"],
		scopes: ["interviews:write"],
		query: noQuery,
		body: advanceBody,
		success: {
			status: 200,
			description: "The interview after the step, results included",
			data: fullInterviewSchema,
		},
		errors: ["NOT_FOUND", "INTERVIEW_NOT_FOUND", "INVALID_OPERATION"],
		idempotent: true,
	}),
	testKeysOnly,
	requireScope("interviews:write"),
	validate("query", noQuery),
	validate("json", advanceBody),
	idempotent,
	async (c) => {
		const state = await advanceInterview(
			c.env,
			c.get("auth"),
			c.req.param("id"),
			c.req.valid("json").to,
			c.get("now"),
		);
		return ok(c, fullView(state, { appUrl: appUrl(c) }, { includeResults: true }));
	},
);
