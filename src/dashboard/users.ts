import { z } from "zod";
import type { Db } from "../platform/db/client";
import { AppError, validationError } from "../platform/http/errors";
import { newId, randomBase62 } from "../platform/lib/random";
import { hashPassword } from "./passwords";
import { hashToken } from "./session";
import { insertInvitation, insertUser, ROLES, type Role, type UserRow } from "./users-repo";

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

/**
 * Creates a user of an account. With `password: "generate"` the user gets a one-time password
 * (returned once, stored only hashed); with `"invite"` no password, and an invitation link whose
 * token is stored only hashed.
 */
export async function createUser(
	db: Db,
	accountId: string,
	email: string,
	role: Role,
	mode: "generate" | "invite",
	now: number,
	appUrl: string,
): Promise<{ user: UserRow; password?: string; invitationUrl?: string }> {
	const password = mode === "generate" ? randomBase62(20) : undefined;
	const user: UserRow = {
		id: newId("usr"),
		accountId,
		email,
		emailLower: email.toLowerCase(),
		role,
		passwordHash: password ? await hashPassword(password) : null,
		createdAt: now,
		updatedAt: now,
	};
	if (!(await insertUser(db, user))) {
		throw validationError({ email: "A user with this e-mail address already exists" });
	}
	if (password) return { user, password };
	const token = randomBase62(40);
	await insertInvitation(db, {
		tokenHash: await hashToken(token),
		userId: user.id,
		accountId,
		createdAt: now,
		expiresAt: now + INVITATION_TTL_MS,
		usedAt: null,
	});
	return { user, invitationUrl: `${appUrl}/dashboard/invitation/${token}` };
}

export function userNotFound(id: string): AppError {
	return new AppError("NOT_FOUND", `No user with id '${id}' exists on this account.`, { id });
}
