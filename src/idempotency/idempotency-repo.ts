import { and, eq, lte, sql } from "drizzle-orm";
import type { Db } from "../platform/db/client";
import { idempotencyKeys } from "../platform/db/schema";

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

export interface KeyScope {
	accountId: string;
	environment: "live" | "test" | "dev";
	key: string;
}

function scoped(scope: KeyScope) {
	return and(
		eq(idempotencyKeys.accountId, scope.accountId),
		eq(idempotencyKeys.environment, scope.environment),
		eq(idempotencyKeys.key, scope.key),
	);
}

/**
 * Takes the key for this attempt in one statement: a new key, an expired one, or a same-request
 * lock whose lease ran out. Returns whether this attempt holds it now. Parallel attempts with one
 * key meet at the primary key, so exactly one of them wins.
 */
export async function claimKey(
	db: Db,
	scope: KeyScope,
	claim: { fingerprint: string; lockId: string; now: number; lockedUntil: number; expiresAt: number },
): Promise<boolean> {
	const rows = await db
		.insert(idempotencyKeys)
		.values({
			...scope,
			fingerprint: claim.fingerprint,
			state: "in_flight",
			lockId: claim.lockId,
			lockedUntil: claim.lockedUntil,
			responseStatus: null,
			responseBody: null,
			responseHeaders: null,
			createdAt: claim.now,
			expiresAt: claim.expiresAt,
		})
		.onConflictDoUpdate({
			target: [idempotencyKeys.accountId, idempotencyKeys.environment, idempotencyKeys.key],
			set: {
				fingerprint: sql`excluded.fingerprint`,
				state: sql`excluded.state`,
				lockId: sql`excluded.lock_id`,
				lockedUntil: sql`excluded.locked_until`,
				responseStatus: sql`NULL`,
				responseBody: sql`NULL`,
				responseHeaders: sql`NULL`,
				createdAt: sql`excluded.created_at`,
				expiresAt: sql`excluded.expires_at`,
			},
			setWhere: sql`${idempotencyKeys.expiresAt} <= ${claim.now} OR (${idempotencyKeys.state} = 'in_flight' AND ${idempotencyKeys.lockedUntil} <= ${claim.now} AND ${idempotencyKeys.fingerprint} = excluded.fingerprint)`,
		})
		.returning({ lockId: idempotencyKeys.lockId });
	return rows[0]?.lockId === claim.lockId;
}

export function findKey(db: Db, scope: KeyScope): Promise<IdempotencyRow | undefined> {
	return db.select().from(idempotencyKeys).where(scoped(scope)).get();
}

/**
 * Stores the response of the attempt holding the lock (and only of that attempt), with the
 * headers a refusal set itself, if any.
 */
export function completeKey(
	db: Db,
	scope: KeyScope,
	lockId: string,
	status: number,
	body: string,
	headers: Record<string, string> | null = null,
) {
	return db
		.update(idempotencyKeys)
		.set({ state: "done", responseStatus: status, responseBody: body, responseHeaders: headers })
		.where(and(scoped(scope), eq(idempotencyKeys.lockId, lockId), eq(idempotencyKeys.state, "in_flight")))
		.run();
}

/** Lets go of the key without a stored result (a 5xx), so a retry runs the request again. */
export function releaseKey(db: Db, scope: KeyScope, lockId: string) {
	return db
		.delete(idempotencyKeys)
		.where(and(scoped(scope), eq(idempotencyKeys.lockId, lockId), eq(idempotencyKeys.state, "in_flight")))
		.run();
}

/** Deletes up to `limit` expired keys; returns how many went. */
export async function purgeExpiredKeys(db: Db, now: number, limit: number): Promise<number> {
	const result = await db.run(sql`
		DELETE FROM idempotency_keys WHERE rowid IN (
			SELECT rowid FROM idempotency_keys WHERE ${lte(idempotencyKeys.expiresAt, now)} LIMIT ${limit}
		)
	`);
	return result.meta.changes ?? 0;
}
