import { Hono } from "hono";
import { z } from "zod";
import { requireScope } from "../../accounts/auth";
import type { AppBindings } from "../../platform/http/context";
import { ok } from "../../platform/http/envelope";
import { apiOperation } from "../../platform/http/openapi";
import { validate } from "../../platform/http/validation";
import { setupGuideResultsView } from "../core/setup-guide-results";
import { loadOwnedInterview } from "../service";
import { setupGuideResultsSchema } from "./openapi";

/** The setup guide's results read (served under both prefixes, like every interview route). */
export const setupGuideRoutes = new Hono<AppBindings>();

setupGuideRoutes.get(
	"/:id/results",
	apiOperation({
		summary: "An interview's results in the setup guide's form",
		tags: ["Interviews"],
		scopes: ["interviews:read"],
		query: z.strictObject({}),
		success: {
			status: 200,
			description: "Results (mock results for test-mode interviews)",
			data: setupGuideResultsSchema,
		},
		errors: ["INTERVIEW_NOT_FOUND"],
	}),
	requireScope("interviews:read"),
	validate("query", z.strictObject({})),
	async (c) => {
		const state = await loadOwnedInterview(c.env, c.get("auth"), c.req.param("id"));
		return ok(c, setupGuideResultsView(state));
	},
);
