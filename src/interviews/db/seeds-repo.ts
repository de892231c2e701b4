import { and, asc, eq, gt, gte, inArray, isNull, like, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client";
import { candidateEmails, interviewSeeds } from "../../platform/db/schema";
import { type Bound, JsonRowsTemplate, runOne, Template } from "../../platform/db/templates";
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

const SEED_COLUMNS = ["id", "state", "outbox", "timers", "wakeAt", "createdAt"] as const;

const seedRows = new JsonRowsTemplate<typeof interviewSeeds.$inferInsert, (typeof SEED_COLUMNS)[number]>(
	SEED_COLUMNS,
	(db, row) => db.insert(interviewSeeds).values(row),
	// Given as JSON text, they go into the rows' parameter as JSON (`JsonRowsTemplate`).
	{ jsonText: ["state", "outbox", "timers"] },
);

/** Seeds by id, the ids as one JSON array (one bound parameter however many). */
const seedsByIds = new Template<{ ids: string }>((db) =>
	db
		.select()
		.from(interviewSeeds)
		.where(sql`${interviewSeeds.id} IN (SELECT value FROM json_each(${sql.placeholder("ids")}))`),
);

/** The seed, marked as taken by its object (`claimSeed`). */
const claimById = new Template<{ id: string; now: number }>((db) =>
	db
		.update(interviewSeeds)
		.set({ claimedAt: sql`${sql.placeholder("now")}` })
		.where(eq(interviewSeeds.id, sql.placeholder("id")))
		.returning(),
);

const forgetById = new Template<{ id: string }>((db) =>
	db.delete(interviewSeeds).where(eq(interviewSeeds.id, sql.placeholder("id"))),
);

/** Seed rows, as one JSON parameter per hundred (`JsonRowsTemplate`). */
export function insertSeeds(db: Db, seeds: readonly Seed[]): Bound[] {
	return seedRows.bind(
		db,
		seeds.map((seed) => ({
			id: seed.state.id,
			state: JSON.stringify(seed.state),
			outbox: JSON.stringify(seed.outbox),
			timers: JSON.stringify(seed.timers),
			wakeAt: seed.wakeAt,
			createdAt: seed.state.createdAt,
		})),
	);
}

function seedOfRow(row: typeof interviewSeeds.$inferSelect): Seed {
	return {
		state: JSON.parse(row.state) as InterviewState,
		outbox: JSON.parse(row.outbox) as OutboxItem[],
		timers: JSON.parse(row.timers) as Seed["timers"],
		wakeAt: row.wakeAt,
	};
}

/** The seed as it stands, and whether its object has claimed it (then only the object decides). */
export async function readSeed(db: Db, id: string): Promise<(Seed & { claimed: boolean }) | null> {
	const [seed] = await readSeeds(db, [id]);
	return seed ?? null;
}

/**
 * The seed, read by the object that adopts it and marked claimed in the same statement: from
 * then on no change is decided against the seed row (`seedChangeStatements` requires it
 * unclaimed), so the object's state is the only one. Claiming again (an object reset before its
 * adoption committed) reads the same seed.
 */
export async function claimSeed(db: Db, id: string, now: number): Promise<Seed | null> {
	const [row] = (await runOne(claimById.bind(db, { id, now }))) as (typeof interviewSeeds.$inferSelect)[];
	return row ? seedOfRow(row) : null;
}

/** Several seeds in one statement, as `readSeed` reads one: in the order asked, null where none. */
export async function readSeeds(
	db: Db,
	ids: readonly string[],
): Promise<((Seed & { claimed: boolean }) | null)[]> {
	const rows = (await runOne(
		seedsByIds.bind(db, { ids: JSON.stringify(ids) }),
	)) as (typeof interviewSeeds.$inferSelect)[];
	const byId = new Map(rows.map((row) => [row.id, row]));
	return ids.map((id) => {
		const row = byId.get(id);
		return row ? { ...seedOfRow(row), claimed: row.claimedAt !== null } : null;
	});
}

/** SQLite's error for `json()` of text that is not JSON: how the guard below fails its batch. */
export const SEED_CHANGED_ERROR = "malformed JSON";

/**
 * A change decided against the seed row, as batch statements: first a guard that fails the whole
 * batch (D1 runs a batch as one transaction) unless the seed still exists unclaimed at `version`,
 * then the row rewritten. Whatever the batch also writes (projection, events, ledger) is written
 * only with it: a concurrent change, or the object's claim, leaves exactly one outcome.
 */
export function seedChangeStatements(db: Db, seed: Seed, expectedVersion: number): Bound[] {
	const guard = db.$client
		.prepare(
			"SELECT json(CASE WHEN (SELECT json_extract(state, '$.version') FROM interview_seeds WHERE id = ?1 AND claimed_at IS NULL) = ?2 THEN '1' ELSE 'seed changed' END) AS ok",
		)
		.bind(seed.state.id, expectedVersion);
	const update = db.$client
		.prepare("UPDATE interview_seeds SET state = ?2, outbox = ?3, timers = ?4, wake_at = ?5 WHERE id = ?1")
		.bind(
			seed.state.id,
			JSON.stringify(seed.state),
			JSON.stringify(seed.outbox),
			JSON.stringify(seed.timers),
			seed.wakeAt,
		);
	return [
		{ statement: guard, read: (result) => result.results },
		{ statement: update, read: (result) => result.results },
	];
}

/** Sets the wake time of an unclaimed seed still at `version` (a settled change's last step). */
export function setSeedWake(db: Db, id: string, version: number, wakeAt: number): Bound {
	const statement = db.$client
		.prepare(
			"UPDATE interview_seeds SET wake_at = ?3 WHERE id = ?1 AND claimed_at IS NULL AND json_extract(state, '$.version') = ?2",
		)
		.bind(id, version, wakeAt);
	return { statement, read: (result) => result.results };
}

export function forgetSeed(db: Db, id: string): Bound {
	return forgetById.bind(db, { id });
}

/** Where a run of the overdue sweep left off: the last seed it took, in (wake time, id) order. */
export interface SeedCursor {
	wakeAt: number;
	id: string;
}

/**
 * Seeds whose object should have been woken by `before` (a lost or failed wake message), after
 * `cursor` in (wake time, id) order, soonest first. `claimed: false` takes only seeds no object
 * has claimed; `claimed: true` only seeds claimed at `claimedBefore` or earlier (an adoption that
 * may never have committed, `sweepOverdueSeeds`).
 */
export async function overdueSeeds(
	db: Db,
	before: number,
	options: { claimed: false } | { claimed: true; claimedBefore: number },
	cursor: SeedCursor | null,
	limit: number,
): Promise<SeedCursor[]> {
	return db
		.select({ id: interviewSeeds.id, wakeAt: interviewSeeds.wakeAt })
		.from(interviewSeeds)
		.where(
			and(
				lte(interviewSeeds.wakeAt, before),
				options.claimed
					? lte(interviewSeeds.claimedAt, options.claimedBefore)
					: isNull(interviewSeeds.claimedAt),
				cursor
					? or(
							gt(interviewSeeds.wakeAt, cursor.wakeAt),
							and(eq(interviewSeeds.wakeAt, cursor.wakeAt), gt(interviewSeeds.id, cursor.id)),
						)
					: undefined,
			),
		)
		.orderBy(asc(interviewSeeds.wakeAt), asc(interviewSeeds.id))
		.limit(limit)
		.all();
}

/**
 * Seeds created in [`from`, `to`) whose outbox holds a candidate notice with no e-mail recorded
 * under its message id: their creation was not settled (its Worker stopped between the batch and
 * the notices), whatever later changes recorded for notices of their own.
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
				sql`EXISTS (SELECT 1 FROM json_each(${interviewSeeds.outbox}) AS item
					WHERE json_extract(item.value, '$.kind') = 'notify'
					AND NOT EXISTS (SELECT 1 FROM ${candidateEmails}
						WHERE ${candidateEmails.id} = json_extract(item.value, '$.request.messageId')))`,
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
