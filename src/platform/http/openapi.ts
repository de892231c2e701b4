// The OpenAPI description of each route, written beside the route with hono-openapi's
// `describeRoute` and built from the same zod schemas that validate its query and body (the
// document is assembled from the app's routes by src/openapi.ts). Responses are described by
// zod schemas of the views; every error code comes from ERROR_STATUS with its status.
import type { MiddlewareHandler } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "./errors";

type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect): `input` for what callers send. */
export function jsonSchema(schema: z.ZodType, io: "input" | "output" = "output"): JsonSchema {
	const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
	return rest;
}

/** A strict query object as OpenAPI query parameters, one per key. */
export function queryParameters(schema: z.ZodType): JsonSchema[] {
	const json = jsonSchema(schema, "input") as {
		properties?: Record<string, JsonSchema>;
		required?: string[];
	};
	return Object.entries(json.properties ?? {}).map(([name, property]) => ({
		name,
		in: "query",
		required: json.required?.includes(name) ?? false,
		...(typeof property.description === "string" ? { description: property.description } : {}),
		schema: property,
	}));
}

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Headers on every answer of an authenticated route, errors included (docs/limits.md). */
const AUTHENTICATED_HEADERS = {
	"X-Request-Id": ref("headers", "X-Request-Id"),
	"X-RateLimit-Limit": ref("headers", "X-RateLimit-Limit"),
	"X-RateLimit-Remaining": ref("headers", "X-RateLimit-Remaining"),
	"X-RateLimit-Reset": ref("headers", "X-RateLimit-Reset"),
	"X-RateLimit-Resource": ref("headers", "X-RateLimit-Resource"),
	RateLimit: ref("headers", "RateLimit"),
	"RateLimit-Policy": ref("headers", "RateLimit-Policy"),
};

/** Every admin route can answer these (the admin token, then validation). */
const ADMIN_ERRORS: ErrorCode[] = [
	"AUTHENTICATION_REQUIRED",
	"INVALID_API_KEY",
	"VALIDATION_ERROR",
	"INTERNAL_ERROR",
];

/** Every authenticated route can answer these, whatever it does. */
const AUTHENTICATED_ERRORS: ErrorCode[] = [
	"AUTHENTICATION_REQUIRED",
	"INVALID_API_KEY",
	"API_KEY_EXPIRED",
	"VALIDATION_ERROR",
	"RATE_LIMIT_EXCEEDED",
	"INTERNAL_ERROR",
	"SERVICE_UNAVAILABLE",
];

export interface OperationSpec {
	summary: string;
	description?: string;
	tags: string[];
	/** The scopes a key needs; empty: any valid key. `null`: no API key (see `admin`). */
	scopes: string[] | null;
	/** An admin API route: the admin token (`adminToken`), no API key, no rate limit. */
	admin?: boolean;
	query?: z.ZodType;
	/** The request body's schema (input form), or a JSON Schema when no single zod schema has it. */
	body?: z.ZodType | JsonSchema;
	/** Whether an empty body is accepted (it then reads as `{}`). */
	bodyOptional?: boolean;
	success: {
		status: 200 | 201;
		description: string;
		data: z.ZodType | JsonSchema;
		/** `list`: `pagination` beside `data`; `withTotal` adds `pagination.total_count`. */
		list?: "withTotal" | "withoutTotal";
		/** The single-interview fetch answers without `meta` (decisions.md). */
		withoutMeta?: boolean;
	};
	/** Error codes of this operation beyond those every authenticated route has. */
	errors: ErrorCode[];
	/** Honours `Idempotency-Key` (POST, PATCH, DELETE). */
	idempotent?: boolean;
}

function schemaOf(value: z.ZodType | JsonSchema, io: "input" | "output"): JsonSchema {
	return value instanceof z.ZodType ? jsonSchema(value, io) : value;
}

function successSchema(spec: OperationSpec["success"]): JsonSchema {
	const properties: Record<string, unknown> = {
		success: { type: "boolean", const: true },
		data: schemaOf(spec.data, "output"),
	};
	const required = ["success", "data"];
	if (spec.list) {
		properties.pagination = ref("schemas", spec.list === "withTotal" ? "PaginationWithTotal" : "Pagination");
		required.push("pagination");
	}
	if (!spec.withoutMeta) {
		properties.meta = ref("schemas", "Meta");
		required.push("meta");
	}
	return { type: "object", properties, required, additionalProperties: false };
}

/**
 * The components schema of one code's `error` object, with its `details` (src/openapi.ts): an
 * API code's, or a module's own (a bulk item's INVALID_EMAIL).
 */
export function errorObjectName(code: string): string {
	return `Error_${code}`;
}

/**
 * A components schema by reference, as a zod schema of type `T` that a view's schema can hold:
 * its JSON Schema is the `$ref` alone. It is for the document only and must never parse: it
 * matches any value, so an exclusive union (`z.xor`) of several would refuse every value.
 */
export function schemaRef<T>(name: string): z.ZodType<T> {
	return z.custom<T>().meta(ref("schemas", name));
}

/** The `error` of an envelope with one of `codes`: that code's object, or a union on `code`. */
export function errorObjects(codes: readonly ErrorCode[]): JsonSchema {
	const objects = codes.map((code) => ref("schemas", errorObjectName(code)));
	return objects.length === 1 ? (objects[0] as JsonSchema) : { oneOf: objects };
}

/**
 * The error envelope (components.schemas.Error, whose `error` is any code's object) with `error`
 * one of `codes`' objects. Each object's `code` is a single-value enum and carries that code's
 * `details`, so a typed client narrows on `error.code` to its details.
 */
export function errorSchema(codes: readonly ErrorCode[]): JsonSchema {
	return { allOf: [ref("schemas", "Error")], properties: { error: errorObjects(codes) } };
}

const STATUS_TEXT: Record<number, string> = {
	400: "The request is not valid (VALIDATION_ERROR, `error.details` names each field)",
	401: "No key, an unknown or revoked key, or an expired one",
	402: "Not enough credits",
	403: "The key lacks a scope, or the interview is not open",
	404: "Not found (or another account's)",
	405: "Method not allowed",
	409: "Conflicts with the resource's state",
	413: "The body is larger than 1 MiB",
	422: "The Idempotency-Key was used with a different request",
	426: "Upgrade required",
	429: "Rate limit or monthly quota exceeded",
	500: "Our failure; `meta.request_id` identifies it",
	503: "A dependency is unavailable; retry",
};

/** The operation object of one route, as hono-openapi merges it into the document. */
export function operationObject(spec: OperationSpec): Record<string, unknown> {
	const admin = spec.admin === true;
	const authenticated = !admin && spec.scopes !== null;
	const codes = new Set<ErrorCode>([
		...(admin ? ADMIN_ERRORS : authenticated ? AUTHENTICATED_ERRORS : ["INTERNAL_ERROR" as const]),
		...(spec.scopes && spec.scopes.length > 0 ? (["INSUFFICIENT_PERMISSIONS"] as const) : []),
		...(spec.body ? (["PAYLOAD_TOO_LARGE"] as const) : []),
		...(spec.idempotent ? (["IDEMPOTENCY_KEY_IN_USE", "IDEMPOTENCY_KEY_REUSED"] as const) : []),
		...spec.errors,
	]);
	const byStatus = new Map<number, ErrorCode[]>();
	for (const code of codes) {
		const status = ERROR_STATUS[code];
		byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
	}
	const headers = authenticated ? AUTHENTICATED_HEADERS : { "X-Request-Id": ref("headers", "X-Request-Id") };
	const responses: Record<string, unknown> = {
		[String(spec.success.status)]: {
			description: spec.success.description,
			headers: spec.idempotent
				? {
						...headers,
						"Idempotent-Replayed": ref("headers", "Idempotent-Replayed"),
						"Original-Request-Id": ref("headers", "Original-Request-Id"),
					}
				: headers,
			content: { "application/json": { schema: successSchema(spec.success) } },
		},
	};
	for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
		// Every answer carries X-Request-Id, an authenticated one the rate-limit headers too: they
		// are listed on the successes and on 429, where they matter, to keep the document small.
		const errorHeaders =
			status === 429
				? { ...headers, "Retry-After": ref("headers", "Retry-After") }
				: status === 503
					? { "X-Request-Id": ref("headers", "X-Request-Id"), "Retry-After": ref("headers", "Retry-After") }
					: { "X-Request-Id": ref("headers", "X-Request-Id") };
		responses[String(status)] = {
			description: `${(admin && status === 401 ? "No admin token, or a wrong one" : STATUS_TEXT[status]) ?? "Error"}: ${statusCodes.join(", ")}`,
			headers: errorHeaders,
			content: { "application/json": { schema: errorSchema(statusCodes) } },
		};
	}
	const parameters = [
		...(spec.query ? queryParameters(spec.query) : []),
		...(spec.idempotent ? [ref("parameters", "Idempotency-Key")] : []),
	];
	return {
		summary: spec.summary,
		...(spec.description ? { description: spec.description } : {}),
		tags: spec.tags,
		security: admin ? [{ adminToken: [] }] : authenticated ? [{ bearerAuth: spec.scopes }] : [],
		...(authenticated ? { "x-scopes": spec.scopes } : {}),
		...(parameters.length > 0 ? { parameters } : {}),
		...(spec.body
			? {
					requestBody: {
						required: !spec.bodyOptional,
						content: { "application/json": { schema: schemaOf(spec.body, "input") } },
					},
				}
			: {}),
		responses,
	};
}

/**
 * `describeRoute` for one API route: a pass-through middleware carrying the operation. Its id is
 * made from the mounted method and path, so `/v1` and `/api/v1` get one each.
 */
export function apiOperation(spec: OperationSpec): MiddlewareHandler {
	const operation = operationObject(spec);
	return describeRoute({
		...(operation as Parameters<typeof describeRoute>[0]),
		operationId: (route) => operationId(route.method, route.path),
	});
}

export function operationId(method: string, path: string): string {
	const words = `${method.toLowerCase()} ${path.replace(/^\/api\/v1/, "apiV1").replace(/^\/v1/, "v1")}`
		.replace(/:(\w+)/g, "by $1")
		.split(/[^A-Za-z0-9]+/)
		.filter(Boolean);
	return words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join("");
}

/** Shared schemas of the views: ISO times, nullable ones, ids. */
export const isoTime = z.string().meta({ format: "date-time", description: "ISO 8601, UTC" });
export const isoTimeOrNull = isoTime.nullable();
