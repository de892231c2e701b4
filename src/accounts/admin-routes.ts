import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { getDb } from "../platform/db/client";
import type { AppBindings } from "../platform/http/context";
import { ok, okList } from "../platform/http/envelope";
import { AppError, validationError } from "../platform/http/errors";
import { whenRouted } from "../platform/http/middleware";
import { jsonBodyGuard, noQuery, pageLimit, validate } from "../platform/http/validation";
import { constantTimeEqual } from "../platform/lib/crypto";
import { decodeCursor, encodeCursor } from "../platform/lib/cursor";
import { errorText } from "../platform/lib/error-text";
import { newId, randomBase62 } from "../platform/lib/random";
import { iso, isoOrNull, parseIsoDateTime } from "../platform/lib/time";
import { accountStub } from "./account-stub";
import {
	type AccountRow,
	type ApiKeyRow,
	changeAccount,
	countAccounts,
	creditBalance,
	findAccount,
	findApiKey,
	insertAccount,
	insertApiKey,
	listAccounts,
	listApiKeys,
	revokeApiKey,
} from "./accounts-repo";
import { adminOperations } from "./admin-openapi";
import { bearerToken } from "./auth";
import { changingAuth } from "./auth-changes";
import { generateApiKey, hashApiKey, KEY_ENVIRONMENTS } from "./keys";
import { effectiveLimits, PLAN_IDS, PLANS, type PlanId } from "./plans";
import { SCOPES } from "./scopes";

/** The internal admin API (decisions.md): accounts and keys, behind `ADMIN_TOKEN`. */
export const adminRoutes = new Hono<AppBindings>();

const adminAuth: MiddlewareHandler<AppBindings> = async (c, next) => {
	const token = bearerToken(c.req.header("Authorization"));
	if (!token) {
		throw new AppError(
			"AUTHENTICATION_REQUIRED",
			"Send the admin token as 'Authorization: Bearer <ADMIN_TOKEN>'.",
			{
				header_missing: "Authorization",
			},
		);
	}
	const expected = c.env.ADMIN_TOKEN;
	if (!expected || !constantTimeEqual(token, expected)) {
		throw new AppError("INVALID_API_KEY", "The admin token is invalid.", {
			key_prefix: token.slice(0, 12),
		});
	}
	await next();
};

// The admin token first, then the body: an unauthenticated request is refused whatever it sends.
adminRoutes.use("*", whenRouted(adminAuth, jsonBodyGuard));

const plan = z.enum(PLAN_IDS, {
	error: `Must be one of ${PLAN_IDS.join(", ")}`,
});
const limitValue = z.number().int().min(1).max(1_000_000).nullable();

const createAccountBody = z.strictObject({
	company_name: z.string().trim().min(1, { error: "Must not be empty" }).max(200),
	plan,
	credits: z.number().int().min(0).max(100_000_000).optional(),
});

const patchAccountBody = z.strictObject({
	plan: plan.optional(),
	company_name: z.string().trim().min(1).max(200).optional(),
	credits_delta: z.number().int().min(-100_000_000).max(100_000_000).optional(),
	limits: z
		.strictObject({
			requests_per_minute: limitValue.optional(),
			concurrent_interviews: limitValue.optional(),
			monthly_interviews: limitValue.optional(),
		})
		.optional(),
});

const createKeyBody = z.strictObject({
	name: z.string().trim().min(1, { error: "Must not be empty" }).max(100),
	environment: z.enum(KEY_ENVIRONMENTS, {
		error: `Must be one of ${KEY_ENVIRONMENTS.join(", ")}`,
	}),
	permissions: z
		.array(z.enum(SCOPES, { error: `Must be one of ${SCOPES.join(", ")}` }))
		.min(1)
		.optional(),
	expires_at: z
		.string()
		.refine((v) => parseIsoDateTime(v) !== null, {
			error: "Must be an ISO 8601 date-time",
		})
		.optional()
		.meta({ description: "ISO 8601; must be after the request's time (a key never expires without it)" }),
});

const listQuery = z.strictObject({
	cursor: z.string().optional(),
	limit: pageLimit,
});

function accountView(row: AccountRow, credits: number) {
	const overrides = {
		requests_per_minute: row.requestsPerMinuteOverride,
		concurrent_interviews: row.concurrentInterviewsOverride,
		monthly_interviews: row.monthlyInterviewsOverride,
	};
	return {
		id: row.id,
		company_name: row.companyName,
		plan: row.plan,
		credits,
		limits: effectiveLimits(row.plan as PlanId, overrides),
		limit_overrides: overrides,
		created_at: iso(row.createdAt),
		updated_at: iso(row.updatedAt),
	};
}

function keyView(row: ApiKeyRow) {
	return {
		id: row.id,
		name: row.name,
		environment: row.environment,
		key_prefix: row.keyPrefix,
		permissions: row.permissions,
		expires_at: isoOrNull(row.expiresAt),
		revoked_at: isoOrNull(row.revokedAt),
		created_at: iso(row.createdAt),
	};
}

export async function requireAccount(c: { env: AppBindings["Bindings"] }, id: string): Promise<AccountRow> {
	const row = await findAccount(getDb(c.env.DB), id);
	if (!row) throw new AppError("ACCOUNT_NOT_FOUND", `No account with id '${id}' exists.`, { id });
	return row;
}

adminRoutes.post(
	"/accounts",
	adminOperations.createAccount(createAccountBody),
	validate("query", noQuery),
	validate("json", createAccountBody),
	async (c) => {
		const body = c.req.valid("json");
		const now = c.get("now");
		const credits = body.credits ?? PLANS[body.plan].default_credits;
		const row: AccountRow = {
			id: newId("acc"),
			companyName: body.company_name,
			plan: body.plan,
			webhookSecret: `whsec_${randomBase62(40)}`,
			requestsPerMinuteOverride: null,
			concurrentInterviewsOverride: null,
			monthlyInterviewsOverride: null,
			createdAt: now,
			updatedAt: now,
		};
		await insertAccount(getDb(c.env.DB), row, credits, newId("msg"));
		return ok(
			c,
			{
				id: row.id,
				company_name: row.companyName,
				plan: row.plan,
				credits,
				webhook_secret: row.webhookSecret,
			},
			201,
		);
	},
);

adminRoutes.get(
	"/accounts",
	adminOperations.listAccounts(listQuery),
	validate("query", listQuery),
	async (c) => {
		const q = c.req.valid("query");
		const cursor = q.cursor === undefined ? null : decodeCursor("accounts", q.cursor);
		if (q.cursor !== undefined && !cursor) throw validationError({ cursor: "Not a cursor from this list" });
		const db = getDb(c.env.DB);
		const [rows, total] = await Promise.all([listAccounts(db, q.limit, cursor), countAccounts(db)]);
		const hasMore = rows.length > q.limit;
		const page = rows.slice(0, q.limit);
		const balances = await Promise.all(page.map((r) => creditBalance(db, r.id)));
		const last = page.at(-1);
		return okList(
			c,
			page.map((r, i) => accountView(r, balances[i] ?? 0)),
			{
				next_cursor:
					hasMore && last ? encodeCursor("accounts", { createdAt: last.createdAt, id: last.id }) : null,
				has_more: hasMore,
				total_count: total,
			},
		);
	},
);

adminRoutes.get(
	"/accounts/:account_id",
	adminOperations.getAccount,
	validate("query", noQuery),
	async (c) => {
		const row = await requireAccount(c, c.req.param("account_id"));
		const db = getDb(c.env.DB);
		const [credits, keys] = await Promise.all([creditBalance(db, row.id), listApiKeys(db, row.id)]);
		return ok(c, {
			...accountView(row, credits),
			webhook_secret: row.webhookSecret,
			keys: keys.map(keyView),
		});
	},
);

adminRoutes.patch(
	"/accounts/:account_id",
	adminOperations.updateAccount(patchAccountBody),
	validate("query", noQuery),
	validate("json", patchAccountBody),
	async (c) => {
		const body = c.req.valid("json");
		const row = await requireAccount(c, c.req.param("account_id"));
		const db = getDb(c.env.DB);
		const now = c.get("now");
		const changes: Partial<AccountRow> = { updatedAt: now };
		if (body.plan) changes.plan = body.plan;
		if (body.company_name) changes.companyName = body.company_name;
		if (body.limits) {
			const l = body.limits;
			if (l.requests_per_minute !== undefined) changes.requestsPerMinuteOverride = l.requests_per_minute;
			if (l.concurrent_interviews !== undefined)
				changes.concurrentInterviewsOverride = l.concurrent_interviews;
			if (l.monthly_interviews !== undefined) changes.monthlyInterviewsOverride = l.monthly_interviews;
		}
		const adjustment =
			body.credits_delta !== undefined && body.credits_delta !== 0
				? {
						id: newId("msg"),
						accountId: row.id,
						interviewId: null,
						kind: "adjustment" as const,
						amount: body.credits_delta,
						createdAt: now,
					}
				: null;
		// The credits and the fields in one transaction: a failure writes neither, so a retry is safe.
		const change = () => changeAccount(db, row.id, changes, adjustment);
		const changesAuth =
			body.plan !== undefined || body.company_name !== undefined || body.limits !== undefined;
		const written = changesAuth ? await changingAuth(c.env, row.id, change) : await change();
		if (!written) throw validationError({ credits_delta: "Would make the credit balance negative" });
		// A raised concurrent limit starts candidates already waiting now, not at the next join or
		// release. The change stands whatever this answers (the account's check retries it).
		if (body.plan !== undefined || body.limits?.concurrent_interviews !== undefined) {
			try {
				await accountStub(c.env, row.id).fillSlots();
			} catch (error) {
				console.error(
					JSON.stringify({ message: "slot fill failed", account_id: row.id, error: errorText(error) }),
				);
			}
		}
		const updated = await requireAccount(c, row.id);
		return ok(c, accountView(updated, await creditBalance(db, row.id)));
	},
);

adminRoutes.post(
	"/accounts/:account_id/keys",
	adminOperations.createKey(createKeyBody),
	validate("query", noQuery),
	validate("json", createKeyBody),
	async (c) => {
		const body = c.req.valid("json");
		const now = c.get("now");
		const expiresAt = body.expires_at === undefined ? null : (parseIsoDateTime(body.expires_at) as number);
		// Judged against the request's time, as the dashboard's key page does: a key that expires at
		// or before it would be refused (API_KEY_EXPIRED) from its first request.
		if (expiresAt !== null && expiresAt <= now)
			throw validationError({ expires_at: "Must be in the future" });
		const account = await requireAccount(c, c.req.param("account_id"));
		const value = generateApiKey(body.environment);
		const row: ApiKeyRow = {
			id: newId("key"),
			accountId: account.id,
			name: body.name,
			environment: body.environment,
			keyHash: await hashApiKey(value),
			keyPrefix: value.slice(0, 12),
			permissions: body.permissions ? [...new Set(body.permissions)] : [...SCOPES],
			expiresAt,
			revokedAt: null,
			createdAt: now,
			lastUsedAt: null,
		};
		await insertApiKey(getDb(c.env.DB), row);
		return ok(
			c,
			{
				id: row.id,
				key: value,
				name: row.name,
				environment: row.environment,
				permissions: row.permissions,
				expires_at: isoOrNull(expiresAt),
				created_at: iso(now),
			},
			201,
		);
	},
);

adminRoutes.delete(
	"/accounts/:account_id/keys/:key_id",
	adminOperations.revokeKey,
	validate("query", noQuery),
	async (c) => {
		const account = await requireAccount(c, c.req.param("account_id"));
		const db = getDb(c.env.DB);
		const keyId = c.req.param("key_id");
		const key = await findApiKey(db, account.id, keyId);
		if (!key)
			throw new AppError("API_KEY_NOT_FOUND", `No key with id '${keyId}' exists on this account.`, {
				id: keyId,
			});
		const now = c.get("now");
		if (key.revokedAt === null) await changingAuth(c.env, account.id, () => revokeApiKey(db, key.id, now));
		return ok(c, { ...keyView({ ...key, revokedAt: key.revokedAt ?? now }) });
	},
);
