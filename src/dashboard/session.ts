import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { AuthContext } from "../accounts/auth-context";
import type { DataEnvironment } from "../accounts/keys";
import { effectiveLimits, type PlanId } from "../accounts/plans";
import { SCOPES, type Scope } from "../accounts/scopes";
import { closeLiveViews } from "../interviews/room/observer-tickets";
import { getDb } from "../platform/db/client";
import type { AppBindings } from "../platform/http/context";
import { sha256Hex } from "../platform/lib/crypto";
import { randomBase62 } from "../platform/lib/random";
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "../platform/lib/session-policy";
import {
	deleteSession,
	type FoundSession,
	findSession,
	insertSession,
	listSessionHashes,
	type SessionRow,
	touchSession,
	type UserRow,
} from "./users-repo";

export { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS };

/** `lastSeenAt` is written at most this often, not on every page. */
const TOUCH_EVERY_MS = 5 * 60_000;

export interface DashboardUser {
	user: UserRow;
	session: SessionRow;
	/** The user acting through the API's services: the account, its limits, the role's scopes. */
	auth: AuthContext;
}

export type DashBindings = {
	Bindings: Env;
	Variables: AppBindings["Variables"] & { dashboard: DashboardUser };
};

/** Members work on interviews; owners have every scope. */
export const MEMBER_SCOPES: Scope[] = [
	"interviews:read",
	"interviews:write",
	"interviews:delete",
	"interviews:read_recordings",
	"analytics:read",
];

/** Over plain local http the cookie cannot be `Secure`, so neither can it take the `__Host-` prefix. */
export function secureRequest(c: Context): boolean {
	return new URL(c.req.url).protocol === "https:";
}

export function cookieName(c: Context): string {
	return secureRequest(c) ? "__Host-dash_session" : "dash_session";
}

export function hashToken(token: string): Promise<string> {
	return sha256Hex(token);
}

/** Signs the user in: a new random token, stored only as its SHA-256, sent in the cookie. */
export async function startSession(c: Context<AppBindings>, user: UserRow): Promise<void> {
	const token = randomBase62(43);
	const now = c.get("now");
	await insertSession(getDb(c.env.DB), {
		tokenHash: await hashToken(token),
		userId: user.id,
		accountId: user.accountId,
		csrfToken: randomBase62(32),
		createdAt: now,
		lastSeenAt: now,
		expiresAt: now + SESSION_ABSOLUTE_MS,
	});
	setCookie(c, cookieName(c), token, {
		path: "/",
		httpOnly: true,
		sameSite: "Lax",
		secure: secureRequest(c),
		maxAge: SESSION_ABSOLUTE_MS / 1000,
	});
}

/** Signs out: the session row is deleted (the token stops working at once) and the cookie cleared. */
export async function endSession(c: Context<AppBindings>): Promise<void> {
	const token = getCookie(c, cookieName(c));
	if (token && token.length <= 100) {
		const db = getDb(c.env.DB);
		const hash = await hashToken(token);
		await deleteSession(db, hash);
		// The session's open live views close now (the rooms' close code 4003, "Signed out.").
		await closeLiveViews(c.env, db, [hash]);
	}
	setCookie(c, cookieName(c), "", {
		path: "/",
		httpOnly: true,
		sameSite: "Lax",
		secure: secureRequest(c),
		maxAge: 0,
	});
}

/** The SHA-256 of the request's session cookie, or null (no cookie, or not one of ours). */
export async function sessionHashOf(c: Context<AppBindings>): Promise<string | null> {
	const token = getCookie(c, cookieName(c));
	if (!token || token.length > 100) return null;
	return hashToken(token);
}

/** The signed-in user of the request, or null (no cookie, unknown, idle or expired session). */
export async function currentUser(c: Context<AppBindings>): Promise<DashboardUser | null> {
	const hash = await sessionHashOf(c);
	if (hash === null) return null;
	// With its user and account: a session of an account that no longer exists is not found.
	return signedIn(c, hash, await findSession(getDb(c.env.DB), hash));
}

/**
 * Dashboard users see the account's production data (test-mode interviews among it) and, behind
 * its own switch, the dev sandbox's (interviews made with dev keys).
 */
export const DASHBOARD_DATA = "production" as const;
export const DASHBOARD_ENVIRONMENTS: readonly DataEnvironment[] = [DASHBOARD_DATA, "dev"];

/** The user's standing in `environment`'s data: in the dev sandbox, as a dev key would be. */
export function authIn(auth: AuthContext, environment: DataEnvironment): AuthContext {
	return environment === "dev" ? { ...auth, keyEnvironment: "dev", dataEnvironment: "dev" } : auth;
}

/**
 * The user of a session read by its hash (`findSession`, or carried by a list's rows), or null: an
 * unknown session, or one idle or expired, which is deleted now with its live views.
 */
export async function signedIn(
	c: Context<AppBindings>,
	hash: string,
	found: FoundSession | undefined,
): Promise<DashboardUser | null> {
	if (!found) return null;
	const db = getDb(c.env.DB);
	const now = c.get("now");
	const { session, user, account } = found;
	if (session.expiresAt <= now || session.lastSeenAt + SESSION_IDLE_MS <= now) {
		await deleteSession(db, hash);
		await closeLiveViews(c.env, db, [hash]);
		return null;
	}
	if (now - session.lastSeenAt > TOUCH_EVERY_MS) await touchSession(db, hash, now);
	const plan = account.plan as PlanId;
	const auth: AuthContext = {
		accountId: account.id,
		companyName: account.companyName,
		plan,
		limits: effectiveLimits(plan, {
			requests_per_minute: account.requestsPerMinuteOverride,
			concurrent_interviews: account.concurrentInterviewsOverride,
			monthly_interviews: account.monthlyInterviewsOverride,
		}),
		// The user stands where a key would: actions are attributed to `usr_...`.
		keyId: user.id,
		keyEnvironment: "live",
		dataEnvironment: DASHBOARD_DATA,
		permissions: user.role === "owner" ? [...SCOPES] : MEMBER_SCOPES,
		expiresAt: null,
	};
	return { user, session, auth };
}

/** A user removed: their sessions' live views close (the sessions themselves are deleted with the user). */
export async function closeLiveViewsOfUser(env: Env, userId: string): Promise<void> {
	const db = getDb(env.DB);
	const rows = await listSessionHashes(db, userId);
	await closeLiveViews(env, db, rows);
}

/**
 * Same-origin paths only: `/dashboard/...`, never `//host` or a scheme. Control characters and
 * whitespace are refused too: a browser drops tabs and newlines from a URL, so `/<tab>/host`
 * would lead to `//host`.
 */
export function safeNext(value: string | undefined | null): string {
	if (!value?.startsWith("/") || value.startsWith("//") || [...value].some(unsafeInNext)) return "/dashboard";
	return value;
}

/** A backslash, whitespace or a control character: what browsers rewrite or drop in a URL. */
function unsafeInNext(char: string): boolean {
	const code = char.charCodeAt(0);
	return char === "\\" || /\s/.test(char) || code < 0x20 || code === 0x7f;
}

/** Every dashboard page but sign-in: without a session, to the sign-in page and back. */
export const requireUser: MiddlewareHandler<DashBindings> = async (c, next) => {
	const found = await currentUser(c as unknown as Context<AppBindings>);
	if (!found) return toSignIn(c);
	c.set("dashboard", found);
	await next();
};

/** To the sign-in page, and back to this page after it (a form's post: back to the dashboard). */
export function toSignIn(c: Context): Response {
	const url = new URL(c.req.url);
	const next = c.req.method === "GET" ? `${url.pathname}${url.search}` : "/dashboard";
	return c.redirect(`/dashboard/login?next=${encodeURIComponent(next)}`, 303);
}
