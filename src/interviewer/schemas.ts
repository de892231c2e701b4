import { z } from "zod";
import { LEVEL_BANDS } from "./assessment";
import { DIFFICULTIES, RECOMMENDATIONS } from "./model";
import { REVIEW_FLAGS } from "./types";

const score = z.number().min(0).max(100);
const seconds = z.number().min(0);

/** The spec's Results object (full form), with the documented `level` values. */
export const resultsSchema = z.strictObject({
	overall_score: score,
	technical_score: score,
	communication_score: score,
	skill_assessments: z.array(
		z.strictObject({
			skill: z.string().min(1),
			score,
			level: z.enum(LEVEL_BANDS.map((b) => b.level) as [string, ...string[]]),
		}),
	),
	strengths: z.array(z.string().min(1)),
	areas_for_improvement: z.array(z.string().min(1)),
	recommendation: z.enum(RECOMMENDATIONS),
	confidence: z.number().min(0).max(1).optional(),
	review_flags: z.array(z.enum(REVIEW_FLAGS)).optional(),
});

/** One element of `analytics.question_difficulty_progression`. */
export const difficultyStepSchema = z.strictObject({
	question_index: z.number().int().min(0),
	question_id: z.string().min(1),
	skill: z.string().min(1),
	difficulty: z.enum(DIFFICULTIES),
	score: score.nullable(),
	change: z.enum(["start", "up", "down", "same"]),
});

/** The spec's Analytics object. */
export const analyticsSchema = z.strictObject({
	engagement_level: z.enum(["high", "medium", "low"]),
	response_times: z.strictObject({
		average_seconds: seconds,
		fastest_seconds: seconds,
		slowest_seconds: seconds,
	}),
	question_difficulty_progression: z.array(difficultyStepSchema),
});
