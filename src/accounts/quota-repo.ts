import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../platform/db/client";
import { creditLedger, interviews, monthlyInterviewUsage } from "../platform/db/schema";

export interface AdmissionRequest {
	interviewId: string;
	accountId: string;
	/** `YYYY-MM` of creation (UTC). */
	period: string;
	/** null: unlimited. */
	monthlyLimit: number | null;
	credits: number;
	debitId: string;
	now: number;
}

export interface AdmissionOutcome {
	admitted: boolean;
	/** Interviews counted in the period after this attempt (this one included when admitted). */
	used: number;
	/** Credit balance after this attempt. */
	balance: number;
}

/**
 * Counts a live interview toward its month and debits its credit in one D1 batch, which runs as
 * one transaction: the count is taken only if the month has room and the balance covers the
 * credit, and the debit only if the count was taken. Parallel creations therefore never exceed
 * either limit. The last statement reads, inside the same transaction, why a refusal happened.
 */
/**
 * Several admissions go in one batch (a bulk's live items): the statements run in order in one
 * transaction, each request seeing the counts and debits of those before it, exactly as if they
 * had been made one after another, in one D1 round trip.
 */
export async function admitLiveInterviews(
	db: Db,
	requests: readonly AdmissionRequest[],
): Promise<AdmissionOutcome[]> {
	if (requests.length === 0) return [];
	// Raw statements: drizzle cannot batch raw SQL on D1, and this must be one batch (one transaction).
	const d1 = db.$client;
	const used =
		"(SELECT count(*) FROM monthly_interview_usage WHERE account_id = ?1 AND period = ?2 AND released_at IS NULL)";
	const balance = "(SELECT coalesce(sum(amount), 0) FROM credit_ledger WHERE account_id = ?1)";
	const counted = "EXISTS (SELECT 1 FROM monthly_interview_usage WHERE interview_id = ?3)";
	const count = d1.prepare(
		`INSERT INTO monthly_interview_usage (interview_id, account_id, period, created_at)
		 SELECT ?3, ?1, ?2, ?4
		 WHERE (?5 IS NULL OR ${used} < ?5) AND ${balance} >= ?6`,
	);
	const debit = d1.prepare(
		`INSERT INTO credit_ledger (id, account_id, interview_id, kind, amount, created_at)
		 SELECT ?4, ?1, ?2, 'debit', ?3, ?5
		 WHERE ?3 < 0 AND EXISTS (SELECT 1 FROM monthly_interview_usage WHERE interview_id = ?2)`,
	);
	const outcome = d1.prepare(`SELECT ${used} AS used, ${balance} AS balance, ${counted} AS admitted`);
	const results = await d1.batch<{ used: number; balance: number; admitted: number }>(
		requests.flatMap((r) => [
			count.bind(r.accountId, r.period, r.interviewId, r.now, r.monthlyLimit, r.credits),
			debit.bind(r.accountId, r.interviewId, -r.credits, r.debitId, r.now),
			outcome.bind(r.accountId, r.period, r.interviewId),
		]),
	);
	return requests.map((_, i) => {
		const row = results[i * 3 + 2]?.results[0];
		return {
			admitted: Number(row?.admitted ?? 0) === 1,
			used: Number(row?.used ?? 0),
			balance: Number(row?.balance ?? 0),
		};
	});
}

/**
 * Undoes an admission whose interview was never created. Only then: if the interview exists after
 * all (its creation committed though the call reported a failure), nothing is undone.
 */
export async function revokeAdmission(db: Db, interviewId: string, debitId: string): Promise<void> {
	await revokeAdmissions(db, [{ interviewId, debitId }]);
}

/** `revokeAdmission` for several admissions, in one D1 batch (two statements each). */
export async function revokeAdmissions(
	db: Db,
	admissions: readonly { interviewId: string; debitId: string }[],
): Promise<void> {
	const [first, ...rest] = admissions.flatMap(({ interviewId, debitId }) => {
		const absent = sql`NOT EXISTS (SELECT 1 FROM ${interviews} WHERE ${interviews.id} = ${interviewId})`;
		return [
			db.delete(monthlyInterviewUsage).where(and(eq(monthlyInterviewUsage.interviewId, interviewId), absent)),
			db.delete(creditLedger).where(and(eq(creditLedger.id, debitId), absent)),
		];
	});
	if (first) await db.batch([first, ...rest]);
}

/** Takes a cancelled interview out of its month's count; idempotent, so outbox retries are safe. */
export function releaseMonthlyCount(db: Db, interviewId: string, now: number) {
	return db
		.update(monthlyInterviewUsage)
		.set({ releasedAt: now })
		.where(and(eq(monthlyInterviewUsage.interviewId, interviewId), isNull(monthlyInterviewUsage.releasedAt)));
}

export async function monthlyInterviewsUsed(db: Db, accountId: string, period: string): Promise<number> {
	const row = await db
		.select({ n: sql<number>`count(*)` })
		.from(monthlyInterviewUsage)
		.where(
			and(
				eq(monthlyInterviewUsage.accountId, accountId),
				eq(monthlyInterviewUsage.period, period),
				isNull(monthlyInterviewUsage.releasedAt),
			),
		)
		.get();
	return Number(row?.n ?? 0);
}

/**
 * An admission this old without its interview was left by a creation that failed and could not
 * give it back (the default of `ADMISSION_ORPHAN_AFTER_S`).
 */
export const ORPHAN_ADMISSION_AFTER_MS = 10 * 60_000;
/** Where the first sweep starts: admissions older than this when it first runs are not examined. */
const ORPHAN_SWEEP_FIRST_LOOKBACK_MS = 24 * 60 * 60_000;
const ORPHAN_SWEEP = "orphan_admissions";

/**
 * Gives back the credit and the monthly count of admissions whose interview was never created:
 * a creation's D1 batch failed and so did giving them back, or the Worker stopped between the
 * two. An admission is an orphan when no interview row has its id `afterMs` (ten minutes by
 * default) after it was made (creation writes the row in the batch right after admitting). Each call looks at up to `rows`
 * admissions made since the previous call's mark, once each, and moves the mark in the same D1
 * transaction. Returns how many were given back and whether it reached the present.
 */
export async function releaseOrphanAdmissions(
	db: Db,
	now: number,
	rows: number,
	afterMs: number = ORPHAN_ADMISSION_AFTER_MS,
): Promise<{ released: number; done: boolean }> {
	const d1 = db.$client;
	const upTo = now - afterMs;
	const mark = await d1
		.prepare("SELECT until FROM sweep_marks WHERE name = ?1")
		.bind(ORPHAN_SWEEP)
		.first<{ until: number }>();
	const from = mark?.until ?? upTo - ORPHAN_SWEEP_FIRST_LOOKBACK_MS;
	if (from >= upTo) return { released: 0, done: true };
	// This call covers [from, end): `end` is the time of the first row past the budget (all of one
	// millisecond at least, so the mark always moves), or the present.
	const next = await d1
		.prepare(
			`SELECT created_at FROM monthly_interview_usage WHERE created_at >= ?1 AND created_at < ?2
			 ORDER BY created_at LIMIT 1 OFFSET ?3`,
		)
		.bind(from, upTo, rows)
		.first<{ created_at: number }>();
	const end = next ? Math.max(next.created_at, from + 1) : upTo;
	const orphans = `SELECT u.interview_id FROM monthly_interview_usage u
		WHERE u.created_at >= ?1 AND u.created_at < ?2
		AND NOT EXISTS (SELECT 1 FROM interviews i WHERE i.id = u.interview_id)`;
	const [, released] = await d1.batch([
		d1
			.prepare(`DELETE FROM credit_ledger WHERE kind = 'debit' AND interview_id IN (${orphans})`)
			.bind(from, end),
		d1.prepare(`DELETE FROM monthly_interview_usage WHERE interview_id IN (${orphans})`).bind(from, end),
		d1
			.prepare(
				"INSERT INTO sweep_marks (name, until) VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE SET until = excluded.until",
			)
			.bind(ORPHAN_SWEEP, end),
	]);
	const count = released?.meta.changes ?? 0;
	if (count > 0) console.error(JSON.stringify({ message: "orphan admissions given back", count }));
	return { released: count, done: end >= upTo };
}
