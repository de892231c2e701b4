import { and, asc, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "../platform/db/client";
import { userEmails } from "../platform/db/schema";
import { escapeHtml } from "./format";
import { senderAddress } from "./identity";
import type { EmailQueueMessage } from "./model";
import { LINK_PLACEHOLDER, renderUserInvitation, type UserInvitationDetails } from "./user-invitation";

export type UserEmailRow = typeof userEmails.$inferSelect;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** 62^43 > 2^256: every HMAC value has its own 43-character token. */
export const INVITATION_TOKEN_LENGTH = 43;

/**
 * The invitation link's token for the e-mail `emailId`: HMAC-SHA256 keyed with `ADMIN_TOKEN` over
 * a label and the id, written in base62. Nothing stores it: `invitations` holds its SHA-256 and
 * the e-mail row holds the id, so the consumer can put the link in the message when it sends and
 * D1 alone never gives the link away. Whoever holds `ADMIN_TOKEN` can already create users, so
 * keying with it grants nothing new; rotating it makes links of unsent invitations wrong (their
 * users are invited again).
 */
export async function invitationToken(adminToken: string | undefined, emailId: string): Promise<string> {
	if (!adminToken) throw new Error("ADMIN_TOKEN is not set: invitation links cannot be made");
	const key = await crypto.subtle.importKey(
		"raw",
		new TextEncoder().encode(adminToken),
		{ name: "HMAC", hash: "SHA-256" },
		false,
		["sign"],
	);
	const mac = new Uint8Array(
		await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`dashboard-invitation:${emailId}`)),
	);
	let n = 0n;
	for (const byte of mac) n = (n << 8n) | BigInt(byte);
	let out = "";
	for (let i = 0; i < INVITATION_TOKEN_LENGTH; i++) {
		out = BASE62[Number(n % 62n)] + out;
		n /= 62n;
	}
	return out;
}

export interface UserInvitationRequest extends UserInvitationDetails {
	/** A fresh `msg_` id: the row's id, the Message-ID and the token's input. */
	messageId: string;
	accountId: string;
	userId: string;
	to: string;
	/** `{app_url}/dashboard/invitation#`: the link without its token. */
	linkBase: string;
}

/** The row to record (rendered, with the link's placeholder); insert it with `insertUserEmail`. */
export function userInvitationRow(env: Pick<Env, "EMAIL_FROM">, req: UserInvitationRequest, now: number) {
	const rendered = renderUserInvitation(req);
	return {
		id: req.messageId,
		accountId: req.accountId,
		userId: req.userId,
		template: "user_invitation" as const,
		sender: senderAddress(env),
		senderName: "Interviews",
		recipient: req.to,
		subject: rendered.subject,
		text: rendered.text,
		html: rendered.html,
		linkBase: req.linkBase,
		status: "queued" as const,
		attempts: 0,
		createdAt: now,
		updatedAt: now,
	};
}

export function insertUserEmail(db: Db, row: typeof userEmails.$inferInsert) {
	return db.insert(userEmails).values(row);
}

function queueMessage(messageId: string): EmailQueueMessage {
	return { kind: "user_email", message_id: messageId };
}

/**
 * Hands a recorded user e-mail to the `interview-emails` queue. When this fails the row stays
 * `queued` and the housekeeping sweep hands it over again (`sweepStaleEmails`).
 */
export async function enqueueUserEmail(env: Env, messageId: string): Promise<void> {
	await env.EMAIL_QUEUE.send(queueMessage(messageId), { contentType: "json" });
}

export function userEmailQueueMessages(ids: readonly string[]) {
	return ids.map((id) => ({ body: queueMessage(id), contentType: "json" as const }));
}

/** The stored text and HTML with the invitation link put in (escaped for the HTML part). */
export async function withLink(env: Pick<Env, "ADMIN_TOKEN">, row: UserEmailRow) {
	const link = `${row.linkBase}${await invitationToken(env.ADMIN_TOKEN, row.id)}`;
	return {
		text: row.text.replaceAll(LINK_PLACEHOLDER, link),
		html: row.html.replaceAll(LINK_PLACEHOLDER, escapeHtml(link)),
	};
}

export async function getUserEmail(db: Db, id: string): Promise<UserEmailRow | null> {
	const rows = await db.select().from(userEmails).where(eq(userEmails.id, id)).limit(1);
	return rows[0] ?? null;
}

/** The e-mails to one user, oldest first. */
export function listUserEmails(db: Db, userId: string): Promise<UserEmailRow[]> {
	return db
		.select()
		.from(userEmails)
		.where(eq(userEmails.userId, userId))
		.orderBy(asc(userEmails.createdAt), asc(userEmails.id));
}

/** As `claimCandidateEmail`: counts the attempt and holds a lease; null when not sendable now. */
export async function claimUserEmail(db: Db, id: string, now: number, leaseMs: number) {
	const rows = await db
		.update(userEmails)
		.set({ attempts: sql`${userEmails.attempts} + 1`, leaseUntil: now + leaseMs, updatedAt: now })
		.where(
			and(
				eq(userEmails.id, id),
				eq(userEmails.status, "queued"),
				or(isNull(userEmails.leaseUntil), lte(userEmails.leaseUntil, now)),
			),
		)
		.returning();
	return rows[0] ?? null;
}

export function markUserEmailSent(db: Db, id: string, sentAt: number, providerMessageId: string | null) {
	return db
		.update(userEmails)
		.set({ status: "sent", sentAt, providerMessageId, lastError: null, leaseUntil: null, updatedAt: sentAt })
		.where(eq(userEmails.id, id))
		.run();
}

export function recordUserEmailFailure(db: Db, id: string, now: number, error: string, final: boolean) {
	return db
		.update(userEmails)
		.set({
			...(final ? { status: "failed" as const } : {}),
			lastError: error,
			leaseUntil: null,
			updatedAt: now,
		})
		.where(and(eq(userEmails.id, id), eq(userEmails.status, "queued")))
		.run();
}
