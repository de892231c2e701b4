// The OpenAPI 3.1 document, assembled by hono-openapi from the operations each route declares
// (`apiOperation`, src/platform/http/openapi.ts), plus what no single route owns: the security
// schemes, the shared headers and schemas, and every webhook event's payload. The admin API
// (/admin, its own security scheme) is part of it; the candidate's pages and the dashboard are not.
import type { Hono } from "hono";
import { generateSpecs } from "hono-openapi";
import { webhookEventSchemas } from "./events/openapi";
import { interviewErrorObjects } from "./interviews/api/openapi";
import type { AppBindings } from "./platform/http/context";
import { ERROR_STATUS, type ErrorCode } from "./platform/http/errors";
import { errorObjectName, errorObjects, jsonSchema } from "./platform/http/openapi";

const header = (description: string, schema: Record<string, unknown> = { type: "string" }) => ({
	description,
	schema,
});

const integerHeader = (description: string) => header(description, { type: "string", pattern: "^\\d+$" });

type JsonSchema = Record<string, unknown>;

const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

const text = { type: "string" };
const integer = { type: "integer" };
const texts = { type: "array", items: text };
const dateTime = { type: "string", format: "date-time" };
const dateTimeOrNull = { type: ["string", "null"], format: "date-time" };

/**
 * An error's `details` with the keys its code's throw sites put there (`required`: those every
 * site that gives details sets). Other keys may come with a case (`additionalProperties: true`).
 */
const details = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
	type: "object",
	...(Object.keys(properties).length > 0 ? { properties } : {}),
	...(required.length > 0 ? { required } : {}),
	additionalProperties: true,
});

const byId = (what: string) =>
	details({ id: { type: "string", description: `The ${what}'s id as asked` } }, ["id"]);

/**
 * Each code's `details` as the code gives it (every `new AppError(code, …)`, `validationError`,
 * `OutcomeUnknownError`, the limits and the app's handlers), and whether every answer has it.
 * docs/api.md's error table says the same in words.
 */
const ERROR_DETAILS: Record<ErrorCode, { schema: JsonSchema; always: boolean }> = {
	AUTHENTICATION_REQUIRED: {
		schema: details({
			header_missing: { ...text, description: "`Authorization`: no bearer token was sent" },
			param_missing: { ...text, description: "`token`: the room's query parameter is missing" },
		}),
		always: true,
	},
	INVALID_API_KEY: {
		schema: details({ key_prefix: { ...text, description: "The first 12 characters sent" } }, ["key_prefix"]),
		always: true,
	},
	API_KEY_EXPIRED: {
		schema: details({ expired_at: dateTime, renewal_url: text }, ["expired_at", "renewal_url"]),
		always: true,
	},
	INSUFFICIENT_PERMISSIONS: {
		schema: details(
			{
				required_permission: text,
				current_permissions: texts,
				key_environment: {
					...text,
					description:
						"The key's environment (`dev` or `test`) when a key of it may not do this whatever its scopes",
				},
				required_key_environment: {
					...text,
					description: "With `key_environment`: the environment of the keys that may (`live`)",
				},
			},
			["required_permission", "current_permissions"],
		),
		always: true,
	},
	VALIDATION_ERROR: {
		// The request's own field names (dotted paths, `body`, a header's name): open by nature.
		schema: {
			type: "object",
			description: "Each failing field (a dotted path, `body`, or a header's name) → what is wrong with it",
			additionalProperties: { type: "string" },
		},
		always: true,
	},
	NOT_FOUND: { schema: details({ id: text }, ["id"]), always: false },
	INTERVIEW_NOT_FOUND: { schema: byId("interview"), always: false },
	ACCOUNT_NOT_FOUND: { schema: byId("account"), always: true },
	API_KEY_NOT_FOUND: { schema: byId("key"), always: true },
	EVENT_NOT_FOUND: { schema: byId("event"), always: true },
	WEBHOOK_NOT_FOUND: { schema: byId("webhook endpoint"), always: true },
	DELIVERY_NOT_FOUND: { schema: byId("delivery"), always: true },
	METHOD_NOT_ALLOWED: {
		schema: details({ allowed_methods: { ...texts, description: "As the Allow header" } }, [
			"allowed_methods",
		]),
		always: true,
	},
	INVALID_OPERATION: {
		// Which keys depends on what was refused: an interview's state, a webhook endpoint, a chunk.
		schema: details({
			current_status: { ...text, description: "The interview's status" },
			joined_at: dateTimeOrNull,
			started_at: dateTimeOrNull,
			completed_at: dateTimeOrNull,
			cancelled_at: dateTimeOrNull,
			allowed_updates: texts,
			test_mode: { type: "boolean" },
			webhook_id: text,
			active: { type: "boolean" },
			event_id: text,
			limit: integer,
			chunk: integer,
			segment: text,
		}),
		always: false,
	},
	INTERVIEW_IN_PROGRESS: {
		schema: details(
			{
				current_status: { type: "string", enum: ["in_progress"] },
				started_at: dateTimeOrNull,
				allowed_updates: texts,
				rejected_fields: texts,
			},
			["current_status", "started_at", "allowed_updates", "rejected_fields"],
		),
		always: true,
	},
	INTERVIEW_ALREADY_CANCELLED: {
		schema: details({ cancelled_at: dateTimeOrNull, cancellation_reason: { type: ["string", "null"] } }, [
			"cancelled_at",
			"cancellation_reason",
		]),
		always: true,
	},
	IDEMPOTENCY_KEY_IN_USE: { schema: details({ idempotency_key: text }, ["idempotency_key"]), always: true },
	INTERVIEW_NOT_OPEN: {
		schema: details({ opens_at: { ...dateTime, description: "15 minutes before the start" } }, ["opens_at"]),
		always: true,
	},
	INVALID_TOKEN: { schema: details({}), always: false },
	UPGRADE_REQUIRED: { schema: details({}), always: false },
	IDEMPOTENCY_KEY_REUSED: { schema: details({ idempotency_key: text }, ["idempotency_key"]), always: true },
	INSUFFICIENT_CREDITS: {
		schema: details({ required: integer, available: integer }, ["required", "available"]),
		always: true,
	},
	PAYLOAD_TOO_LARGE: {
		schema: details({ max_bytes: integer, max_chunks: integer }, ["max_bytes"]),
		always: false,
	},
	RATE_LIMIT_EXCEEDED: {
		schema: details(
			{
				retry_after: { ...integer, description: "Seconds, as Retry-After" },
				limit: { ...integer, description: "Requests per minute (not on the room's per-address limit)" },
			},
			["retry_after"],
		),
		always: true,
	},
	QUOTA_EXCEEDED: {
		schema: details(
			{
				resource: { type: "string", enum: ["monthly_interviews"] },
				limit: integer,
				used: integer,
				resets_at: dateTime,
			},
			["resource", "limit", "used", "resets_at"],
		),
		always: true,
	},
	INTERNAL_ERROR: {
		schema: details({
			request_id: text,
			outcome: {
				type: "string",
				enum: ["unknown"],
				description: "The change may have been made (a creation): do not repeat it blindly",
			},
			interview_ids: { ...texts, description: "With `outcome`: the interviews that may exist" },
		}),
		always: false,
	},
	SERVICE_UNAVAILABLE: { schema: details({}), always: false },
};

/** One code's `error` object: its code, its message and its details. */
function errorObject(code: ErrorCode): JsonSchema {
	const { schema, always } = ERROR_DETAILS[code];
	return {
		type: "object",
		properties: {
			code: { type: "string", enum: [code] },
			message: { type: "string" },
			details: schema,
		},
		required: always ? ["code", "message", "details"] : ["code", "message"],
		additionalProperties: false,
	};
}

function components() {
	return {
		securitySchemes: {
			bearerAuth: {
				type: "http",
				scheme: "bearer",
				description:
					"An API key (`svc_live_…`, `svc_test_…` or `svc_dev_…`) as `Authorization: Bearer <key>`. Each operation lists the scopes it needs in `security` and `x-scopes`; an empty list means any valid key.",
			},
			adminToken: {
				type: "http",
				scheme: "bearer",
				description:
					"The admin API's token: the Worker secret `ADMIN_TOKEN` as `Authorization: Bearer <ADMIN_TOKEN>` (compared in constant time). It is not an API key: no scopes, no rate limit, and API keys are refused here (INVALID_API_KEY). `npm start` writes a local one to `.dev.vars`; `npm run admin` uses it.",
			},
		},
		schemas: {
			Error: {
				type: "object",
				description: "Every error's envelope; each response narrows `error` to its own codes",
				properties: {
					success: { type: "boolean", const: false },
					error: errorObjects(ERROR_CODES),
					meta: { $ref: "#/components/schemas/Meta" },
				},
				required: ["success", "error", "meta"],
				additionalProperties: false,
			},
			...Object.fromEntries(ERROR_CODES.map((code) => [errorObjectName(code), errorObject(code)])),
			// Error objects of codes that are not the API's, used by reference from a view (a bulk item's).
			...Object.fromEntries(
				Object.entries(interviewErrorObjects).map(([name, schema]) => [name, jsonSchema(schema)]),
			),
			Meta: {
				type: "object",
				properties: {
					timestamp: { type: "string", format: "date-time" },
					request_id: { type: "string", description: "Equal to the X-Request-Id header" },
				},
				required: ["timestamp", "request_id"],
				additionalProperties: false,
			},
			Pagination: {
				type: "object",
				properties: { next_cursor: { type: ["string", "null"] }, has_more: { type: "boolean" } },
				required: ["next_cursor", "has_more"],
				additionalProperties: false,
			},
			PaginationWithTotal: {
				type: "object",
				properties: {
					next_cursor: { type: ["string", "null"] },
					has_more: { type: "boolean" },
					total_count: { type: "integer" },
				},
				required: ["next_cursor", "has_more", "total_count"],
				additionalProperties: false,
			},
		},
		parameters: {
			"Idempotency-Key": {
				name: "Idempotency-Key",
				in: "header",
				required: false,
				description:
					"Makes a retry safe: the same key with the same request within 24 hours answers the first answer again (Idempotent-Replayed: true); with a different request, 422 IDEMPOTENCY_KEY_REUSED.",
				schema: { type: "string", minLength: 1, maxLength: 255 },
			},
		},
		headers: {
			"X-Request-Id": header("This request's id, equal to meta.request_id"),
			"X-RateLimit-Limit": integerHeader(
				"Requests allowed per minute (or the monthly limit on QUOTA_EXCEEDED)",
			),
			"X-RateLimit-Remaining": integerHeader("Requests left in the window after this one"),
			"X-RateLimit-Reset": integerHeader("Unix seconds when the oldest counted request leaves the window"),
			"X-RateLimit-Resource": header("`requests`, or `monthly_interviews` on QUOTA_EXCEEDED", {
				type: "string",
				enum: ["requests", "monthly_interviews"],
			}),
			RateLimit: header('IETF draft form of what remains: `"default";r=<remaining>;t=<seconds to reset>`'),
			"RateLimit-Policy": header('IETF draft form of the policy: `"default";q=<limit>;w=60`'),
			"Retry-After": integerHeader("Seconds to wait before retrying"),
			"Idempotent-Replayed": header("`true` when this is a stored answer replayed for an Idempotency-Key", {
				type: "string",
				enum: ["true"],
			}),
			"Original-Request-Id": header("On a replay: the request id of the request that made the answer"),
		},
	};
}

/** Every event as the `webhooks` section describes it: the POST the service sends. */
function webhooks() {
	const deliveryHeader = (name: string, description: string) => ({
		name,
		in: "header",
		required: true,
		description,
		schema: { type: "string" },
	});
	const parameters = [
		deliveryHeader("X-Service-Event", "The event name"),
		deliveryHeader("X-Service-Event-Id", "`evt_` id, the same for every delivery of the event"),
		deliveryHeader("X-Service-Delivery", "`dlv_` id, the same for every retry of the delivery"),
		deliveryHeader("X-Service-Timestamp", "Unix seconds of this attempt (not signed)"),
		deliveryHeader(
			"X-Service-Signature",
			"`sha256=<hex>` HMAC-SHA256 of the raw body with the account's secret",
		),
		{
			...deliveryHeader(
				"X-Service-Signature-Previous",
				"The same with the previous secret, for 24 hours after a rotation",
			),
			required: false,
		},
		deliveryHeader("webhook-id", "Standard Webhooks: the delivery id"),
		deliveryHeader("webhook-timestamp", "Standard Webhooks: Unix seconds of this attempt (signed)"),
		deliveryHeader(
			"webhook-signature",
			'Standard Webhooks: `v1,<base64>`; verify with `new Webhook(secret, { format: "raw" })` (docs/webhooks.md)',
		),
	];
	return Object.fromEntries(
		webhookEventSchemas().map(({ type, when, envelope }) => [
			type,
			{
				post: {
					operationId: `webhook_${type.replace(/\./g, "_")}`,
					summary: type,
					description: when,
					tags: ["Webhook events"],
					// Signed by the service with the account's secret, not authenticated by a key.
					security: [],
					parameters,
					requestBody: {
						required: true,
						content: { "application/json": { schema: jsonSchema(envelope) } },
					},
					responses: {
						"200": { description: "Any 2xx within 10 seconds counts as delivered; anything else is retried" },
					},
				},
			},
		]),
	);
}

type Document = Record<string, unknown> & { paths: Record<string, Record<string, unknown>> };

let cached: Promise<Document> | undefined;

/** The document of `app` (built once per isolate). */
export function openApiDocument(app: Hono<AppBindings>): Promise<Document> {
	cached ??= generateSpecs(app, {
		documentation: {
			openapi: "3.1.0",
			info: {
				title: "Interview Assessment Service API",
				version: "1.0.0",
				description:
					"Schedule AI-conducted interviews, read scored results, receive signed webhooks. The same operations answer under /v1 and /api/v1 (the setup guide's prefix). Errors use one envelope: `{success: false, error: {code, message, details?}, meta}`; each response lists its codes.",
				license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
			},
			servers: [{ url: "/", description: "This service" }],
			tags: [
				{ name: "Interviews", description: "Create, list, fetch, update and cancel interviews" },
				{ name: "Test mode", description: "Helpers for test and dev keys (docs/test-mode.md)" },
				{ name: "Events", description: "The event log" },
				{ name: "Webhooks", description: "Webhook endpoints and their deliveries" },
				{ name: "Account", description: "The key's account and scopes" },
				{ name: "Service", description: "Health" },
				{
					name: "Admin",
					description:
						"The internal admin API: accounts, API keys and dashboard users, behind the admin token (not an API key)",
				},
				{ name: "Webhook events", description: "What the service POSTs to your endpoints" },
			],
			components: components() as never,
			webhooks: webhooks() as never,
		},
		defaultValidationErrorResponse: false,
	}) as unknown as Promise<Document>;
	return cached;
}
