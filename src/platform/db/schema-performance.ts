import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * How many interviews each account has per environment, test mode and status, kept by SQLite
 * triggers on `interviews` (migrations `performance` and `counts_by_test_mode`): every insert,
 * status change and delete of a projection row adjusts it in the same statement, whoever writes
 * the row. Lists filtered by nothing but the status and test mode (the API's list, the
 * dashboard's live and test views) read `total_count` here instead of counting rows
 * (docs/performance.md).
 */
export const interviewCounts = sqliteTable(
	"interview_counts",
	{
		accountId: text("account_id").notNull(),
		environment: text("environment", { enum: ["production", "dev"] }).notNull(),
		testMode: integer("test_mode", { mode: "boolean" }).notNull(),
		status: text("status", {
			enum: ["scheduled", "in_progress", "completed", "cancelled"],
		}).notNull(),
		count: integer("count").notNull(),
	},
	(t) => [primaryKey({ columns: [t.accountId, t.environment, t.testMode, t.status] })],
);
