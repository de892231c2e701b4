import { Hono } from "hono";
import { z } from "zod";
import { requireScope } from "../accounts/auth";
import type { AppBindings } from "../http/context";
import { ok } from "../http/envelope";
import { validate } from "../http/validation";
import { loadOwnedInterview } from "../interview/service";
import { setupGuideResultsView } from "../interview/setup-guide-results";

/** The setup guide's results read (served under both prefixes, like every interview route). */
export const setupGuideRoutes = new Hono<AppBindings>();

setupGuideRoutes.get(
	"/:id/results",
	requireScope("interviews:read"),
	validate("query", z.strictObject({})),
	async (c) => {
		const state = await loadOwnedInterview(c.env, c.get("auth"), c.req.param("id"));
		return ok(c, setupGuideResultsView(state));
	},
);
