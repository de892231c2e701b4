// The interview API's answers as zod schemas, for the OpenAPI document (src/platform/http/openapi.ts):
// each mirrors a view in views.ts, bulk-views.ts or core/setup-guide-results.ts. The schemas of
// the interviewer's results and analytics, the recording links and the setup guide's
// recommendation are checked against the code's own types at compile time (`Same` below).
import { z } from "zod";
import { type Analytics, RECOMMENDATIONS, type Results } from "../../interviewer/model";
import { errorObjectName, isoTime, isoTimeOrNull, schemaRef } from "../../platform/http/openapi";
import { DIFFICULTIES, STATUSES } from "../core/model";
import type { SetupGuideRecommendation } from "../core/setup-guide-results";
import { BULK_ITEM_ERROR_CODES, type BulkItemError } from "../creation/bulk-create";
import type { RecordingLink, RecordingSegment } from "../recordings/recordings";

const id = z.string().meta({ description: "`int_` id", example: "int_8Yq2Xb0c4Jt1nV5mA7dK3pLs" });
const status = z.enum(STATUSES);
const difficulty = z.enum(DIFFICULTIES);

/** True when the two types are the same: each assignable to the other, with the same keys. */
type Both<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Same<A, B> = Both<A, B> extends true ? Both<keyof A, keyof B> : false;

const recommendation = z.enum(RECOMMENDATIONS);

/** The interviewer's results (interviewer/model.ts `Results`; docs/interviewer.md). */
export const resultsSchema = z.object({
	overall_score: z.number().meta({ description: "0 to 100" }),
	technical_score: z.number(),
	communication_score: z.number(),
	skill_assessments: z.array(z.object({ skill: z.string(), score: z.number(), level: z.string() })),
	strengths: z.array(z.string()),
	areas_for_improvement: z.array(z.string()),
	recommendation,
	confidence: z.number().optional().meta({ description: "0 to 1: how sure the interviewer is" }),
	review_flags: z.array(z.string()).optional().meta({ description: "Why a person should look closer" }),
});

/** The interview's analytics (interviewer/model.ts `Analytics`). */
export const analyticsSchema = z.object({
	engagement_level: z.enum(["high", "medium", "low"]),
	response_times: z.object({
		average_seconds: z.number(),
		fastest_seconds: z.number(),
		slowest_seconds: z.number(),
	}),
	question_difficulty_progression: z.array(
		z.object({
			question_index: z.int(),
			question_id: z.string(),
			skill: z.string(),
			difficulty: z.enum(DIFFICULTIES),
			score: z.number().nullable(),
			change: z.enum(["start", "up", "down", "same"]),
		}),
	),
});

/** A signed, time-limited link to one stored chunk of the interview's audio (recordings.ts). */
export const recordingSchema = z.object({
	segment: z.string().nullable().meta({ description: "The page that recorded it (null: sent without one)" }),
	chunk: z.int(),
	url: z.string(),
	size_bytes: z.int(),
	uploaded_at: isoTime,
	expires_at: isoTime,
});

/** One page's recording as one playable file: its chunks joined in order (recordings.ts). */
export const recordingSegmentSchema = z.object({
	segment: z
		.string()
		.nullable()
		.meta({ description: "The page that recorded it (null: chunks sent without one)" }),
	url: z
		.string()
		.meta({ description: "The segment's chunks joined into one file, signed like a chunk's link" }),
	chunks: z.int(),
	size_bytes: z.int(),
	started_at: isoTime.meta({ description: "When its first chunk was stored" }),
	expires_at: isoTime,
});

/** The setup guide's recommendation (core/setup-guide-results.ts). */
export const setupGuideRecommendationSchema = z.object({
	type: recommendation,
	confidence: z.number(),
	reasoning: z.string(),
});

// Compile-time: each schema describes exactly the code's type.
true satisfies Same<z.output<typeof resultsSchema>, Results>;
true satisfies Same<z.output<typeof analyticsSchema>, Analytics>;
true satisfies Same<z.output<typeof recordingSchema>, RecordingLink>;
true satisfies Same<z.output<typeof recordingSegmentSchema>, RecordingSegment>;
true satisfies Same<z.output<typeof setupGuideRecommendationSchema>, SetupGuideRecommendation>;

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
	results: resultsSchema
		.nullable()
		.optional()
		.meta({ description: "With include_results: null until analyzed" }),
	analytics: analyticsSchema.nullable().optional().meta({ description: "With include_results" }),
	transcript: transcriptSchema
		.nullable()
		.optional()
		.meta({ description: "With include_transcript: null until completed" }),
	recordings: z
		.array(recordingSchema)
		.optional()
		.meta({ description: "With include_recordings: every stored chunk; only a segment's first plays alone" }),
	recording_segments: z
		.array(recordingSegmentSchema)
		.optional()
		.meta({ description: "With include_recordings: each segment as one playable file" }),
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
	candidate_name: z
		.string()
		.optional()
		.meta({ description: "As given at creation; gone after an address change" }),
	interview_url: z
		.string()
		.meta({ description: "The candidate's join link (carries its token); new after an address change" }),
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
	test_mode: z.boolean(),
});

/**
 * INVALID_EMAIL's error object (components.schemas.Error_INVALID_EMAIL, added by src/openapi.ts):
 * a bulk item's own code, never an envelope's. Its details are VALIDATION_ERROR's.
 */
export const invalidEmailErrorSchema = z
	.strictObject({
		code: z.enum(["INVALID_EMAIL"]),
		message: z.string(),
		details: z.record(z.string(), z.string()).meta({
			description: "Each failing field of the item, `candidate_email` among them → what is wrong with it",
		}),
	})
	.meta({
		description:
			"Only a bulk item's (POST /v1/interviews/bulk): its `candidate_email` is a string but not a valid address",
	});

/** The schemas of this module's own error objects, for the document's components. */
export const interviewErrorObjects: Record<string, z.ZodType> = {
	[errorObjectName("INVALID_EMAIL")]: invalidEmailErrorSchema,
};

/**
 * A bulk item's `error`: one of the error objects of the codes an item can carry
 * (`BULK_ITEM_ERROR_CODES`), each by reference to the object the endpoints' errors use.
 */
const itemError = z
	.xor(BULK_ITEM_ERROR_CODES.map((code) => schemaRef<BulkItemError>(errorObjectName(code))))
	.meta({ description: "One object per code an item can fail with: narrow on `code` to its `details`" });

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
	recommendations: z.array(setupGuideRecommendationSchema),
	test_mode: z.boolean(),
});
