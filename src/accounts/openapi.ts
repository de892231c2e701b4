// The account routes' OpenAPI descriptions (src/platform/http/openapi.ts), kept apart from
// routes.ts so that file changes by one line per route.
import { z } from "zod";
import { apiOperation, isoTime, isoTimeOrNull } from "../platform/http/openapi";
import { noQuery } from "../platform/http/validation";

const keySchema = z.object({
	id: z.string(),
	environment: z.enum(["live", "test", "dev"]),
	test_mode: z.boolean(),
	expires_at: isoTimeOrNull,
});

const profileSchema = z.object({
	account_id: z.string(),
	company_name: z.string(),
	plan: z.string(),
	api_key_permissions: z.array(z.string()),
	rate_limit: z.object({ requests_per_minute: z.int(), current_usage: z.int() }),
	credits_balance: z.int(),
	usage: z.object({
		monthly_interviews_used: z.int(),
		monthly_interviews_limit: z.int().nullable(),
		monthly_interviews_resets_at: isoTime,
		concurrent_interviews_in_progress: z.int(),
		concurrent_interviews_limit: z.int().nullable(),
	}),
});

const common = { tags: ["Account"], scopes: [] as string[], query: noQuery, errors: [] };

export const profileOperation = apiOperation({
	...common,
	summary: "The key's account: plan, limits, usage and credits",
	success: { status: 200, description: "The profile", data: profileSchema },
});

export const verifyOperation = apiOperation({
	...common,
	summary: "Check a key",
	success: {
		status: 200,
		description: "The key is valid",
		data: z.object({
			valid: z.literal(true),
			account: z.object({ id: z.string(), company_name: z.string(), plan: z.string() }),
			key: keySchema,
		}),
	},
});

export const permissionsOperation = apiOperation({
	...common,
	summary: "The key's scopes",
	success: {
		status: 200,
		description: "The scopes",
		data: z.object({ permissions: z.array(z.string()), key: keySchema }),
	},
});
