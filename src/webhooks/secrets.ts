import { eq } from "drizzle-orm";
import { type Db, guardD1 } from "../platform/db/client";
import { accounts, webhookPreviousSecrets } from "../platform/db/schema";
import { randomBase62 } from "../platform/lib/random";

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
export async function rotateWebhookSecret(
	database: D1Database,
	accountId: string,
	now: number,
	/** The secret the caller saw: the rotation happens only if it is still the current one. */
	from?: string,
): Promise<RotationResult> {
	const d1 = guardD1(database);
	// A caller that read the secret already is not made to read it again: the swap below checks it.
	const account =
		from !== undefined
			? { secret: from }
			: await d1
					.prepare("SELECT webhook_secret AS secret FROM accounts WHERE id = ?")
					.bind(accountId)
					.first<{ secret: string }>();
	if (!account) return { status: "not_found" };
	const secret = newWebhookSecret();
	const expiresAt = now + PREVIOUS_SECRET_TTL_MS;
	// Raw D1: drizzle cannot batch an INSERT ... SELECT.
	const [swapped] = await d1.batch([
		d1
			.prepare(
				"UPDATE accounts SET webhook_secret = ?1, updated_at = ?2 WHERE id = ?3 AND webhook_secret = ?4 RETURNING id",
			)
			.bind(secret, now, accountId, account.secret),
		d1
			.prepare(
				`INSERT INTO webhook_previous_secrets (account_id, secret, rotated_at, expires_at)
				 SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM accounts WHERE id = ?1 AND webhook_secret = ?5)
				 ON CONFLICT (account_id) DO UPDATE SET
				   secret = excluded.secret, rotated_at = excluded.rotated_at, expires_at = excluded.expires_at`,
			)
			.bind(accountId, account.secret, now, expiresAt, secret),
	]);
	if ((swapped?.results.length ?? 0) === 0) return { status: "conflict" };
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
