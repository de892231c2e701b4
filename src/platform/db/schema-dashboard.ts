import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Dashboard users (docs/dashboard.md): people who sign in to one account with a role. The
 * password is stored only as PBKDF2-SHA256 (`pbkdf2$<iterations>$<salt>$<hash>`), never itself.
 */
export const users = sqliteTable(
	"users",
	{
		id: text("id").primaryKey(),
		accountId: text("account_id").notNull(),
		email: text("email").notNull(),
		/** Lower-cased e-mail: unique across the service, so sign-in needs no account. */
		emailLower: text("email_lower").notNull(),
		role: text("role", { enum: ["owner", "member"] }).notNull(),
		/** Null until an invited user sets a password. */
		passwordHash: text("password_hash"),
		createdAt: integer("created_at").notNull(),
		updatedAt: integer("updated_at").notNull(),
	},
	(t) => [uniqueIndex("users_email_lower_idx").on(t.emailLower), index("users_account_idx").on(t.accountId)],
);

/** Signed-in sessions: only the SHA-256 of the cookie's token is kept. */
export const sessions = sqliteTable(
	"sessions",
	{
		tokenHash: text("token_hash").primaryKey(),
		userId: text("user_id").notNull(),
		accountId: text("account_id").notNull(),
		/** The form token of this session (CSRF): random, compared on every state-changing post. */
		csrfToken: text("csrf_token").notNull(),
		createdAt: integer("created_at").notNull(),
		lastSeenAt: integer("last_seen_at").notNull(),
		expiresAt: integer("expires_at").notNull(),
	},
	(t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

/** Invitations to set a password: only the SHA-256 of the link's token is kept. */
export const invitations = sqliteTable(
	"invitations",
	{
		tokenHash: text("token_hash").primaryKey(),
		userId: text("user_id").notNull(),
		accountId: text("account_id").notNull(),
		createdAt: integer("created_at").notNull(),
		expiresAt: integer("expires_at").notNull(),
		usedAt: integer("used_at"),
	},
	(t) => [index("invitations_user_idx").on(t.userId)],
);

/**
 * Failed sign-ins, one row per failure, keyed by what they count against (`email:<lower>` or
 * `ip:<address>`): the lockout counts the rows of the last 15 minutes.
 */
export const signInFailures = sqliteTable(
	"sign_in_failures",
	{
		id: integer("id").primaryKey({ autoIncrement: true }),
		subject: text("subject").notNull(),
		createdAt: integer("created_at").notNull(),
	},
	(t) => [index("sign_in_failures_subject_idx").on(t.subject, t.createdAt)],
);

/**
 * Short-lived single-interview observer tickets for the dashboard's live view: the browser
 * holds one of these, never an API key. Only the SHA-256 of the ticket is kept.
 */
export const observerTickets = sqliteTable(
	"observer_tickets",
	{
		ticketHash: text("ticket_hash").primaryKey(),
		userId: text("user_id").notNull(),
		accountId: text("account_id").notNull(),
		interviewId: text("interview_id").notNull(),
		/** The interview's data environment: the dashboard watches its account's production and dev data. */
		environment: text("environment", { enum: ["production", "dev"] })
			.notNull()
			.default("production"),
		expiresAt: integer("expires_at").notNull(),
		/** The SHA-256 of the session the ticket was issued to (its `sessions.token_hash`). */
		sessionHash: text("session_hash"),
		/**
		 * Set when the ticket opened its connection: the row then records a live view of that session,
		 * which sign-out closes (src/interviews/room/observer-tickets.ts), until the session ends.
		 */
		usedAt: integer("used_at"),
	},
	(t) => [index("observer_tickets_session_idx").on(t.sessionHash)],
);
