// The admin API's OpenAPI descriptions (src/platform/http/openapi.ts): accounts and keys
// (admin-routes.ts) and the schemas of their answers, each mirroring a view of admin-routes.ts.
// The dashboard's admin routes for users describe themselves in src/dashboard/admin-users.ts.
import { z } from "zod";
import { apiOperation, isoTime, isoTimeOrNull, type OperationSpec } from "../platform/http/openapi";
import { noQuery } from "../platform/http/validation";
import { KEY_ENVIRONMENTS } from "./keys";
import { PLAN_IDS } from "./plans";
import { SCOPES } from "./scopes";

const plan = z.enum(PLAN_IDS);
const environment = z.enum(KEY_ENVIRONMENTS);
const permissions = z.array(z.enum(SCOPES));

const accountSchema = z.object({
	id: z.string().meta({ description: "`acc_` id" }),
	company_name: z.string(),
	plan,
	credits: z.int().meta({ description: "The credit balance" }),
	limits: z
		.object({
			requests_per_minute: z.int(),
			concurrent_interviews: z.int(),
			monthly_interviews: z.int().nullable().meta({ description: "null: unlimited" }),
		})
		.meta({ description: "In force: the plan's, or the account's overrides" }),
	limit_overrides: z.object({
		requests_per_minute: z.int().nullable(),
		concurrent_interviews: z.int().nullable(),
		monthly_interviews: z.int().nullable(),
	}),
	created_at: isoTime,
	updated_at: isoTime,
});

const keySchema = z.object({
	id: z.string().meta({ description: "`key_` id" }),
	name: z.string(),
	environment,
	key_prefix: z.string().meta({ description: "The key's first 12 characters" }),
	permissions,
	expires_at: isoTimeOrNull,
	revoked_at: isoTimeOrNull,
	created_at: isoTime,
});

/** What every admin operation shares: the admin token, its tag, no query. */
export function adminOperation(spec: Omit<OperationSpec, "tags" | "scopes" | "admin">) {
	return apiOperation({ query: noQuery, ...spec, tags: ["Admin"], scopes: null, admin: true });
}

export const adminOperations = {
	createAccount: (body: z.ZodType) =>
		adminOperation({
			summary: "Create an account",
			body,
			success: {
				status: 201,
				description: "Created; `webhook_secret` signs its webhook deliveries",
				data: z.object({
					id: z.string(),
					company_name: z.string(),
					plan,
					credits: z.int(),
					webhook_secret: z.string(),
				}),
			},
			errors: [],
		}),
	listAccounts: (query: z.ZodType) =>
		adminOperation({
			summary: "List accounts",
			query,
			success: {
				status: 200,
				description: "A page of accounts",
				data: z.array(accountSchema),
				list: "withTotal",
			},
			errors: [],
		}),
	getAccount: adminOperation({
		summary: "Fetch an account with its keys",
		success: {
			status: 200,
			description: "The account",
			data: z.object({ ...accountSchema.shape, webhook_secret: z.string(), keys: z.array(keySchema) }),
		},
		errors: ["ACCOUNT_NOT_FOUND"],
	}),
	updateAccount: (body: z.ZodType) =>
		adminOperation({
			summary: "Change an account's plan, name, credits or limits",
			body,
			success: { status: 200, description: "The account as changed", data: accountSchema },
			errors: ["ACCOUNT_NOT_FOUND"],
		}),
	createKey: (body: z.ZodType) =>
		adminOperation({
			summary: "Create an API key",
			description: "The key's value is in this answer only; the service keeps its hash.",
			body,
			success: {
				status: 201,
				description: "Created",
				data: z.object({
					id: z.string(),
					key: z.string().meta({ description: "`svc_<environment>_…`, shown once" }),
					name: z.string(),
					environment,
					permissions,
					expires_at: isoTimeOrNull,
					created_at: isoTime,
				}),
			},
			errors: ["ACCOUNT_NOT_FOUND"],
		}),
	revokeKey: adminOperation({
		summary: "Revoke an API key",
		description:
			"At once: the key answers INVALID_API_KEY from then on. Revoking a revoked key answers it again.",
		success: { status: 200, description: "The revoked key", data: keySchema },
		errors: ["ACCOUNT_NOT_FOUND", "API_KEY_NOT_FOUND"],
	}),
};
