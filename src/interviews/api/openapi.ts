// The interview API's answers as zod schemas, for the OpenAPI document (src/platform/http/openapi.ts):
// each mirrors a view in views.ts, bulk-views.ts or core/setup-guide-results.ts. Results,
// analytics and recordings are objects whose fields docs/api.md lists; they are described as
// open objects here.
import { z } from "zod";
import { isoTime, isoTimeOrNull } from "../../platform/http/openapi";
import { DIFFICULTIES, STATUSES } from "../core/model";

const id = z.string().meta({ description: "`int_` id", example: "int_8Yq2Xb0c4Jt1nV5mA7dK3pLs" });
const status = z.enum(STATUSES);
const difficulty = z.enum(DIFFICULTIES);
const openObject = z.looseObject({});

export const createdInterviewSchema = z.object({
	id,
	status,
	candidate_email: z.string(),
	candidate_name: z.string().optional(),
	position: z.string(),
	skills: z.array(z.string()),
	difficulty,
	company_name: z.string(),
	interview_url: z.string().meta({ description: "The candidate's join link (carries its token)" }),
	scheduled_at: isoTime,
	estimated_duration: z.int().meta({ description: "Minutes" }),
	test_mode: z.boolean(),
	created_at: isoTime,
	session_id: z.string().optional().meta({ description: "Under /api/v1 only: the id again" }),
	candidate_link: z.string().optional().meta({ description: "Under /api/v1 only: interview_url again" }),
});

const transcriptSchema = z.array(
	z.object({
		question: z.object({
			id: z.string(),
			text: z.string(),
			skill: z.string(),
			difficulty: z.string(),
			index: z.int(),
		}),
		answer: z.string().nullable(),
		asked_at: isoTime,
		answered_at: isoTimeOrNull,
		score: z.number().nullable(),
	}),
);

const fullInterviewFields = {
	id,
	status,
	candidate: z.object({ email: z.string(), name: z.string().optional(), joined_at: isoTimeOrNull }),
	position: z.string(),
	skills: z.array(z.string()),
	difficulty,
	company_name: z.string(),
	instructions: z.string().nullable(),
	duration: z.object({ estimated_minutes: z.int(), actual_minutes: z.int().nullable() }),
	schedule: z.object({ scheduled_at: isoTime, started_at: isoTimeOrNull, completed_at: isoTimeOrNull }),
	cancellation: z
		.object({ cancelled_at: isoTimeOrNull, reason: z.string().nullable() })
		.optional()
		.meta({ description: "Only on a cancelled interview" }),
	results: openObject
		.nullable()
		.optional()
		.meta({ description: "With include_results: null until analyzed" }),
	analytics: openObject.nullable().optional().meta({ description: "With include_results" }),
	transcript: transcriptSchema
		.nullable()
		.optional()
		.meta({ description: "With include_transcript: null until completed" }),
	recordings: z.array(openObject).optional().meta({ description: "With include_recordings" }),
	urls: z.object({
		interview_url: z.string(),
		dashboard_url: z.string(),
		results_url: z.string().nullable(),
	}),
	test_mode: z.boolean(),
	created_at: isoTime,
	updated_at: isoTime,
};

export const fullInterviewSchema = z.object(fullInterviewFields);

export const listItemSchema = z.object({
	id,
	status,
	candidate_email: z.string(),
	position: z.string(),
	skills: z.array(z.string()),
	scheduled_at: isoTime,
	created_at: isoTime,
	test_mode: z.boolean(),
	results: z
		.object({ overall_score: z.number(), recommendation: z.string().nullable() })
		.optional()
		.meta({ description: "With include_results, on completed and analyzed interviews" }),
});

export const updatedInterviewSchema = z.object({
	id,
	status,
	candidate_email: z.string(),
	position: z.string(),
	skills: z.array(z.string()),
	scheduled_at: isoTime,
	duration_minutes: z.int(),
	difficulty,
	company_name: z.string(),
	instructions: z.string().nullable(),
	test_mode: z.boolean(),
	created_at: isoTime,
	updated_at: isoTime,
	notification_sent: z.boolean(),
});

export const cancelledInterviewSchema = z.object({
	id,
	status,
	cancelled_at: isoTimeOrNull,
	cancellation_reason: z.string().nullable(),
	refund_details: z.object({ credits_refunded: z.int(), refund_reason: z.string() }).nullable(),
	notification_sent: z.boolean(),
});

const itemError = z.object({
	code: z.string(),
	message: z.string(),
	details: z.looseObject({}),
});

export const bulkCreatedSchema = z.object({
	successful: z.array(
		z.object({
			index: z.int(),
			interview: z.object({
				id,
				candidate_email: z.string(),
				interview_url: z.string(),
				status,
				test_mode: z.boolean(),
			}),
		}),
	),
	failed: z.array(z.object({ index: z.int(), candidate_email: z.string().nullable(), error: itemError })),
	summary: z.object({
		total_requested: z.int(),
		successful_count: z.int(),
		failed_count: z.int(),
		success_rate: z.number().meta({ description: "0 to 1, four decimals" }),
	}),
});

export const bulkResultsSchema = z.array(
	z.union([
		z.object({
			interview_id: z.string(),
			found: z.literal(true),
			results_status: z.enum(["available", "analyzing", "not_completed", "cancelled"]),
			...fullInterviewFields,
		}),
		z.object({
			interview_id: z.string(),
			found: z.literal(false),
			error: z.object({ code: z.literal("INTERVIEW_NOT_FOUND"), message: z.string() }),
		}),
	]),
);

export const setupGuideResultsSchema = z.object({
	session_id: z.string(),
	status,
	results_status: z.string(),
	overall_score: z.number().nullable(),
	skill_scores: z.record(z.string(), z.number()).nullable(),
	recommendations: z.array(openObject),
	test_mode: z.boolean(),
});
