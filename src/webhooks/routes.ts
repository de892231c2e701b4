import { Hono } from "hono";
import { z } from "zod";
import { requireScope } from "../accounts/auth";
import type { AuthContext } from "../accounts/auth-context";
import { idempotent } from "../idempotency/middleware";
import { getDb } from "../platform/db/client";
import type { AppBindings } from "../platform/http/context";
import { ok, okList } from "../platform/http/envelope";
import { AppError, validationError } from "../platform/http/errors";
import { apiOperation } from "../platform/http/openapi";
import { noQuery, validate, validateJson } from "../platform/http/validation";
import { type CursorList, decodeCursor, encodeCursor } from "../platform/lib/cursor";
import { iso } from "../platform/lib/time";
import { listDeliveries } from "./deliveries-repo";
import { listEndpoints } from "./endpoints-repo";
import { deletedSchema, deliverySchema, endpointSchema, rotatedSecretSchema } from "./openapi";
import {
	createWebhookBody,
	emptyBody,
	listDeliveriesQuery,
	listWebhooksQuery,
	updateWebhookBody,
} from "./schemas";
import { rotateWebhookSecret } from "./secrets";
import {
	acceptedUrl,
	assertMayChange,
	changeEndpoint,
	createEndpoint,
	loadDelivery,
	loadOwnedEndpoint,
	ownerOf,
	redeliver,
	reload,
	removeEndpoint,
	sendTestEvent,
	webhookNotFound,
} from "./service";
import { deliveryView, endpointView } from "./views";

/** `/v1/webhooks`: endpoints, their delivery log, redelivery, test events and secret rotation. */
export const webhookRoutes = new Hono<AppBindings>();

function cursorFrom(list: CursorList, value: string | undefined) {
	if (value === undefined) return null;
	const cursor = decodeCursor(list, value);
	if (!cursor)
		throw validationError({ cursor: "Not a cursor from this list; pass pagination.next_cursor unchanged" });
	return cursor;
}

function page<T extends { createdAt: number; id: string }>(list: CursorList, rows: T[], limit: number) {
	const hasMore = rows.length > limit;
	const items = hasMore ? rows.slice(0, limit) : rows;
	const last = items.at(-1);
	return {
		items,
		hasMore,
		nextCursor: hasMore && last ? encodeCursor(list, { createdAt: last.createdAt, id: last.id }) : null,
	};
}

/**
 * The webhook secret is the account's and signs its live deliveries: only a live key may replace
 * it. A dev (sandbox) key is refused as before; a test key, which changes only test data
 * (decisions.md, "Test keys and live data"), is refused the same way (docs/webhooks.md). Checked
 * with the scope, before validation.
 */
function liveKeyOnly(auth: AuthContext): void {
	if (auth.keyEnvironment === "live") return;
	const kind = auth.keyEnvironment === "dev" ? "Dev" : "Test";
	throw new AppError(
		"INSUFFICIENT_PERMISSIONS",
		`${kind} keys cannot rotate the webhook secret: it signs the account's live deliveries. Use a live key.`,
		{
			required_permission: "webhooks:write",
			current_permissions: auth.permissions,
			key_environment: auth.keyEnvironment,
			required_key_environment: "live",
		},
	);
}

webhookRoutes.post(
	"/secret/rotate",
	apiOperation({
		summary: "Rotate the account's webhook secret",
		description: "Live keys only. The previous secret keeps signing for 24 hours.",
		bodyOptional: true,
		tags: ["Webhooks"],
		scopes: ["webhooks:write"],
		query: noQuery,
		body: emptyBody,
		success: { status: 200, description: "The new secret", data: rotatedSecretSchema },
		errors: ["INVALID_OPERATION"],
		idempotent: true,
	}),
	requireScope("webhooks:write", liveKeyOnly),
	validate("query", noQuery),
	validate("json", emptyBody),
	idempotent,
	async (c) => {
		const now = c.get("now");
		const result = await rotateWebhookSecret(c.env.DB, c.get("auth").accountId, now);
		switch (result.status) {
			case "ok":
				return ok(c, {
					webhook_secret: result.secret,
					rotated_at: iso(now),
					previous_secret_expires_at: iso(result.previousExpiresAt),
				});
			case "conflict":
				throw new AppError("INVALID_OPERATION", "Another rotation happened at the same moment; try again.");
			case "not_found":
				throw new AppError("INTERNAL_ERROR", "The account of this key was not found.", {
					request_id: c.get("requestId"),
				});
		}
	},
);

webhookRoutes.get(
	"/",
	apiOperation({
		summary: "List webhook endpoints",
		tags: ["Webhooks"],
		scopes: ["webhooks:read"],
		query: listWebhooksQuery,
		success: {
			status: 200,
			description: "A page of endpoints",
			data: z.array(endpointSchema),
			list: "withTotal",
		},
		errors: [],
	}),
	requireScope("webhooks:read"),
	validate("query", listWebhooksQuery),
	async (c) => {
		const q = c.req.valid("query");
		const { rows, total } = await listEndpoints(
			getDb(c.env.DB),
			ownerOf(c.get("auth")),
			q.limit,
			cursorFrom("webhooks", q.cursor),
		);
		const p = page("webhooks", rows, q.limit);
		return okList(c, p.items.map(endpointView), {
			next_cursor: p.nextCursor,
			has_more: p.hasMore,
			total_count: total,
		});
	},
);

webhookRoutes.post(
	"/",
	apiOperation({
		summary: "Register a webhook endpoint",
		tags: ["Webhooks"],
		scopes: ["webhooks:write"],
		query: noQuery,
		body: createWebhookBody,
		success: { status: 201, description: "Created", data: endpointSchema },
		errors: ["INVALID_OPERATION"],
		idempotent: true,
	}),
	requireScope("webhooks:write"),
	validate("query", noQuery),
	validateJson(createWebhookBody, (body, c) => ({ ...body, url: acceptedUrl(c.env, body.url) })),
	idempotent,
	async (c) => {
		const row = await createEndpoint(c.env, c.get("auth"), c.req.valid("json"), c.get("now"));
		return ok(c, endpointView(row), 201);
	},
);

webhookRoutes.get(
	"/:id",
	apiOperation({
		summary: "Fetch a webhook endpoint",
		tags: ["Webhooks"],
		scopes: ["webhooks:read"],
		query: noQuery,
		success: { status: 200, description: "The endpoint", data: endpointSchema },
		errors: ["WEBHOOK_NOT_FOUND"],
	}),
	requireScope("webhooks:read"),
	validate("query", noQuery),
	async (c) => ok(c, endpointView(await loadOwnedEndpoint(c.env, c.get("auth"), c.req.param("id")))),
);

webhookRoutes.patch(
	"/:id",
	apiOperation({
		summary: "Change a webhook endpoint",
		tags: ["Webhooks"],
		scopes: ["webhooks:write"],
		query: noQuery,
		body: updateWebhookBody,
		success: { status: 200, description: "The endpoint", data: endpointSchema },
		errors: ["WEBHOOK_NOT_FOUND", "INVALID_OPERATION"],
		idempotent: true,
	}),
	requireScope("webhooks:write"),
	validate("query", noQuery),
	validateJson(updateWebhookBody, (body, c) =>
		body.url === undefined ? body : { ...body, url: acceptedUrl(c.env, body.url) },
	),
	idempotent,
	async (c) => {
		const endpoint = await loadOwnedEndpoint(c.env, c.get("auth"), c.req.param("id"));
		assertMayChange(c.get("auth"), endpoint);
		const updated = await changeEndpoint(c.env, endpoint, c.req.valid("json"), c.get("now"));
		return ok(c, endpointView(updated));
	},
);

webhookRoutes.delete(
	"/:id",
	apiOperation({
		summary: "Delete a webhook endpoint and its delivery log",
		tags: ["Webhooks"],
		scopes: ["webhooks:write"],
		query: noQuery,
		success: { status: 200, description: "Deleted", data: deletedSchema },
		errors: ["WEBHOOK_NOT_FOUND", "INVALID_OPERATION"],
		idempotent: true,
	}),
	requireScope("webhooks:write"),
	validate("query", noQuery),
	idempotent,
	async (c) => {
		const endpoint = await loadOwnedEndpoint(c.env, c.get("auth"), c.req.param("id"));
		assertMayChange(c.get("auth"), endpoint);
		// Read before the deletion: a parallel DELETE may remove it in between, and then this
		// call answers the 404 a later DELETE would.
		if (!(await removeEndpoint(c.env, endpoint))) throw webhookNotFound(endpoint.id);
		return ok(c, { id: endpoint.id, deleted: true });
	},
);

webhookRoutes.post(
	"/:id/test",
	apiOperation({
		summary: "Send a signed webhook.test event now",
		bodyOptional: true,
		tags: ["Webhooks"],
		scopes: ["webhooks:write"],
		query: noQuery,
		body: emptyBody,
		success: { status: 200, description: "The test delivery and its attempt", data: deliverySchema },
		errors: ["WEBHOOK_NOT_FOUND", "INVALID_OPERATION"],
		idempotent: true,
	}),
	requireScope("webhooks:write"),
	validate("query", noQuery),
	validate("json", emptyBody),
	idempotent,
	async (c) => {
		const endpoint = await loadOwnedEndpoint(c.env, c.get("auth"), c.req.param("id"));
		assertMayChange(c.get("auth"), endpoint);
		const { row, attempts } = await sendTestEvent(c.env, endpoint, c.get("now"));
		return ok(c, deliveryView(row, attempts));
	},
);

webhookRoutes.get(
	"/:id/deliveries",
	apiOperation({
		summary: "List an endpoint's deliveries",
		tags: ["Webhooks"],
		scopes: ["webhooks:read"],
		query: listDeliveriesQuery,
		success: {
			status: 200,
			description: "A page of deliveries with their attempts",
			data: z.array(deliverySchema),
			list: "withTotal",
		},
		errors: ["WEBHOOK_NOT_FOUND"],
	}),
	requireScope("webhooks:read"),
	validate("query", listDeliveriesQuery),
	async (c) => {
		const q = c.req.valid("query");
		const cursor = cursorFrom("deliveries", q.cursor);
		const endpoint = await loadOwnedEndpoint(c.env, c.get("auth"), c.req.param("id"));
		const { rows, attempts, total } = await listDeliveries(
			getDb(c.env.DB),
			endpoint.id,
			q.outcome,
			q.limit,
			cursor,
		);
		const p = page("deliveries", rows, q.limit);
		return okList(
			c,
			p.items.map((row) => deliveryView(row, attempts)),
			{ next_cursor: p.nextCursor, has_more: p.hasMore, total_count: total },
		);
	},
);

webhookRoutes.get(
	"/:id/deliveries/:deliveryId",
	apiOperation({
		summary: "Fetch a delivery with its attempts",
		tags: ["Webhooks"],
		scopes: ["webhooks:read"],
		query: noQuery,
		success: { status: 200, description: "The delivery", data: deliverySchema },
		errors: ["WEBHOOK_NOT_FOUND", "DELIVERY_NOT_FOUND"],
	}),
	requireScope("webhooks:read"),
	validate("query", noQuery),
	async (c) => {
		const endpoint = await loadOwnedEndpoint(c.env, c.get("auth"), c.req.param("id"));
		const { row, attempts } = await reload(c.env, endpoint, c.req.param("deliveryId"));
		return ok(c, deliveryView(row, attempts));
	},
);

webhookRoutes.post(
	"/:id/deliveries/:deliveryId/redeliver",
	apiOperation({
		summary: "Deliver an event again as a new delivery",
		bodyOptional: true,
		tags: ["Webhooks"],
		scopes: ["webhooks:write"],
		query: noQuery,
		body: emptyBody,
		success: { status: 200, description: "The new delivery", data: deliverySchema },
		errors: ["WEBHOOK_NOT_FOUND", "DELIVERY_NOT_FOUND", "INVALID_OPERATION"],
		idempotent: true,
	}),
	requireScope("webhooks:write"),
	validate("query", noQuery),
	validate("json", emptyBody),
	idempotent,
	async (c) => {
		const endpoint = await loadOwnedEndpoint(c.env, c.get("auth"), c.req.param("id"));
		assertMayChange(c.get("auth"), endpoint);
		const original = await loadDelivery(c.env, endpoint, c.req.param("deliveryId"));
		const { row, attempts } = await redeliver(c.env, endpoint, original, c.get("now"));
		return ok(c, deliveryView(row, attempts));
	},
);
