import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Interviews created but whose Durable Object has not been opened yet (docs/architecture.md,
 * "Creation without opening the object"). Creation computes the first state in the Worker, writes it here in the
 * same D1 batch as the projection and the `interview.scheduled` event, and the interview's object
 * adopts it on first use (any call, or the wake message at `wake_at`), then deletes the row.
 */
export const interviewSeeds = sqliteTable(
	"interview_seeds",
	{
		id: text("id").primaryKey(),
		/** The interview's first state, as its object stores it (JSON). */
		state: text("state").notNull(),
		/** The creation's outbox items (JSON): replayed by the object on adoption, idempotently. */
		outbox: text("outbox").notNull(),
		/** Timers the creation armed (JSON `[{name, dueAt}]`). */
		timers: text("timers").notNull(),
		/** When the object must be awake at the latest (its earliest timer). */
		wakeAt: integer("wake_at").notNull(),
		createdAt: integer("created_at").notNull(),
		/**
		 * When the housekeeping cron sent this seed's wake message (null: not sent by it). A seed
		 * gets one message per horizon: from creation when it wakes within the horizon then, else
		 * once from the cron (`queueUpcomingWakes`); a lost one is covered by the overdue sweep.
		 */
		wakeSentAt: integer("wake_sent_at"),
		/**
		 * When the interview's object took the seed to adopt it (null: not yet). A claimed seed is
		 * the object's: a change decided against the seed row (src/interviews/creation/seed-commands.ts)
		 * requires it unclaimed, in the same D1 transaction, so the two never both decide.
		 */
		claimedAt: integer("claimed_at"),
	},
	(t) => [
		index("interview_seeds_wake_idx").on(t.wakeAt),
		/** Recent seeds, for the sweep of creations that did not settle (`seedsOwingNotice`). */
		index("interview_seeds_created_idx").on(t.createdAt),
	],
);
