import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * One row per live interview counted toward its account's monthly limit. `period` is the
 * calendar month (UTC) of creation, `YYYY-MM`; a cancellation while scheduled sets `released_at`,
 * which takes the interview out of the count. Written in the same D1 batch as the credit debit.
 */
export const monthlyInterviewUsage = sqliteTable(
	"monthly_interview_usage",
	{
		interviewId: text("interview_id").primaryKey(),
		accountId: text("account_id").notNull(),
		period: text("period").notNull(),
		createdAt: integer("created_at").notNull(),
		releasedAt: integer("released_at"),
	},
	(t) => [
		index("monthly_interview_usage_account_period_idx").on(t.accountId, t.period, t.releasedAt),
		// The orphan-admission sweep reads the rows admitted since its last run.
		index("monthly_interview_usage_created_idx").on(t.createdAt),
	],
);

/**
 * How far each housekeeping sweep has got, by name: the next run starts there, so every row a
 * sweep looks at is looked at once.
 */
export const sweepMarks = sqliteTable("sweep_marks", {
	name: text("name").primaryKey(),
	until: integer("until").notNull(),
});

export const IDEMPOTENCY_STATES = ["in_flight", "done"] as const;

/**
 * Idempotency keys, per account and key environment (live, test, dev), kept 24 hours. The row is
 * the in-flight lock while the first request runs (`lock_id`, `locked_until`) and then holds its
 * response, which every retry with the same key and fingerprint gets back.
 */
export const idempotencyKeys = sqliteTable(
	"idempotency_keys",
	{
		accountId: text("account_id").notNull(),
		environment: text("environment", { enum: ["live", "test", "dev"] }).notNull(),
		key: text("key").notNull(),
		/** SHA-256 of method, path, canonical query and canonical JSON body. */
		fingerprint: text("fingerprint").notNull(),
		state: text("state", { enum: IDEMPOTENCY_STATES }).notNull(),
		/** The request id of the attempt holding the lock (and, once done, of the stored response). */
		lockId: text("lock_id").notNull(),
		lockedUntil: integer("locked_until").notNull(),
		responseStatus: integer("response_status"),
		responseBody: text("response_body"),
		/** The headers a stored refusal set itself (a `QUOTA_EXCEEDED`'s `Retry-After` and limits), replayed with it. */
		responseHeaders: text("response_headers", { mode: "json" }).$type<Record<string, string>>(),
		createdAt: integer("created_at").notNull(),
		expiresAt: integer("expires_at").notNull(),
	},
	(t) => [
		primaryKey({ columns: [t.accountId, t.environment, t.key] }),
		index("idempotency_keys_expires_idx").on(t.expiresAt),
	],
);
