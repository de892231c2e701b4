// The webhook API's answers as zod schemas for the OpenAPI document; each mirrors views.ts.
import { z } from "zod";
import { isoTime, isoTimeOrNull } from "../platform/http/openapi";
import { DELIVERY_OUTCOMES } from "./schemas";

export const endpointSchema = z.object({
	id: z.string().meta({ description: "`wh_` id" }),
	url: z.string(),
	events: z.array(z.string()).meta({ description: 'Event names, or ["*"]' }),
	active: z.boolean(),
	environment: z.enum(["production", "dev"]),
	test_mode: z.boolean().meta({
		description:
			"Registered with a test key: receives only test-mode events, and test keys may change it. A live key's endpoint receives every event of its environment.",
	}),
	disabled_reason: z.enum(["failing"]).nullable(),
	disabled_at: isoTimeOrNull,
	failure_counts: z.object({
		consecutive: z.int(),
		failing_since: isoTimeOrNull,
		total_failed_attempts: z.int(),
		total_succeeded_attempts: z.int(),
	}),
	last_delivery: z
		.object({
			attempted_at: isoTime,
			outcome: z.enum(["succeeded", "failed"]),
			status_code: z.int().nullable(),
		})
		.nullable(),
	created_at: isoTime,
	updated_at: isoTime,
});

const attemptSchema = z.object({
	attempt: z.int(),
	attempted_at: isoTime,
	duration_ms: z.int(),
	outcome: z.enum(["succeeded", "failed"]),
	status_code: z.int().nullable(),
	error_type: z.string().nullable(),
	error: z.string().nullable(),
	response_body: z.string().nullable(),
	url: z.string(),
	next_attempt_at: isoTimeOrNull,
});

export const deliverySchema = z.object({
	id: z.string().meta({ description: "`dlv_` id; also the `webhook-id` and `X-Service-Delivery` headers" }),
	webhook_id: z.string(),
	event: z.string(),
	event_id: z.string(),
	kind: z.enum(["event", "test", "redelivery"]),
	redelivery_of: z.string().nullable(),
	outcome: z.enum(DELIVERY_OUTCOMES),
	attempt_count: z.int(),
	last_status_code: z.int().nullable(),
	last_error: z.string().nullable(),
	next_attempt_at: isoTimeOrNull,
	completed_at: isoTimeOrNull,
	created_at: isoTime,
	updated_at: isoTime,
	attempts: z.array(attemptSchema),
});

export const rotatedSecretSchema = z.object({
	webhook_secret: z.string().meta({ description: "`whsec_` + 40 base62 characters" }),
	rotated_at: isoTime,
	previous_secret_expires_at: isoTime,
});

export const deletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });
