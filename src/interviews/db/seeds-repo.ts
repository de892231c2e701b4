import { and, asc, eq, gt, gte, inArray, isNull, like, lt, lte, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client";
import { candidateEmails, interviewSeeds } from "../../platform/db/schema";
import { type Bound, RowsTemplate, runOne, Template } from "../../platform/db/templates";
import { chunks } from "../../platform/lib/chunks";
import type { InterviewState } from "../core/model";
import type { OutboxItem } from "../object/storage";

/** An interview's first state as creation left it for its object to adopt. */
export interface Seed {
	state: InterviewState;
	outbox: OutboxItem[];
	timers: { name: string; dueAt: number }[];
	wakeAt: number;
}

/** Columns bound per seed row. */
const SEED_PARAMS = 6;
export const SEEDS_PER_STATEMENT = Math.floor(100 / SEED_PARAMS);

const SEED_COLUMNS = ["id", "state", "outbox", "timers", "wakeAt", "createdAt"] as const;

const seedRows = new RowsTemplate<typeof interviewSeeds.$inferInsert, (typeof SEED_COLUMNS)[number]>(
	SEEDS_PER_STATEMENT,
	SEED_COLUMNS,
	(db, rows) => db.insert(interviewSeeds).values(rows),
);

const seedById = new Template<{ id: string }>((db) =>
	db
		.select()
		.from(interviewSeeds)
		.where(eq(interviewSeeds.id, sql.placeholder("id"))),
);

const forgetById = new Template<{ id: string }>((db) =>
	db.delete(interviewSeeds).where(eq(interviewSeeds.id, sql.placeholder("id"))),
);

/** Seed rows in statements within D1's 100 parameters. */
export function insertSeeds(db: Db, seeds: readonly Seed[]): Bound[] {
	return chunks(seeds, SEEDS_PER_STATEMENT).map((part) =>
		seedRows.bind(
			db,
			part.map((seed) => ({
				id: seed.state.id,
				state: JSON.stringify(seed.state),
				outbox: JSON.stringify(seed.outbox),
				timers: JSON.stringify(seed.timers),
				wakeAt: seed.wakeAt,
				createdAt: seed.state.createdAt,
			})),
		),
	);
}

export async function readSeed(db: Db, id: string): Promise<Seed | null> {
	const [row] = (await runOne(seedById.bind(db, { id }))) as (typeof interviewSeeds.$inferSelect)[];
	if (!row) return null;
	return {
		state: JSON.parse(row.state) as InterviewState,
		outbox: JSON.parse(row.outbox) as OutboxItem[],
		timers: JSON.parse(row.timers) as Seed["timers"],
		wakeAt: row.wakeAt,
	};
}

export function forgetSeed(db: Db, id: string): Bound {
	return forgetById.bind(db, { id });
}

/** Seeds whose object should have been woken by `before` (a lost or failed wake message). */
export async function overdueSeeds(db: Db, before: number, limit: number): Promise<string[]> {
	const rows = await db
		.select({ id: interviewSeeds.id })
		.from(interviewSeeds)
		.where(lte(interviewSeeds.wakeAt, before))
		.orderBy(asc(interviewSeeds.wakeAt))
		.limit(limit)
		.all();
	return rows.map((r) => r.id);
}

/**
 * Seeds created in [`from`, `to`) that owe a candidate notice none of whose e-mails is recorded:
 * their creation was not settled (its Worker stopped between the batch and the notices).
 */
export async function seedsOwingNotice(db: Db, from: number, to: number, limit: number): Promise<string[]> {
	const rows = await db
		.select({ id: interviewSeeds.id })
		.from(interviewSeeds)
		.where(
			and(
				gte(interviewSeeds.createdAt, from),
				lt(interviewSeeds.createdAt, to),
				like(interviewSeeds.outbox, '%"kind":"notify"%'),
				sql`NOT EXISTS (SELECT 1 FROM ${candidateEmails} WHERE ${candidateEmails.interviewId} = ${interviewSeeds.id})`,
			),
		)
		.limit(limit)
		.all();
	return rows.map((r) => r.id);
}

/** Seeds waking after `after` and by `by`, soonest first (the cron's wake messages). */
export async function seedsWaking(db: Db, after: number, by: number, limit: number) {
	return db
		.select({ id: interviewSeeds.id, wakeAt: interviewSeeds.wakeAt })
		.from(interviewSeeds)
		.where(and(gt(interviewSeeds.wakeAt, after), lte(interviewSeeds.wakeAt, by)))
		.orderBy(asc(interviewSeeds.wakeAt), asc(interviewSeeds.id))
		.limit(limit)
		.all();
}

/**
 * Seeds waking in (`after`, `by`] that still owe a wake message: not sent one by the cron yet
 * (`wake_sent_at` null), and not sent one by their creation, which sends it to seeds waking
 * within `horizonMs` of being created (`sendWakeMessages`).
 */
export async function seedsOwingWake(db: Db, after: number, by: number, horizonMs: number, limit: number) {
	return db
		.select({ id: interviewSeeds.id, wakeAt: interviewSeeds.wakeAt })
		.from(interviewSeeds)
		.where(
			and(
				gt(interviewSeeds.wakeAt, after),
				lte(interviewSeeds.wakeAt, by),
				isNull(interviewSeeds.wakeSentAt),
				gt(interviewSeeds.wakeAt, sql`${interviewSeeds.createdAt} + ${horizonMs}`),
			),
		)
		.orderBy(asc(interviewSeeds.wakeAt), asc(interviewSeeds.id))
		.limit(limit)
		.all();
}

/** Records that these seeds were sent their wake message (90 ids per statement, one batch). */
export async function markWakesSent(db: Db, ids: readonly string[], now: number): Promise<void> {
	const [first, ...rest] = chunks([...ids], 90).map((part) =>
		db.update(interviewSeeds).set({ wakeSentAt: now }).where(inArray(interviewSeeds.id, part)),
	);
	if (first) await db.batch([first, ...rest]);
}

/** Makes seeds due now, so that the housekeeping sweep wakes them (90 ids per statement, one batch). */
export async function markSeedsDue(db: Db, ids: string[], now: number): Promise<void> {
	const [first, ...rest] = chunks(ids, 90).map((part) =>
		db.update(interviewSeeds).set({ wakeAt: now }).where(inArray(interviewSeeds.id, part)),
	);
	if (first) await db.batch([first, ...rest]);
}
