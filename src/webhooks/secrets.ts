import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { accounts, webhookPreviousSecrets } from "../db/schema";
import { randomBase62 } from "../lib/random";

/** After a rotation the previous secret keeps signing `X-Service-Signature-Previous` this long. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;

export function newWebhookSecret(): string {
	return `whsec_${randomBase62(40)}`;
}

export interface SigningSecrets {
	current: string;
	previous: string | null;
}

/** The secrets that sign a delivery made at `now`: the previous one only inside its overlap. */
export function signingSecrets(
	current: string,
	previous: { secret: string | null; expiresAt: number | null } | null,
	now: number,
): SigningSecrets {
	const live = previous?.secret && previous.expiresAt !== null && previous.expiresAt > now;
	return { current, previous: live ? (previous.secret as string) : null };
}

export type RotationResult =
	| { status: "ok"; secret: string; previousExpiresAt: number }
	| { status: "not_found" }
	| { status: "conflict" };

/**
 * Replaces the account's secret and keeps the old one as the previous secret for 24 hours (a
 * second rotation inside that window replaces the previous secret too). The swap is guarded on
 * the old value, so two concurrent rotations cannot both win.
 */
export async function rotateWebhookSecret(db: Db, accountId: string, now: number): Promise<RotationResult> {
	const account = await db
		.select({ secret: accounts.webhookSecret })
		.from(accounts)
		.where(eq(accounts.id, accountId))
		.get();
	if (!account) return { status: "not_found" };
	const secret = newWebhookSecret();
	const expiresAt = now + PREVIOUS_SECRET_TTL_MS;
	const [swapped] = await db.batch([
		db
			.update(accounts)
			.set({ webhookSecret: secret, updatedAt: now })
			.where(sql`${accounts.id} = ${accountId} AND ${accounts.webhookSecret} = ${account.secret}`)
			.returning({ id: accounts.id }),
		db.run(sql`
			INSERT INTO ${webhookPreviousSecrets} (account_id, secret, rotated_at, expires_at)
			SELECT ${accountId}, ${account.secret}, ${now}, ${expiresAt}
			WHERE EXISTS (SELECT 1 FROM ${accounts} WHERE id = ${accountId} AND webhook_secret = ${secret})
			ON CONFLICT (account_id) DO UPDATE SET
				secret = excluded.secret, rotated_at = excluded.rotated_at, expires_at = excluded.expires_at
		`),
	]);
	if (swapped.length === 0) return { status: "conflict" };
	return { status: "ok", secret, previousExpiresAt: expiresAt };
}

/** The account's name and signing secrets, as a delivery made at `now` uses them. */
export async function loadSigningAccount(db: Db, accountId: string, now: number) {
	const row = await db
		.select({
			name: accounts.companyName,
			secret: accounts.webhookSecret,
			previous: { secret: webhookPreviousSecrets.secret, expiresAt: webhookPreviousSecrets.expiresAt },
		})
		.from(accounts)
		.leftJoin(webhookPreviousSecrets, eq(webhookPreviousSecrets.accountId, accounts.id))
		.where(eq(accounts.id, accountId))
		.get();
	if (!row) return null;
	return { id: accountId, name: row.name, secrets: signingSecrets(row.secret, row.previous, now) };
}
