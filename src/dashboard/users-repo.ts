import { and, count, desc, eq, gt, inArray, isNull, lt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../platform/db/client";
import { jsonObjectOf, readJsonRow } from "../platform/db/json-row";
import { afterCursor } from "../platform/db/keyset";
import {
	accounts,
	invitations,
	observerTickets,
	sessions,
	signInFailures,
	userEmails,
	users,
} from "../platform/db/schema";
import { runRows, Template } from "../platform/db/templates";

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type Role = UserRow["role"];
export const ROLES = ["owner", "member"] as const;

export function findUserByEmail(db: Db, email: string) {
	return db.select().from(users).where(eq(users.emailLower, email.toLowerCase())).get();
}

export function findUser(db: Db, accountId: string, id: string) {
	return db
		.select()
		.from(users)
		.where(and(eq(users.accountId, accountId), eq(users.id, id)))
		.get();
}

/**
 * A page of the account's users, in the order they joined, after `cursor` (the last user of the
 * page before): up to `limit + 1` rows, the extra one telling that another page follows.
 */
export function listUsersPage(
	db: Db,
	accountId: string,
	limit: number,
	cursor: { createdAt: number; id: string } | null,
) {
	return db
		.select()
		.from(users)
		.where(and(eq(users.accountId, accountId), afterCursor(users.createdAt, users.id, cursor, "asc")))
		.orderBy(users.createdAt, users.id)
		.limit(limit + 1)
		.all();
}

export function listUsers(db: Db, accountId: string) {
	return db.select().from(users).where(eq(users.accountId, accountId)).orderBy(users.createdAt).all();
}

export async function insertUser(db: Db, row: UserRow): Promise<boolean> {
	const result = await db.insert(users).values(row).onConflictDoNothing().run();
	return result.meta.changes === 1;
}

export async function deleteUser(db: Db, accountId: string, id: string): Promise<void> {
	await db.batch([
		db.delete(sessions).where(eq(sessions.userId, id)),
		db.delete(invitations).where(eq(invitations.userId, id)),
		db.delete(observerTickets).where(eq(observerTickets.userId, id)),
		// An invitation not yet sent is not sent: its link would no longer work.
		db.delete(userEmails).where(and(eq(userEmails.userId, id), eq(userEmails.status, "queued"))),
		db.delete(users).where(and(eq(users.accountId, accountId), eq(users.id, id))),
	]);
}

export function setPassword(db: Db, id: string, passwordHash: string, now: number) {
	return db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, id)).run();
}

export function insertSession(db: Db, row: SessionRow) {
	return db.insert(sessions).values(row).run();
}

/** A session with its user and the user's account: built once per isolate, bound per request. */
const sessionByHash = new Template<{ tokenHash: string }>((db) =>
	db
		.select({ session: sessions, user: users, account: accounts })
		.from(sessions)
		.innerJoin(users, eq(users.id, sessions.userId))
		.innerJoin(accounts, eq(accounts.id, users.accountId))
		.where(eq(sessions.tokenHash, sql.placeholder("tokenHash"))),
);

/** A session with its user and the user's account: one round trip for every dashboard request. */
export async function findSession(db: Db, tokenHash: string): Promise<FoundSession | undefined> {
	const [row] = (await runRows(sessionByHash.bind(db, { tokenHash }))) as FoundSession[];
	return row;
}

export type AccountRow = typeof accounts.$inferSelect;
export type FoundSession = { session: SessionRow; user: UserRow; account: AccountRow };

/** A session with its user and the user's account, as `findSession` joins them, by placeholder. */
const fromSession = sql`from ${sessions} inner join ${users} on ${users.id} = ${sessions.userId} inner join ${accounts} on ${accounts.id} = ${users.accountId} where ${sessions.tokenHash} = ${sql.placeholder("sessionHash")}`;

/** The session's account: null for an unknown session. */
const sessionAccountId = sql`(select ${accounts.id} ${fromSession})`;

/** The session with its user and account as one JSON value (read by `readSessionJson`). */
const sessionJson = sql<string>`(select json_object('session', ${jsonObjectOf(sessions)}, 'user', ${jsonObjectOf(users)}, 'account', ${jsonObjectOf(accounts)}) ${fromSession})`;

/**
 * A list owned by the session's account, whose statement reads the session too (`session`, see
 * `readSessionJson`): the page and the session in one D1 round trip. Nothing but the session's
 * own account is read: an unknown session's account is null, which matches no row.
 */
export function sessionOwner(tokenHash: string) {
	return {
		key: "session",
		accountId: sessionAccountId,
		columns: { session: sessionJson },
		values: { sessionHash: tokenHash },
	};
}

/** The session a row carried (`sessionOwner`), as `findSession` reads it; undefined if none. */
export function readSessionJson(value: unknown): FoundSession | undefined {
	if (typeof value !== "string") return undefined;
	const { session, user, account } = JSON.parse(value) as Record<string, Record<string, unknown>>;
	if (!session || !user || !account) return undefined;
	return {
		session: readJsonRow(sessions, session),
		user: readJsonRow(users, user),
		account: readJsonRow(accounts, account),
	};
}

export function touchSession(db: Db, tokenHash: string, now: number) {
	return db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.tokenHash, tokenHash)).run();
}

export async function listSessionHashes(db: Db, userId: string): Promise<string[]> {
	const rows = await db
		.select({ hash: sessions.tokenHash })
		.from(sessions)
		.where(eq(sessions.userId, userId))
		.limit(90)
		.all();
	return rows.map((r) => r.hash);
}

export function deleteSession(db: Db, tokenHash: string) {
	return db.delete(sessions).where(eq(sessions.tokenHash, tokenHash)).run();
}

/**
 * Counts a sign-in attempt before its password is checked: one D1 batch (one transaction, so
 * attempts made at once are counted one after another) records a failure for each subject, reads
 * how many each has since `since` before this one, and deletes failures too old to count. The
 * caller keeps the rows for a wrong password and forgets them otherwise (`forgetAttempt`), so
 * parallel tries cannot all be checked before the first of them is counted.
 */
export async function countAttempt(
	db: Db,
	subjects: readonly string[],
	now: number,
	since: number,
): Promise<{ ids: number[]; earlier: number[] }> {
	const counted = (subject: string) =>
		db
			.select({ n: count() })
			.from(signInFailures)
			.where(and(eq(signInFailures.subject, subject), gt(signInFailures.createdAt, since)));
	const [inserted, ...rest] = await db.batch([
		db
			.insert(signInFailures)
			.values(subjects.map((subject) => ({ subject, createdAt: now })))
			.returning({ id: signInFailures.id }),
		...subjects.map(counted),
		// Old failures count for nothing: they are deleted as new ones come.
		db.delete(signInFailures).where(lt(signInFailures.createdAt, since)),
	] as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
	const ids = (inserted as { id: number }[]).map((r) => r.id);
	const earlier = subjects.map((_, i) => Math.max(0, ((rest[i] as { n: number }[])[0]?.n ?? 1) - 1));
	return { ids, earlier };
}

/** Removes an attempt's rows: it was refused unchecked, or its password was right. */
export function forgetAttempt(db: Db, ids: readonly number[]) {
	return db
		.delete(signInFailures)
		.where(inArray(signInFailures.id, [...ids]))
		.run();
}

export function clearFailures(db: Db, subject: string) {
	return db.delete(signInFailures).where(eq(signInFailures.subject, subject)).run();
}

export function insertInvitationQuery(db: Db, row: typeof invitations.$inferInsert) {
	return db.insert(invitations).values(row);
}

export function findInvitation(db: Db, tokenHash: string) {
	return db
		.select({ invitation: invitations, user: users })
		.from(invitations)
		.innerJoin(users, eq(users.id, invitations.userId))
		.where(eq(invitations.tokenHash, tokenHash))
		.get();
}

/**
 * Uses an invitation and sets its user's password, once: one D1 batch whose first statement takes
 * the invitation only while it is unused and unexpired, and whose second sets the password only if
 * the first took it (`changes()`: the rows the statement before it changed). Of two posts of one
 * link at once, one sets its password; the other finds the link used. False: not taken.
 */
export async function redeemInvitation(
	db: Db,
	tokenHash: string,
	userId: string,
	passwordHash: string,
	now: number,
): Promise<boolean> {
	const [taken] = await db.batch([
		db
			.update(invitations)
			.set({ usedAt: now })
			.where(
				and(
					eq(invitations.tokenHash, tokenHash),
					eq(invitations.userId, userId),
					isNull(invitations.usedAt),
					gt(invitations.expiresAt, now),
				),
			)
			.returning({ userId: invitations.userId }),
		db
			.update(users)
			.set({ passwordHash, updatedAt: now })
			.where(and(eq(users.id, userId), sql`changes() = 1`)),
	]);
	return taken.length === 1;
}

export function latestInvitations(db: Db, accountId: string) {
	return db
		.select()
		.from(invitations)
		.where(eq(invitations.accountId, accountId))
		.orderBy(desc(invitations.createdAt))
		.limit(100)
		.all();
}
