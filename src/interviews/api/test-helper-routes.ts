import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { requireScope } from "../../accounts/auth";
import { counted } from "../../accounts/rate-limit-middleware";
import { idempotent } from "../../idempotency/middleware";
import type { AppBindings } from "../../platform/http/context";
import { ok } from "../../platform/http/envelope";
import { AppError } from "../../platform/http/errors";
import { appUrl } from "../../platform/http/urls";
import { noQuery, validate } from "../../platform/http/validation";
import { ADVANCE_TARGETS } from "../core/transitions/test-advance";
import { advanceInterview } from "../service";
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
