import { Hono } from "hono";
import { z } from "zod";
import { requireScope } from "../../accounts/auth";
import type { AppBindings } from "../../platform/http/context";
import { ok } from "../../platform/http/envelope";
import { validate } from "../../platform/http/validation";
import { setupGuideResultsView } from "../core/setup-guide-results";
import { loadOwnedInterview } from "../service";

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
