import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * How many interviews each account has per environment and status, kept by SQLite triggers on
 * `interviews` (migration `performance`): every insert, status change and delete of a projection
 * row adjusts it in the same statement, whoever writes the row. Lists filtered by nothing but
 * the status read `total_count` here instead of counting rows (docs/performance.md).
 */
export const interviewCounts = sqliteTable(
	"interview_counts",
	{
		accountId: text("account_id").notNull(),
		environment: text("environment", { enum: ["production", "dev"] }).notNull(),
		status: text("status", {
			enum: ["scheduled", "in_progress", "completed", "cancelled"],
		}).notNull(),
		count: integer("count").notNull(),
	},
	(t) => [primaryKey({ columns: [t.accountId, t.environment, t.status] })],
);
