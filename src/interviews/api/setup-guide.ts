import { z } from "zod";
import { validationError } from "../../platform/http/errors";
import { issueFields } from "../../platform/http/validation";
import { type CreateInterviewBody, createInterviewBody, fields, message } from "./schemas";

const jobText = z.string({ error: message("Must be a string") }).max(10_000, {
	error: message("Must be at most 10000 characters"),
});

/**
 * The setup guide's create body: `job` and `skills_to_assess` in place of `position` and
 * `skills`, `difficulty_level` in place of `difficulty`, and the `/v1` body's optional extras.
 */
export const setupGuideCreateBody = z.strictObject(
	{
		job: z.strictObject(
			{
				title: fields.position,
				description: jobText.optional(),
				requirements: jobText.optional(),
			},
			{ error: message("Must be an object with title, description and requirements") },
		),
		candidate_email: fields.candidateEmail,
		candidate_name: fields.candidateName.optional(),
		skills_to_assess: fields.skills,
		duration_minutes: fields.durationMinutes.default(30),
		difficulty_level: fields.difficulty.default("intermediate"),
		company_name: fields.companyName.optional(),
		instructions: fields.instructions.optional(),
		send_invitation: fields.flag.default(true),
		scheduled_at: fields.scheduledAt.optional(),
		test_mode: fields.flag.default(false),
	},
	{ error: message("Must be a JSON object") },
);
export type SetupGuideCreateBody = z.infer<typeof setupGuideCreateBody>;

export type CreateRequest =
	| { kind: "v1"; body: CreateInterviewBody }
	| {
			kind: "setup_guide";
			body: CreateInterviewBody;
			job: { description: string | null; requirements: string | null };
	  };

/** decisions.md: the setup-guide body is recognised by `job` or `skills_to_assess`. */
export function isSetupGuideBody(raw: unknown): boolean {
	return (
		typeof raw === "object" &&
		raw !== null &&
		!Array.isArray(raw) &&
		("job" in raw || "skills_to_assess" in raw)
	);
}

/** The setup-guide body as the `/v1` create body (and the job text the `/v1` body has no room for). */
export function fromSetupGuide(body: SetupGuideCreateBody): Extract<CreateRequest, { kind: "setup_guide" }> {
	return {
		kind: "setup_guide",
		body: {
			candidate_email: body.candidate_email,
			candidate_name: body.candidate_name,
			position: body.job.title,
			skills: body.skills_to_assess,
			duration_minutes: body.duration_minutes,
			difficulty: body.difficulty_level,
			company_name: body.company_name,
			instructions: body.instructions,
			send_invitation: body.send_invitation,
			scheduled_at: body.scheduled_at,
			test_mode: body.test_mode,
		},
		job: { description: body.job.description ?? null, requirements: body.job.requirements ?? null },
	};
}

/**
 * A create request's body: `/v1` accepts only its own body; `/api/v1` also accepts the setup
 * guide's. Refusals are VALIDATION_ERROR with dotted field paths (`job.title`).
 */
export function parseCreateRequest(raw: unknown, options: { acceptSetupGuide: boolean }): CreateRequest {
	if (options.acceptSetupGuide && isSetupGuideBody(raw)) {
		const parsed = setupGuideCreateBody.safeParse(raw);
		if (!parsed.success) {
			throw validationError(issueFields(parsed.error.issues, { input: raw, schema: setupGuideCreateBody }));
		}
		return fromSetupGuide(parsed.data);
	}
	const parsed = createInterviewBody.safeParse(raw);
	if (!parsed.success) {
		throw validationError(issueFields(parsed.error.issues, { input: raw, schema: createInterviewBody }));
	}
	return { kind: "v1", body: parsed.data };
}
