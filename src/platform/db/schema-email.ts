import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const CANDIDATE_EMAIL_TEMPLATES = ["invitation", "update", "cancellation"] as const;
export type CandidateEmailTemplate = (typeof CANDIDATE_EMAIL_TEMPLATES)[number];

export const CANDIDATE_EMAIL_STATUSES = ["queued", "sent", "failed"] as const;
export type CandidateEmailStatus = (typeof CANDIDATE_EMAIL_STATUSES)[number];

/**
 * Every e-mail to a candidate, rendered when it is queued: what is stored here is exactly what
 * the queue consumer sends, so tests and callers can read it. The id is the caller's message id,
 * which makes queueing idempotent.
 */
export const candidateEmails = sqliteTable(
	"candidate_emails",
	{
		id: text("id").primaryKey(),
		interviewId: text("interview_id").notNull(),
		accountId: text("account_id").notNull(),
		environment: text("environment", { enum: ["production", "dev"] }).notNull(),
		template: text("template", { enum: CANDIDATE_EMAIL_TEMPLATES }).notNull(),
		sender: text("sender").notNull(),
		recipient: text("recipient").notNull(),
		recipientName: text("recipient_name"),
		senderName: text("sender_name").notNull(),
		subject: text("subject").notNull(),
		text: text("text").notNull(),
		html: text("html").notNull(),
		ics: text("ics").notNull(),
		/** The calendar SEQUENCE carried by `ics`. */
		sequence: integer("sequence").notNull(),
		status: text("status", { enum: CANDIDATE_EMAIL_STATUSES }).notNull(),
		/** Send attempts started so far (claimed by a consumer), whatever their outcome. */
		attempts: integer("attempts").notNull(),
		lastError: text("last_error"),
		/** While set and in the future, one consumer holds the message and others leave it alone. */
		leaseUntil: integer("lease_until"),
		/** The id the e-mail binding returned on success. */
		providerMessageId: text("provider_message_id"),
		createdAt: integer("created_at").notNull(),
		updatedAt: integer("updated_at").notNull(),
		sentAt: integer("sent_at"),
	},
	(t) => [
		index("candidate_emails_interview_idx").on(t.interviewId, t.createdAt),
		index("candidate_emails_status_idx").on(t.status, t.createdAt),
		/** Settled e-mails by their last change (the retention sweep, docs/retention.md). */
		index("candidate_emails_final_idx").on(t.updatedAt).where(sql`${t.status} <> 'queued'`),
	],
);

export const USER_EMAIL_TEMPLATES = ["user_invitation"] as const;
export type UserEmailTemplate = (typeof USER_EMAIL_TEMPLATES)[number];

/**
 * E-mails to dashboard users (an owner's or the admin API's invitation), recorded before they
 * are queued, with the same lifecycle columns as `candidate_emails` (the consumer, the resend
 * sweep and retention treat both alike). The text and HTML are stored with the placeholder
 * `LINK_PLACEHOLDER` where the invitation link goes: the link's token is never stored, only its
 * SHA-256 (in `invitations`); the consumer derives it again from `ADMIN_TOKEN` and the row's id
 * when it sends (`src/email/user-email.ts`).
 */
export const userEmails = sqliteTable(
	"user_emails",
	{
		id: text("id").primaryKey(),
		accountId: text("account_id").notNull(),
		userId: text("user_id").notNull(),
		template: text("template", { enum: USER_EMAIL_TEMPLATES }).notNull(),
		sender: text("sender").notNull(),
		senderName: text("sender_name").notNull(),
		recipient: text("recipient").notNull(),
		subject: text("subject").notNull(),
		text: text("text").notNull(),
		html: text("html").notNull(),
		/** Everything of the link but its token: `{app_url}/dashboard/invitation#`. */
		linkBase: text("link_base").notNull(),
		status: text("status", { enum: CANDIDATE_EMAIL_STATUSES }).notNull(),
		attempts: integer("attempts").notNull(),
		lastError: text("last_error"),
		leaseUntil: integer("lease_until"),
		providerMessageId: text("provider_message_id"),
		createdAt: integer("created_at").notNull(),
		updatedAt: integer("updated_at").notNull(),
		sentAt: integer("sent_at"),
	},
	(t) => [
		index("user_emails_user_idx").on(t.userId, t.createdAt),
		index("user_emails_status_idx").on(t.status, t.createdAt),
		index("user_emails_final_idx").on(t.updatedAt).where(sql`${t.status} <> 'queued'`),
	],
);
