import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Times are epoch milliseconds (integers): compact, indexable, rendered as ISO 8601 at the edge.

export const accounts = sqliteTable("accounts", {
	id: text("id").primaryKey(),
	companyName: text("company_name").notNull(),
	plan: text("plan", {
		enum: ["free", "starter", "professional", "enterprise"],
	}).notNull(),
	webhookSecret: text("webhook_secret").notNull(),
	requestsPerMinuteOverride: integer("requests_per_minute_override"),
	concurrentInterviewsOverride: integer("concurrent_interviews_override"),
	monthlyInterviewsOverride: integer("monthly_interviews_override"),
	createdAt: integer("created_at").notNull(),
	updatedAt: integer("updated_at").notNull(),
});

export const apiKeys = sqliteTable(
	"api_keys",
	{
		id: text("id").primaryKey(),
		accountId: text("account_id")
			.notNull()
			.references(() => accounts.id),
		name: text("name").notNull(),
		environment: text("environment", {
			enum: ["live", "test", "dev"],
		}).notNull(),
		keyHash: text("key_hash").notNull(),
		keyPrefix: text("key_prefix").notNull(),
		permissions: text("permissions", { mode: "json" }).$type<string[]>().notNull(),
		expiresAt: integer("expires_at"),
		revokedAt: integer("revoked_at"),
		createdAt: integer("created_at").notNull(),
		/** The last request with the key, written at most once per 5 minutes (src/accounts/key-usage.ts). */
		lastUsedAt: integer("last_used_at"),
	},
	(t) => [
		uniqueIndex("api_keys_key_hash_idx").on(t.keyHash),
		index("api_keys_account_idx").on(t.accountId, t.createdAt),
	],
);

/**
 * The queryable projection of interviews for lists and filters. The interview's Durable Object
 * holds the authoritative state and writes this row (guarded by `version`) from its outbox.
 */
export const interviews = sqliteTable(
	"interviews",
	{
		id: text("id").primaryKey(),
		accountId: text("account_id").notNull(),
		environment: text("environment", { enum: ["production", "dev"] }).notNull(),
		testMode: integer("test_mode", { mode: "boolean" }).notNull(),
		status: text("status", {
			enum: ["scheduled", "in_progress", "completed", "cancelled"],
		}).notNull(),
		candidateEmail: text("candidate_email").notNull(),
		/** Lower-cased e-mail: the filter is exact but case-insensitive. */
		candidateEmailLower: text("candidate_email_lower").notNull(),
		candidateName: text("candidate_name"),
		position: text("position").notNull(),
		/**
		 * Lower-cased position, for the case-insensitive substring filter: SQLite's `lower()` and
		 * `LIKE` fold ASCII letters only, so the text is folded here, by JavaScript, for every script.
		 */
		positionLower: text("position_lower").notNull().default(""),
		skills: text("skills", { mode: "json" }).$type<string[]>().notNull(),
		difficulty: text("difficulty").notNull(),
		durationMinutes: integer("duration_minutes").notNull(),
		companyName: text("company_name"),
		scheduledAt: integer("scheduled_at").notNull(),
		startedAt: integer("started_at"),
		completedAt: integer("completed_at"),
		cancelledAt: integer("cancelled_at"),
		overallScore: integer("overall_score"),
		recommendation: text("recommendation"),
		createdAt: integer("created_at").notNull(),
		updatedAt: integer("updated_at").notNull(),
		version: integer("version").notNull(),
	},
	(t) => [
		index("interviews_account_created_idx").on(t.accountId, t.environment, t.createdAt, t.id),
		index("interviews_account_status_created_idx").on(
			t.accountId,
			t.environment,
			t.status,
			t.createdAt,
			t.id,
		),
		index("interviews_account_email_created_idx").on(
			t.accountId,
			t.environment,
			t.candidateEmailLower,
			t.createdAt,
			t.id,
		),
		index("interviews_account_scheduled_idx").on(t.accountId, t.environment, t.scheduledAt),
		// The dev-data purge finds old sandbox interviews across accounts.
		index("interviews_environment_created_idx").on(t.environment, t.createdAt),
	],
);

/** The event log: every event once per occurrence, in the order it happened (`seq`). */
export const events = sqliteTable(
	"events",
	{
		seq: integer("seq").primaryKey({ autoIncrement: true }),
		id: text("id").notNull(),
		accountId: text("account_id").notNull(),
		environment: text("environment", { enum: ["production", "dev"] }).notNull(),
		type: text("type").notNull(),
		interviewId: text("interview_id"),
		testMode: integer("test_mode", { mode: "boolean" }).notNull(),
		data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
		createdAt: integer("created_at").notNull(),
	},
	(t) => [
		uniqueIndex("events_id_idx").on(t.id),
		index("events_account_seq_idx").on(t.accountId, t.environment, t.seq),
		index("events_account_type_seq_idx").on(t.accountId, t.environment, t.type, t.seq),
		index("events_interview_seq_idx").on(t.interviewId, t.seq),
		/** Events by age (the retention sweep, docs/retention.md). */
		index("events_created_idx").on(t.createdAt),
	],
);

/** Credits ledger: grants, debits and refunds; the balance is their sum. */
export const creditLedger = sqliteTable(
	"credit_ledger",
	{
		id: text("id").primaryKey(),
		accountId: text("account_id").notNull(),
		interviewId: text("interview_id"),
		kind: text("kind", {
			enum: ["grant", "debit", "refund", "adjustment"],
		}).notNull(),
		amount: integer("amount").notNull(),
		createdAt: integer("created_at").notNull(),
	},
	(t) => [
		index("credit_ledger_account_idx").on(t.accountId, t.createdAt),
		uniqueIndex("credit_ledger_interview_kind_idx")
			.on(t.interviewId, t.kind)
			.where(sql`interview_id IS NOT NULL`),
	],
);
export * from "./schema-dashboard";
export * from "./schema-email";
export * from "./schema-limits";
export * from "./schema-performance";
export * from "./schema-seeds";
export * from "./schema-webhooks";
