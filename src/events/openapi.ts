// The event log's answers and every event's payload (docs/events.md) as schemas for the OpenAPI
// document: `eventSchema` for GET /v1/events, `webhookEventSchemas` for its `webhooks` section.
import { z } from "zod";
import { CANDIDATE_EMAIL_TEMPLATES } from "../platform/db/schema-email";
import { isoTime } from "../platform/http/openapi";
import { EVENT_TYPES, type EventType } from "./catalog";

const testMode = { test_mode: z.boolean() };
const candidate = z.object({ email: z.string(), joined_at: isoTime });
const recommendation = z.enum(["hire", "maybe", "no_hire"]);
/** A changed field's value: text, a number (duration_minutes), a list (skills) or null. */
const fieldValue = z.union([z.string(), z.number(), z.array(z.string()), z.null()]);
/** The results as events carry them (the full results are GET /v1/interviews/{id}/results). */
const results = z.object({
	overall_score: z.number(),
	technical_score: z.number(),
	communication_score: z.number(),
	recommendation,
	strengths: z.array(z.string()),
	areas_for_improvement: z.array(z.string()),
	confidence: z.number().optional().meta({ description: "0 to 1 (docs/interviewer.md)" }),
	review_flags: z.array(z.string()).optional(),
});

/**
 * Each event's `data`, exactly as the code emits it (src/interviews/core/transitions/,
 * src/email/notified-event.ts, src/webhooks/consumer.ts; docs/events.md). Fields may be added
 * in later versions, never removed: a receiver should ignore fields it does not know.
 */
const PAYLOADS: Record<EventType, { when: string; data: z.ZodType }> = {
	"interview.scheduled": {
		when: "An interview was created (one per interview, bulk included).",
		data: z.object({
			id: z.string(),
			candidate_email: z.string(),
			position: z.string(),
			scheduled_at: isoTime,
			...testMode,
		}),
	},
	"interview.updated": {
		when: "A PATCH changed at least one value.",
		data: z.object({
			id: z.string(),
			updated_fields: z.array(z.string()),
			changes: z
				.record(z.string(), z.object({ previous: fieldValue, current: fieldValue }))
				.meta({ description: "By field name: its value before and after" }),
			updated_at: isoTime,
			...testMode,
		}),
	},
	"interview.rescheduled": {
		when: "scheduled_at changed.",
		data: z.object({
			id: z.string(),
			previous_scheduled_at: isoTime,
			scheduled_at: isoTime,
			reason: z.string().nullable(),
			...testMode,
		}),
	},
	"interview.cancelled": {
		when: "An interview was cancelled.",
		data: z.object({
			id: z.string(),
			cancelled_at: isoTime,
			reason: z.string().nullable(),
			previous_status: z.string(),
			...testMode,
		}),
	},
	"credits.refunded": {
		when: "A scheduled live interview was cancelled with refund_credits.",
		data: z.object({
			interview_id: z.string(),
			credits_refunded: z.int(),
			refund_reason: z.string(),
			refunded_at: isoTime,
			...testMode,
		}),
	},
	"candidate.joined": {
		when: "The candidate's first connection.",
		data: z.object({ interview_id: z.string(), candidate, scheduled_at: isoTime, ...testMode }),
	},
	"interview.started": {
		when: "The interview began.",
		data: z.object({ id: z.string(), candidate, started_at: isoTime, ...testMode }),
	},
	"interview.completed": {
		when: "The interview finished.",
		data: z.object({
			id: z.string(),
			completed_at: isoTime,
			duration_minutes: z.int(),
			results: z.object({ overall_score: z.number(), recommendation }),
			completion_reason: z.enum(["questions_answered", "candidate_ended", "duration_elapsed", "test_helper"]),
			...testMode,
		}),
	},
	"results.analyzed": {
		when: "A few seconds after completion.",
		data: z.object({ interview_id: z.string(), results, ...testMode }),
	},
	"analysis.ready": {
		when: "With results.analyzed, the same data.",
		data: z.object({ interview_id: z.string(), results, ...testMode }),
	},
	"candidate.no_show": {
		when: "15 minutes after scheduled_at, nobody joined.",
		data: z.object({ interview_id: z.string(), scheduled_at: isoTime, timeout_at: isoTime, ...testMode }),
	},
	"candidate.notified": {
		when: "The e-mail binding accepted a notice (docs/email.md).",
		data: z.object({
			interview_id: z.string(),
			message_id: z.string(),
			template: z.enum(CANDIDATE_EMAIL_TEMPLATES),
			recipient: z.string(),
			sent_at: isoTime,
			test_mode: z.literal(false).meta({ description: "Test-mode interviews send no e-mail" }),
		}),
	},
	"webhook.endpoint.disabled": {
		when: "An endpoint failing for 72 hours was disabled.",
		data: z.object({
			webhook_id: z.string(),
			url: z.string(),
			reason: z.literal("failing"),
			disabled_at: isoTime,
			failing_since: isoTime.nullable(),
			consecutive_failures: z.int(),
		}),
	},
};

/** An entry of the event log: its `data` is the payload of its `type`. */
export const eventSchema = z.discriminatedUnion(
	"type",
	EVENT_TYPES.map((type) =>
		z.object({
			id: z.string().meta({ description: "`evt_` id; also `X-Service-Event-Id` of its deliveries" }),
			type: z.literal(type),
			interview_id: z.string().nullable(),
			data: PAYLOADS[type].data,
			test_mode: z.boolean(),
			created_at: isoTime,
		}),
	) as unknown as [z.ZodObject, ...z.ZodObject[]],
);

/** The `webhook.test` event of POST /v1/webhooks/{id}/test. */
const TEST_EVENT = {
	when: "Sent on request by POST /v1/webhooks/{id}/test.",
	data: z.object({ webhook_id: z.string(), message: z.string(), sent_at: isoTime }),
};

/** The delivered envelope of one event type (docs/webhooks.md). */
export function webhookEnvelopeSchema(type: string, data: z.ZodType) {
	return z.object({
		event: z.literal(type),
		data,
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
