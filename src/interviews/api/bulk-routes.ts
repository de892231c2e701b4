import { Hono } from "hono";
import { requireScope } from "../../accounts/auth";
import { idempotent } from "../../idempotency/middleware";
import type { AppBindings } from "../../platform/http/context";
import { ok } from "../../platform/http/envelope";
import { apiOperation, jsonSchema } from "../../platform/http/openapi";
import { appUrl } from "../../platform/http/urls";
import { itemsCheckedAlone, noQuery, validate } from "../../platform/http/validation";
import { bulkCreate, bulkCreateBody, retryMayDoBetter } from "../creation/bulk-create";
import { bulkResultsBody, readOwnedInterviews } from "./bulk-results";
import { bulkCreatedView, bulkResultElement } from "./bulk-views";
import { bulkCreatedSchema, bulkResultsSchema } from "./openapi";
import { createInterviewBody } from "./schemas";

/**
 * The bulk body as the document describes it: each item is a create body (the request-level
 * schema takes items as they come, since each is checked on its own and fails alone).
 */
function bulkBodyDocument() {
	const body = jsonSchema(bulkCreateBody, "input") as { properties: { interviews: Record<string, unknown> } };
	body.properties.interviews = {
		...body.properties.interviews,
		items: jsonSchema(createInterviewBody, "input"),
		description:
			"Each item as POST /v1/interviews takes it (`defaults` fills what an item leaves out); an invalid item is refused alone, in `failed`",
	};
	return body;
}

export const bulkRoutes = new Hono<AppBindings>();

bulkRoutes.post(
	"/bulk",
	apiOperation({
		summary: "Create interviews in bulk",
		description: "Each item is created or refused on its own; the answer lists both by request index.",
		tags: ["Interviews"],
		scopes: ["interviews:write"],
		query: noQuery,
		body: bulkBodyDocument(),
		success: { status: 200, description: "Per-item outcomes", data: bulkCreatedSchema },
		// Credits and the monthly quota refuse items, never the request (`failed[].error`).
		errors: [],
		idempotent: true,
	}),
	itemsCheckedAlone("interviews"),
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
	apiOperation({
		summary: "Read many interviews' results",
		tags: ["Interviews"],
		scopes: ["interviews:read"],
		query: noQuery,
		body: bulkResultsBody,
		success: { status: 200, description: "One element per requested id, in order", data: bulkResultsSchema },
		errors: [],
		idempotent: true,
	}),
	requireScope("interviews:read"),
	validate("query", noQuery),
	validate("json", bulkResultsBody),
	idempotent,
	async (c) => {
		// A read: there is nothing a retry could do twice, and its answer (up to 100 transcripts)
		// may be more than D1 stores in a row. The key is held while this runs and then released,
		// so a retry with it reads afresh (docs/api.md, Idempotency).
		c.set("idempotencyTransient", true);
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
