// The event log's answers and every event's payload (docs/events.md) as schemas for the OpenAPI
// document: `eventSchema` for GET /v1/events, `webhookEventSchemas` for its `webhooks` section.
import { z } from "zod";
import { isoTime } from "../platform/http/openapi";
import { EVENT_TYPES, type EventType } from "./catalog";

export const eventSchema = z.object({
	id: z.string().meta({ description: "`evt_` id; also `X-Service-Event-Id` of its deliveries" }),
	type: z.enum(EVENT_TYPES),
	interview_id: z.string().nullable(),
	data: z.looseObject({}),
	test_mode: z.boolean(),
	created_at: isoTime,
});

const candidate = z.looseObject({ email: z.string(), joined_at: isoTime.nullable() });
const results = z.looseObject({ overall_score: z.number(), recommendation: z.string().nullable() });

/** Each event's `data`: the fields docs/events.md lists (more may be added, never removed). */
const PAYLOADS: Record<EventType, { when: string; data: z.ZodType }> = {
	"interview.scheduled": {
		when: "An interview was created (one per interview, bulk included).",
		data: z.looseObject({
			id: z.string(),
			candidate_email: z.string(),
			position: z.string(),
			scheduled_at: isoTime,
		}),
	},
	"interview.updated": {
		when: "A PATCH changed at least one value.",
		data: z.looseObject({
			id: z.string(),
			updated_fields: z.array(z.string()),
			changes: z.record(z.string(), z.looseObject({ previous: z.unknown(), current: z.unknown() })),
			updated_at: isoTime,
		}),
	},
	"interview.rescheduled": {
		when: "scheduled_at changed.",
		data: z.looseObject({
			id: z.string(),
			previous_scheduled_at: isoTime,
			scheduled_at: isoTime,
			reason: z.string().nullable(),
		}),
	},
	"interview.cancelled": {
		when: "An interview was cancelled.",
		data: z.looseObject({
			id: z.string(),
			cancelled_at: isoTime,
			reason: z.string().nullable(),
			previous_status: z.string(),
		}),
	},
	"credits.refunded": {
		when: "A scheduled live interview was cancelled with refund_credits.",
		data: z.looseObject({
			interview_id: z.string(),
			credits_refunded: z.int(),
			refund_reason: z.string(),
			refunded_at: isoTime,
		}),
	},
	"candidate.joined": {
		when: "The candidate's first connection.",
		data: z.looseObject({ interview_id: z.string(), candidate, scheduled_at: isoTime }),
	},
	"interview.started": {
		when: "The interview began.",
		data: z.looseObject({ id: z.string(), candidate, started_at: isoTime }),
	},
	"interview.completed": {
		when: "The interview finished.",
		data: z.looseObject({
			id: z.string(),
			completed_at: isoTime,
			duration_minutes: z.int().nullable(),
			completion_reason: z.string(),
		}),
	},
	"results.analyzed": {
		when: "A few seconds after completion.",
		data: z.looseObject({ interview_id: z.string(), results }),
	},
	"analysis.ready": {
		when: "With results.analyzed, the same data.",
		data: z.looseObject({ interview_id: z.string(), results }),
	},
	"candidate.no_show": {
		when: "15 minutes after scheduled_at, nobody joined.",
		data: z.looseObject({ interview_id: z.string(), scheduled_at: isoTime, timeout_at: isoTime }),
	},
	"candidate.notified": {
		when: "The e-mail binding accepted a notice (docs/email.md).",
		data: z.looseObject({}),
	},
	"webhook.endpoint.disabled": {
		when: "An endpoint failing for 72 hours was disabled.",
		data: z.looseObject({
			webhook_id: z.string(),
			url: z.string(),
			reason: z.literal("failing"),
			disabled_at: isoTime,
			failing_since: isoTime,
			consecutive_failures: z.int(),
		}),
	},
};

/** The `webhook.test` event of POST /v1/webhooks/{id}/test. */
const TEST_EVENT = {
	when: "Sent on request by POST /v1/webhooks/{id}/test.",
	data: z.looseObject({ webhook_id: z.string(), message: z.string(), sent_at: isoTime }),
};

/** The delivered envelope of one event type (docs/webhooks.md). */
export function webhookEnvelopeSchema(type: string, data: z.ZodType) {
	return z.object({
		event: z.literal(type),
		data: z.intersection(data, z.looseObject({ test_mode: z.boolean() })),
		webhook: z.object({
			id: z.string(),
			event_id: z.string(),
			timestamp: isoTime,
			signature: z.string().meta({ description: "sha256=<hex> of the body with this value emptied" }),
		}),
		account: z.object({ id: z.string(), name: z.string() }),
	});
}

export function webhookEventSchemas(): { type: string; when: string; envelope: z.ZodType }[] {
	return [...Object.entries(PAYLOADS), ["webhook.test", TEST_EVENT] as const].map(([type, payload]) => ({
		type,
		when: payload.when,
		envelope: webhookEnvelopeSchema(type, payload.data),
	}));
}
