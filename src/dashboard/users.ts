import { z } from "zod";
import { enqueueUserEmail, insertUserEmail, invitationToken, userInvitationRow } from "../email/user-email";
import { getDb } from "../platform/db/client";
import { users } from "../platform/db/schema";
import { AppError, validationError } from "../platform/http/errors";
import { errorText } from "../platform/lib/error-text";
import { newId, randomBase62 } from "../platform/lib/random";
import { hashPassword } from "./passwords";
import { hashToken } from "./session";
import {
	findUserByEmail,
	insertInvitationQuery,
	insertUser,
	ROLES,
	type Role,
	type UserRow,
} from "./users-repo";

/** An invitation link works for 7 days, once. */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;
export const MIN_PASSWORD_LENGTH = 12;

export const newUserBody = z.strictObject({
	email: z
		.string()
		.trim()
		.max(254)
		.pipe(z.email({ error: "Must be a valid e-mail address" })),
	role: z.enum(ROLES, { error: `Must be one of ${ROLES.join(", ")}` }),
});

export function userView(row: UserRow) {
	return {
		id: row.id,
		account_id: row.accountId,
		email: row.email,
		role: row.role,
		password_set: row.passwordHash !== null,
		created_at: new Date(row.createdAt).toISOString(),
	};
}

export function passwordProblem(password: string): string | null {
	if (password.length < MIN_PASSWORD_LENGTH) return `Must be at least ${MIN_PASSWORD_LENGTH} characters`;
	if (password.length > 200) return "Must be at most 200 characters";
	return null;
}

export interface NewUser {
	accountId: string;
	companyName: string;
	email: string;
	role: Role;
	/** `generate`: a one-time password in the answer; `invite`: an invitation link, also e-mailed. */
	mode: "generate" | "invite";
	/** Who invites (the Team page's owner); null for the admin API. */
	invitedBy: string | null;
	now: number;
	appUrl: string;
}

/**
 * Creates a user of an account. With `mode: "generate"` the user gets a one-time password
 * (returned once, stored only hashed). With `"invite"` no password, and an invitation: the user,
 * the invitation (its token's SHA-256 only) and the invitation e-mail's record (text with a
 * placeholder for the link) are written in one D1 batch, then the e-mail is handed to the e-mail
 * queue; if that hand-over fails, the housekeeping sweep hands it over again. The token is derived
 * from `ADMIN_TOKEN` and the e-mail's id (`invitationToken`), so the consumer can put the link in
 * when it sends, and the answer shows the same link.
 */
export async function createUser(
	env: Env,
	input: NewUser,
): Promise<{ user: UserRow; password?: string; invitationUrl?: string; emailId?: string }> {
	const db = getDb(env.DB);
	const { now } = input;
	const password = input.mode === "generate" ? randomBase62(20) : undefined;
	const user: UserRow = {
		id: newId("usr"),
		accountId: input.accountId,
		email: input.email,
		emailLower: input.email.toLowerCase(),
		role: input.role,
		passwordHash: password ? await hashPassword(password) : null,
		createdAt: now,
		updatedAt: now,
	};
	const taken = () => validationError({ email: "A user with this e-mail address already exists" });
	if (password) {
		if (!(await insertUser(db, user))) throw taken();
		return { user, password };
	}
	if (await findUserByEmail(db, user.email)) throw taken();
	const emailId = newId("msg");
	const token = await invitationToken(env.ADMIN_TOKEN, emailId);
	const expiresAt = now + INVITATION_TTL_MS;
	// The token goes in the fragment: browsers never send it, so no request log holds it.
	const linkBase = `${input.appUrl}/dashboard/invitation#`;
	const email = userInvitationRow(
		env,
		{
			messageId: emailId,
			accountId: input.accountId,
			userId: user.id,
			to: user.email,
			linkBase,
			companyName: input.companyName,
			role: input.role,
			invitedBy: input.invitedBy,
			expiresAt,
		},
		now,
	);
	try {
		// One batch: a user is never left without the invitation and its e-mail, nor they without it.
		await db.batch([
			db.insert(users).values(user),
			insertInvitationQuery(db, {
				tokenHash: await hashToken(token),
				userId: user.id,
				accountId: input.accountId,
				createdAt: now,
				expiresAt,
				usedAt: null,
			}),
			insertUserEmail(db, email),
		]);
	} catch (error) {
		// The e-mail taken between the check and the batch (unique index): nothing was written.
		if (await findUserByEmail(db, user.email)) throw taken();
		throw error;
	}
	try {
		await enqueueUserEmail(env, emailId);
	} catch (error) {
		// Recorded: the housekeeping sweep hands it to the queue again within minutes.
		console.warn(
			JSON.stringify({ message: "invitation e-mail not queued", email_id: emailId, error: errorText(error) }),
		);
	}
	return { user, invitationUrl: `${linkBase}${token}`, emailId };
}

export function userNotFound(id: string): AppError {
	return new AppError("NOT_FOUND", `No user with id '${id}' exists on this account.`, { id });
}
