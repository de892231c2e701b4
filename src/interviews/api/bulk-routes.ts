import { Hono } from "hono";
import { requireScope } from "../../accounts/auth";
import { idempotent } from "../../idempotency/middleware";
import type { AppBindings } from "../../platform/http/context";
import { ok } from "../../platform/http/envelope";
import { appUrl } from "../../platform/http/urls";
import { noQuery, validate } from "../../platform/http/validation";
import { bulkCreate, bulkCreateBody, retryMayDoBetter } from "../creation/bulk-create";
import { bulkResultsBody, readOwnedInterviews } from "./bulk-results";
import { bulkCreatedView, bulkResultElement } from "./bulk-views";

export const bulkRoutes = new Hono<AppBindings>();

bulkRoutes.post(
	"/bulk",
	requireScope("interviews:write"),
	validate("query", noQuery),
	validate("json", bulkCreateBody),
	idempotent,
	async (c) => {
		const urls = { appUrl: appUrl(c) };
		const outcomes = await bulkCreate(c.env, c.get("auth"), c.req.valid("json"), {
			now: c.get("now"),
			appUrl: urls.appUrl,
			requestId: c.get("requestId"),
		});
		if (retryMayDoBetter(outcomes)) c.set("idempotencyTransient", true);
		return ok(c, bulkCreatedView(outcomes, urls));
	},
);

bulkRoutes.post(
	"/bulk-results",
	requireScope("interviews:read"),
	validate("query", noQuery),
	validate("json", bulkResultsBody),
	idempotent,
	async (c) => {
		const body = c.req.valid("json");
		const urls = { appUrl: appUrl(c) };
		const states = await readOwnedInterviews(c.env, c.get("auth"), body.interview_ids);
		const options = { includeResults: body.include_results, includeTranscripts: body.include_transcripts };
		return ok(
			c,
			body.interview_ids.map((id) => bulkResultElement(id, states.get(id) ?? null, urls, options)),
		);
	},
);
