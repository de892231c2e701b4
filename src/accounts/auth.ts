import { eq, sql } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { getDb } from "../platform/db/client";
import { accounts, apiKeys } from "../platform/db/schema";
import { runRows, Template } from "../platform/db/templates";
import type { AppBindings } from "../platform/http/context";
import { AppError } from "../platform/http/errors";
import { appUrl } from "../platform/http/urls";
import { jsonBodyGuard } from "../platform/http/validation";
import { constantTimeEqual } from "../platform/lib/crypto";
import { authCache } from "./auth-cache";
import type { AuthContext } from "./auth-context";
import { recordKeyUse } from "./key-usage";
import { dataEnvironmentOf, hashApiKey, parseApiKey } from "./keys";
import { effectiveLimits, type PlanId } from "./plans";
import type { Scope } from "./scopes";

declare module "hono" {
	interface ContextVariableMap {
		/** The request's API key as authenticated: its account, plan limits and permissions. */
		auth: AuthContext;
		/** The request's API key and its SHA-256 (set by authentication). */
		apiKey: { token: string; hash: string };
		/** Key-cache version `auth` was cached at, or null when it was just read from D1 uncached. */
		authVersion: number | null;
	}
}

/** `Bearer <token>`; anything else counts as a missing header, as decisions.md says. */
export function bearerToken(header: string | undefined): string | null {
	if (!header) return null;
	const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
	return match?.[1] ?? null;
}

function invalidKey(token: string): AppError {
	return new AppError("INVALID_API_KEY", "The API key is invalid or has been revoked.", {
		key_prefix: token.slice(0, 12),
	});
}

/**
 * Resolves the key from the isolate's cache or from D1. A cached key is provisional until the
 * rate-limit middleware's call to the account object confirms its version (see auth-cache.ts).
 */
export const authenticate: MiddlewareHandler<AppBindings> = async (c, next) => {
	const header = c.req.header("Authorization");
	const token = bearerToken(header);
	if (!token) {
		// A header that is not `Bearer <token>` counts as missing (decisions.md); the message says
		// which of the two it was.
		const message =
			header === undefined
				? "Send your API key as 'Authorization: Bearer <API_KEY>'."
				: "The Authorization header is not 'Bearer <API_KEY>': send your API key as 'Authorization: Bearer <API_KEY>'.";
		throw new AppError("AUTHENTICATION_REQUIRED", message, { header_missing: "Authorization" });
	}
	if (!parseApiKey(token)) throw invalidKey(token);
	const hash = await hashApiKey(token);
	c.set("apiKey", { token, hash });
	const cached = authCache.get(hash, c.get("now"));
	if (cached) {
		c.set("auth", cached.auth);
		c.set("authVersion", cached.version);
	} else {
		const before = authCache.snapshot(hash);
		const auth = await lookupApiKey(c, token, hash);
		c.set("auth", auth);
		c.set("authVersion", authCache.remember(hash, auth, before));
	}
	await next();
	// A key refused after all (revoked: the account's object did not confirm the cached entry) was not used.
	if (c.res.status !== 401) recordKeyUse(c, c.get("auth").keyId, c.get("now"));
};

/** The account and permissions of an API key, read from D1, or the contract's authentication error. */
export async function resolveApiKey(c: Context<AppBindings>, token: string): Promise<AuthContext> {
	if (!parseApiKey(token)) throw invalidKey(token);
	return lookupApiKey(c, token, await hashApiKey(token));
}

/** A key and its account by the key's hash: the statement is built once per isolate. */
const keyByHash = new Template<{ hash: string }>((db) =>
	db
		.select({ key: apiKeys, account: accounts })
		.from(apiKeys)
		.innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
		.where(eq(apiKeys.keyHash, sql.placeholder("hash"))),
);
interface KeyWithAccount {
	key: typeof apiKeys.$inferSelect;
	account: typeof accounts.$inferSelect;
}

/** The D1 lookup of a well-formed key by its hash. */
export async function lookupApiKey(
	c: Context<AppBindings>,
	token: string,
	hash: string,
): Promise<AuthContext> {
	const [row] = (await runRows(keyByHash.bind(getDb(c.env.DB), { hash }))) as KeyWithAccount[];
	// The index finds the row by hash; the comparison itself is constant-time.
	if (!row || !constantTimeEqual(row.key.keyHash, hash) || row.key.revokedAt !== null) {
		throw invalidKey(token);
	}
	if (row.key.expiresAt !== null && row.key.expiresAt <= c.get("now")) {
		throw new AppError("API_KEY_EXPIRED", "The API key has expired. Create a new key and revoke this one.", {
			expired_at: new Date(row.key.expiresAt).toISOString(),
			renewal_url: `${appUrl(c)}/settings/api-keys`,
		});
	}
	const plan = row.account.plan as PlanId;
	return {
		accountId: row.account.id,
		companyName: row.account.companyName,
		plan,
		limits: effectiveLimits(plan, {
			requests_per_minute: row.account.requestsPerMinuteOverride,
			concurrent_interviews: row.account.concurrentInterviewsOverride,
			monthly_interviews: row.account.monthlyInterviewsOverride,
		}),
		keyId: row.key.id,
		keyEnvironment: row.key.environment,
		dataEnvironment: dataEnvironmentOf(row.key.environment),
		permissions: row.key.permissions as Scope[],
		expiresAt: row.key.expiresAt,
	};
}

export function assertScope(auth: AuthContext, scope: Scope): void {
	if (!auth.permissions.includes(scope)) {
		throw new AppError("INSUFFICIENT_PERMISSIONS", `This API key lacks the '${scope}' permission.`, {
			required_permission: scope,
			current_permissions: auth.permissions,
		});
	}
}

/**
 * The scope check, the last before validation (decisions.md orders route, authentication, rate
 * limit, scope, validation). The request is counted against the rate limit first, unless its
 * route sends the count with its write (`countWithWrite`, src/accounts/rate-limit-middleware.ts).
 * Validation begins here with the body's size and media type, so a request refused for its key,
 * its rate or its scope is refused for that whatever its body. `alsoCheck` is a route's own
 * refusal of the key (it throws), made with the scope.
 */
export function requireScope(
	scope: Scope,
	alsoCheck?: (auth: AuthContext) => void,
): MiddlewareHandler<AppBindings> {
	return async (c, next) => {
		const count = c.get("requestCount");
		if (!count.goesWithWrite) await count.counted();
		assertScope(c.get("auth"), scope);
		alsoCheck?.(c.get("auth"));
		await jsonBodyGuard(c, next);
	};
}
