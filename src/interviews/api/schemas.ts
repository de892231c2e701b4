import { z } from "zod";
import { pageLimit, queryBoolean, requiredOr } from "../../platform/http/validation";
import { parseIsoDateTime } from "../../platform/lib/time";
import { DIFFICULTIES, STATUSES } from "../core/model";

/** A field's message, or "Required" when the field is absent. */
/** A schema's own message for a wrong value, and "Required" when the field is missing. */
export const message = requiredOr;

const isoDateTime = z
	.string({ error: message("Must be an ISO 8601 date-time string, e.g. 2030-01-15T14:00:00Z") })
	.refine((v) => parseIsoDateTime(v) !== null, {
		error: message("Must be an ISO 8601 date-time with a time zone, e.g. 2030-01-15T14:00:00Z"),
	});

export const fields = {
	candidateEmail: z
		.string({ error: message("Must be a string") })
		.trim()
		.max(254, { error: message("Must be at most 254 characters") })
		.pipe(z.email({ error: message("Must be a valid e-mail address") })),
	candidateName: z
		.string()
		.trim()
		.min(1, { error: message("Must not be empty") })
		.max(200),
	position: z
		.string()
		.trim()
		.min(1, { error: message("Must not be empty") })
		.max(200),
	skills: z
		.array(
			z
				.string()
				.trim()
				.min(1, { error: message("Must not be empty") })
				.max(100),
			{
				error: message("Must be an array of strings"),
			},
		)
		.min(1, { error: message("Must name at least one skill") })
		.max(25, { error: message("At most 25 skills") })
		.superRefine((skills, ctx) => {
			// Each skill is scored and reported by name: a repeat would be scored twice and then
			// collapse into one key of `skill_scores`.
			const first = new Map<string, number>();
			skills.forEach((skill, i) => {
				const name = skill.toLowerCase();
				const earlier = first.get(name);
				if (earlier === undefined) first.set(name, i);
				else
					ctx.addIssue({
						code: "custom",
						path: [i],
						input: skill,
						message: `Repeats item ${earlier} (skills are compared without regard to case)`,
					});
			});
		}),
	durationMinutes: z
		.number({ error: message("Must be an integer from 15 to 90") })
		.int({ error: message("Must be an integer from 15 to 90") })
		.min(15, { error: message("Must be an integer from 15 to 90") })
		.max(90, { error: message("Must be an integer from 15 to 90") }),
	difficulty: z.enum(DIFFICULTIES, {
		error: message(`Must be one of ${DIFFICULTIES.join(", ")}`),
	}),
	companyName: z
		.string()
		.trim()
		.min(1, { error: message("Must not be empty") })
		.max(200),
	instructions: z.string().max(5000, { error: message("Must be at most 5000 characters") }),
	scheduledAt: isoDateTime,
	flag: z.boolean({ error: message("Must be a boolean") }),
};

export const createInterviewBody = z.strictObject(
	{
		candidate_email: fields.candidateEmail,
		candidate_name: fields.candidateName.optional(),
		position: fields.position,
		skills: fields.skills,
		duration_minutes: fields.durationMinutes.default(30),
		difficulty: fields.difficulty.default("intermediate"),
		company_name: fields.companyName.optional(),
		instructions: fields.instructions.optional(),
		send_invitation: fields.flag.default(true),
		scheduled_at: fields.scheduledAt.optional(),
		test_mode: fields.flag.default(false),
	},
	{ error: message("Must be a JSON object") },
);
export type CreateInterviewBody = z.infer<typeof createInterviewBody>;

export const listQuery = z.strictObject({
	cursor: z.string().optional(),
	limit: pageLimit,
	status: z.enum(STATUSES, { error: message(`Must be one of ${STATUSES.join(", ")}`) }).optional(),
	// Trimmed as the create trims the address it stores.
	candidate_email: z.string().trim().min(1).max(254).optional(),
	position: z.string().min(1).max(200).optional(),
	created_after: isoDateTime.optional(),
	created_before: isoDateTime.optional(),
	scheduled_after: isoDateTime.optional(),
	scheduled_before: isoDateTime.optional(),
	include_results: queryBoolean.default(false),
});

export const fetchQuery = z.strictObject({
	include_results: queryBoolean.default(false),
	include_transcript: queryBoolean.default(false),
	include_recordings: queryBoolean.default(false),
});

export const updateInterviewBody = z
	.strictObject(
		{
			scheduled_at: fields.scheduledAt.optional(),
			candidate_email: fields.candidateEmail.optional(),
			position: fields.position.optional(),
			skills: fields.skills.optional(),
			duration_minutes: fields.durationMinutes.optional(),
			difficulty: fields.difficulty.optional(),
			company_name: fields.companyName.optional(),
			instructions: fields.instructions.optional(),
			send_notification: fields.flag.default(true),
			reschedule_reason: z.string().trim().min(1).max(1000).optional(),
		},
		{ error: message("Must be a JSON object") },
	)
	.refine(
		(b) =>
			[
				b.scheduled_at,
				b.candidate_email,
				b.position,
				b.skills,
				b.duration_minutes,
				b.difficulty,
				b.company_name,
				b.instructions,
			].some((v) => v !== undefined),
		{ error: "Give at least one field to update" },
	);
export type UpdateInterviewBody = z.infer<typeof updateInterviewBody>;

export const cancelQuery = z.strictObject({
	reason: z
		.string()
		.trim()
		.min(1)
		.max(1000, { error: message("Must be at most 1000 characters") })
		.optional(),
	send_notification: queryBoolean.default(true),
	refund_credits: queryBoolean.default(true),
});
