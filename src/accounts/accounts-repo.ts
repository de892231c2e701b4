import { and, count, desc, eq, gt, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../platform/db/client";
import { afterCursor } from "../platform/db/keyset";
import { accounts, apiKeys, creditLedger } from "../platform/db/schema";
import { chunks } from "../platform/lib/chunks";

export type AccountRow = typeof accounts.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function insertAccount(db: Db, account: AccountRow, initialCredits: number, ledgerId: string) {
	await db.batch([
		db.insert(accounts).values(account),
		...(initialCredits > 0
			? [
					db.insert(creditLedger).values({
						id: ledgerId,
						accountId: account.id,
						interviewId: null,
						kind: "grant",
						amount: initialCredits,
						createdAt: account.createdAt,
					}),
				]
			: []),
	]);
}

export function findAccount(db: Db, id: string): Promise<AccountRow | undefined> {
	return db.select().from(accounts).where(eq(accounts.id, id)).get();
}

export function listAccounts(db: Db, limit: number, cursor: { createdAt: number; id: string } | null) {
	return db
		.select()
		.from(accounts)
		.where(afterCursor(accounts.createdAt, accounts.id, cursor))
		.orderBy(desc(accounts.createdAt), desc(accounts.id))
		.limit(limit + 1)
		.all();
}

/**
 * An admin change of an account in one D1 transaction: the credit adjustment, if any, only if it
 * keeps the balance at zero or above, and the account's fields only if that adjustment was made.
 * Returns false (nothing written) when the adjustment would make the balance negative.
 */
export async function changeAccount(
	db: Db,
	id: string,
	changes: Partial<AccountRow>,
	adjustment: typeof creditLedger.$inferInsert | null,
): Promise<boolean> {
	const d1 = db.$client;
	const statements: D1PreparedStatement[] = [];
	let condition: SQL | undefined;
	if (adjustment) {
		statements.push(
			d1
				.prepare(
					`INSERT INTO credit_ledger (id, account_id, interview_id, kind, amount, created_at)
					 SELECT ?1, ?2, NULL, ?3, ?4, ?5
					 WHERE (SELECT coalesce(sum(amount), 0) FROM credit_ledger WHERE account_id = ?2) + ?4 >= 0`,
				)
				.bind(adjustment.id, adjustment.accountId, adjustment.kind, adjustment.amount, adjustment.createdAt),
		);
		condition = sql`EXISTS (SELECT 1 FROM ${creditLedger} WHERE ${creditLedger.id} = ${adjustment.id})`;
	}
	const update = db
		.update(accounts)
		.set(changes)
		.where(and(eq(accounts.id, id), condition))
		.toSQL();
	statements.push(d1.prepare(update.sql).bind(...update.params));
	const results = await d1.batch(statements);
	return !adjustment || (results[0]?.meta.changes ?? 0) > 0;
}

export async function creditBalance(db: Db, accountId: string): Promise<number> {
	const row = await db
		.select({ balance: sql<number>`coalesce(sum(${creditLedger.amount}), 0)` })
		.from(creditLedger)
		.where(eq(creditLedger.accountId, accountId))
		.get();
	return Number(row?.balance ?? 0);
}

/**
 * Adds a ledger entry only if the balance stays at or above zero, in one statement, so
 * concurrent writers cannot drive it negative. Returns whether the entry was written.
 */
export function insertApiKey(db: Db, key: ApiKeyRow) {
	return db.insert(apiKeys).values(key).run();
}

/**
 * A page of the account's keys, newest first, after `cursor` (the last key of the page before):
 * up to `limit + 1` rows, the extra one telling that another page follows.
 */
export function listApiKeysPage(
	db: Db,
	accountId: string,
	limit: number,
	cursor: { createdAt: number; id: string } | null,
) {
	return db
		.select()
		.from(apiKeys)
		.where(and(eq(apiKeys.accountId, accountId), afterCursor(apiKeys.createdAt, apiKeys.id, cursor)))
		.orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
		.limit(limit + 1)
		.all();
}

export function listApiKeys(db: Db, accountId: string) {
	return db
		.select()
		.from(apiKeys)
		.where(eq(apiKeys.accountId, accountId))
		.orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
		.all();
}

export function findApiKey(db: Db, accountId: string, keyId: string) {
	return db
		.select()
		.from(apiKeys)
		.where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.id, keyId)))
		.get();
}

/** Which of these keys are still usable at `now` (neither revoked nor expired); 90 ids a statement. */
export async function usableKeyIds(db: Db, ids: readonly string[], now: number): Promise<Set<string>> {
	const parts = await Promise.all(
		chunks([...ids], 90).map((part) =>
			db
				.select({ id: apiKeys.id })
				.from(apiKeys)
				.where(
					and(
						inArray(apiKeys.id, part),
						isNull(apiKeys.revokedAt),
						or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
					),
				)
				.all(),
		),
	);
	return new Set(parts.flat().map((row) => row.id));
}

export function revokeApiKey(db: Db, keyId: string, now: number) {
	return db.update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, keyId)).run();
}

export async function countAccounts(db: Db): Promise<number> {
	const row = await db.select({ n: count() }).from(accounts).get();
	return row?.n ?? 0;
}

export function deleteLedgerEntry(db: Db, id: string) {
	return db.delete(creditLedger).where(eq(creditLedger.id, id)).run();
}

/** The account's latest credit ledger entries, newest first. */
export function latestLedgerEntries(db: Db, accountId: string, limit: number) {
	return db
		.select()
		.from(creditLedger)
		.where(eq(creditLedger.accountId, accountId))
		.orderBy(desc(creditLedger.createdAt), desc(creditLedger.id))
		.limit(limit)
		.all();
}
