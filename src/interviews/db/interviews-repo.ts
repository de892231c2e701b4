import {
	and,
	count,
	desc,
	eq,
	getTableColumns,
	gte,
	inArray,
	lt,
	lte,
	or,
	type Placeholder,
	type SQL,
	sql,
} from "drizzle-orm";
import type { DataEnvironment } from "../../accounts/keys";
import type { Db } from "../../platform/db/client";
import { interviewCounts, interviews } from "../../platform/db/schema";
import {
	type Bound,
	JsonRowsTemplate,
	RowsTemplate,
	runRows,
	selectLike,
	Template,
} from "../../platform/db/templates";
import { chunks } from "../../platform/lib/chunks";
import type { InterviewState, InterviewStatus } from "../core/model";

export type InterviewRow = typeof interviews.$inferSelect;

export function projectionRow(state: InterviewState): typeof interviews.$inferInsert {
	return {
		id: state.id,
		accountId: state.accountId,
		environment: state.environment,
		testMode: state.testMode,
		status: state.status,
		candidateEmail: state.candidateEmail,
		candidateEmailLower: state.candidateEmail.toLowerCase(),
		candidateName: state.candidateName,
		position: state.position,
		positionLower: state.position.toLowerCase(),
		skills: state.skills,
		difficulty: state.difficulty,
		durationMinutes: state.durationMinutes,
		companyName: state.companyName,
		scheduledAt: state.scheduledAt,
		startedAt: state.startedAt,
		completedAt: state.completedAt,
		cancelledAt: state.cancelledAt,
		overallScore: state.analyzedAt === null ? null : (state.results?.overall_score ?? null),
		recommendation: state.analyzedAt === null ? null : (state.results?.recommendation ?? null),
		createdAt: state.createdAt,
		updatedAt: state.updatedAt,
		version: state.version,
	};
}

/**
 * Whether `next` changes what the projection shows. Its `updated_at` and `version` are not shown
 * anywhere, so a change that touches only the object's own fields (an answer, the next question)
 * leaves the projection as it is; the next shown change writes the newest state anyway.
 */
export function projectionChanged(before: InterviewState | null, next: InterviewState): boolean {
	if (before === null) return true;
	const a = projectionRow(before);
	const b = projectionRow(next);
	for (const key of Object.keys(b) as (keyof typeof b)[]) {
		if (key === "updatedAt" || key === "version") continue;
		const x = a[key];
		const y = b[key];
		if (Array.isArray(x) && Array.isArray(y)) {
			if (x.length !== y.length || x.some((v, i) => v !== y[i])) return true;
		} else if (x !== y) return true;
	}
	return false;
}

/** Upsert of the projection that never lets an older version overwrite a newer one. */
export function upsertProjection(db: Db, state: InterviewState): Bound {
	return projectionRows.bind(db, [projectionRow(state)]);
}

/** A projection row's columns (every column of `interviews`). */
const PROJECTION_COLUMNS = Object.keys(getTableColumns(interviews)) as (keyof InterviewRow)[];

/** The projections of many interviews, their rows as one JSON parameter per hundred. */
export function upsertProjections(db: Db, states: readonly InterviewState[]): Bound[] {
	return projectionJsonRows.bind(db, states.map(projectionRow));
}

/** Columns an upsert overwrites: all but the identity and the creation time. */
const CHANGING_COLUMNS = PROJECTION_COLUMNS.filter(
	(key) => !["id", "accountId", "environment", "createdAt"].includes(key),
);

/** The projection's upsert: never lets an older version overwrite a newer one. */
function projectionUpsert(db: Db, rows: unknown) {
	return db
		.insert(interviews)
		.values(rows as (typeof interviews.$inferInsert)[])
		.onConflictDoUpdate({
			target: interviews.id,
			set: Object.fromEntries(
				CHANGING_COLUMNS.map((key) => [key, sql.raw(`excluded.${interviews[key].name}`)]),
			),
			setWhere: sql`excluded.version > ${interviews.version}`,
		});
}

const projectionRows = new RowsTemplate<typeof interviews.$inferInsert, keyof InterviewRow>(
	1,
	PROJECTION_COLUMNS,
	projectionUpsert,
);

const projectionJsonRows = new JsonRowsTemplate<typeof interviews.$inferInsert, keyof InterviewRow>(
	PROJECTION_COLUMNS,
	projectionUpsert,
);

export interface ListFilters {
	status?: InterviewStatus;
	candidateEmail?: string;
	position?: string;
	createdAfter?: number;
	createdBefore?: number;
	scheduledAfter?: number;
	scheduledBefore?: number;
	/** Only test-mode (true) or only live (false) interviews; both when unset (the API's list). */
	testMode?: boolean;
}

export interface ListCursor {
	createdAt: number;
	id: string;
}

/** The list's filters that are set, as a key: one statement is built per shape and isolate. */
const FILTER_KEYS = [
	"status",
	"candidateEmail",
	"position",
	"createdAfter",
	"createdBefore",
	"scheduledAfter",
	"scheduledBefore",
	"testMode",
] as const satisfies readonly (keyof ListFilters)[];

type FilterKey = (typeof FILTER_KEYS)[number];

/** The values a list's statement binds: the owner, the set filters (as the SQL compares them). */
function filterValues(
	accountId: string | null,
	environment: DataEnvironment,
	f: ListFilters,
): Record<string, unknown> {
	return {
		accountId,
		environment,
		status: f.status,
		candidateEmail: f.candidateEmail?.toLowerCase(),
		position: f.position === undefined ? undefined : `%${escapeLike(f.position.toLowerCase())}%`,
		createdAfter: f.createdAfter,
		createdBefore: f.createdBefore,
		scheduledAfter: f.scheduledAfter,
		scheduledBefore: f.scheduledBefore,
		testMode: f.testMode,
	};
}

/**
 * Whose interviews a list reads: an account id, or an account the statement finds itself, with
 * values it reads beside the page (`carried`). The dashboard's list finds the account by the
 * session's token and reads the session with it, so that the page and whom it is shown to are
 * one D1 round trip (docs/performance.md).
 */
export type ListOwner = string | FoundOwner;

export interface FoundOwner {
	/** Names this kind of owner: a statement is built once per kind and shape of filters. */
	key: string;
	/** The owner's account id, an SQL value of placeholders named in `values` (null: no rows). */
	accountId: SQL;
	/** What the statement reads beside the page: SQL values of the same placeholders. */
	columns: Record<string, SQL>;
	values: Record<string, unknown>;
}

/** The conditions of the set filters (`present`), with placeholders named as in `filterValues`. */
function filterConditions(present: ReadonlySet<FilterKey>, account: SQL | Placeholder): SQL[] {
	const p = (name: string) => sql.placeholder(name);
	const conditions: (SQL | undefined)[] = [
		eq(interviews.accountId, account),
		eq(interviews.environment, p("environment")),
		present.has("status") ? eq(interviews.status, p("status")) : undefined,
		present.has("candidateEmail") ? eq(interviews.candidateEmailLower, p("candidateEmail")) : undefined,
		present.has("position") ? sql`${interviews.positionLower} LIKE ${p("position")} ESCAPE '\\'` : undefined,
		present.has("createdAfter") ? gte(interviews.createdAt, p("createdAfter")) : undefined,
		present.has("createdBefore") ? lte(interviews.createdAt, p("createdBefore")) : undefined,
		present.has("scheduledAfter") ? gte(interviews.scheduledAt, p("scheduledAfter")) : undefined,
		present.has("scheduledBefore") ? lte(interviews.scheduledAt, p("scheduledBefore")) : undefined,
		present.has("testMode") ? eq(interviews.testMode, p("testMode")) : undefined,
	];
	return conditions.filter((c): c is SQL => c !== undefined);
}

function escapeLike(value: string): string {
	return value.replace(/[\\%_]/g, (m) => `\\${m}`);
}

/** Whether the projection holds this interview (every created interview has its row). */
export async function interviewExists(db: Db, id: string): Promise<boolean> {
	const row = await db.select({ id: interviews.id }).from(interviews).where(eq(interviews.id, id)).get();
	return row !== undefined;
}

/**
 * Which of `ids` are this account's interviews in this environment, by the projection (every
 * created interview has its row): so that ids never created open no Durable Object. At most 90
 * ids per statement (D1 binds at most 100 parameters).
 */
export async function ownedInterviewIds(
	db: Db,
	accountId: string,
	environment: DataEnvironment,
	ids: readonly string[],
): Promise<Set<string>> {
	const found = new Set<string>();
	for (const part of chunks([...ids], 90)) {
		const rows = await db
			.select({ id: interviews.id })
			.from(interviews)
			.where(
				and(
					inArray(interviews.id, part),
					eq(interviews.accountId, accountId),
					eq(interviews.environment, environment),
				),
			)
			.all();
		for (const row of rows) found.add(row.id);
	}
	return found;
}

/**
 * The number of interviews matching the filters: from the counters kept by triggers with the
 * projection when only the status and the test mode filter (constant time however many
 * interviews the account has), otherwise by counting the matching rows.
 */
function totalQuery(db: Db, present: ReadonlySet<FilterKey>, account: SQL | Placeholder) {
	// The counters answer the total when no filter but the status and test mode is set.
	if (![...present].every((k) => k === "status" || k === "testMode")) {
		return db
			.select({ total: count() })
			.from(interviews)
			.where(and(...filterConditions(present, account)));
	}
	return db
		.select({ total: sql<number>`coalesce(sum(${interviewCounts.count}), 0)` })
		.from(interviewCounts)
		.where(
			and(
				eq(interviewCounts.accountId, account),
				eq(interviewCounts.environment, sql.placeholder("environment")),
				present.has("status") ? eq(interviewCounts.status, sql.placeholder("status")) : undefined,
				present.has("testMode") ? eq(interviewCounts.testMode, sql.placeholder("testMode")) : undefined,
			),
		);
}

/** The columns a list shows (the API's list items and the dashboard's table), and no others. */
const LIST_COLUMNS = {
	id: interviews.id,
	status: interviews.status,
	candidateEmail: interviews.candidateEmail,
	candidateName: interviews.candidateName,
	position: interviews.position,
	skills: interviews.skills,
	scheduledAt: interviews.scheduledAt,
	createdAt: interviews.createdAt,
	testMode: interviews.testMode,
	overallScore: interviews.overallScore,
	recommendation: interviews.recommendation,
};
export type InterviewListRow = Pick<InterviewRow, keyof typeof LIST_COLUMNS>;

/**
 * A list's statements, built once per shape of its filters (and cursor) and kind of owner. For an
 * account id: the page, which carries the total as a column of every row (an uncorrelated
 * subquery, which SQLite runs once), and the total alone, for a page without rows. For an owner
 * the statement finds: the page's rows and then one row more, of the total and the owner's
 * columns (a compound select), so that even a page without rows is one statement; `total` is
 * then unused.
 */
const listTemplates = new Map<
	string,
	{ page: Template<Record<string, unknown>>; total: Template<Record<string, unknown>> }
>();

function listTemplatesOf(present: ReadonlySet<FilterKey>, cursor: boolean, owner: FoundOwner | null) {
	const key = `${FILTER_KEYS.filter((k) => present.has(k)).join(",")}|${cursor}|${owner?.key ?? ""}`;
	let templates = listTemplates.get(key);
	if (!templates) {
		const account = owner ? owner.accountId : sql.placeholder("accountId");
		const pageOf = (db: Db, extra: Record<string, SQL>) => {
			const conditions = filterConditions(present, account);
			if (cursor) {
				conditions.push(
					or(
						lt(interviews.createdAt, sql.placeholder("cursorCreatedAt")),
						and(
							eq(interviews.createdAt, sql.placeholder("cursorCreatedAt")),
							lt(interviews.id, sql.placeholder("cursorId")),
						),
					) as SQL,
				);
			}
			return db
				.select({ ...LIST_COLUMNS, ...extra })
				.from(interviews)
				.where(and(...conditions))
				.orderBy(desc(interviews.createdAt), desc(interviews.id))
				.limit(sql.placeholder("limit"));
		};
		const totalOf = (db: Db) => sql<number>`${totalQuery(db, present, account)}`.mapWith(Number);
		templates = {
			page: new Template((db) => {
				if (!owner) return pageOf(db, { total: totalOf(db) });
				// The page's rows with nulls for the total and the owner's columns, then the row of
				// those with nulls for the interview's columns: last, as its null `created_at` and
				// `id` sort after every interview's (newest first, as the page).
				const carried = Object.keys(owner.columns);
				const page = pageOf(db, {
					total: sql<number>`null`.mapWith(Number),
					...Object.fromEntries(carried.map((k) => [k, sql`null`])),
				});
				const nulls = sql.raw(LIST_KEYS.map(() => "null").join(", "));
				const order = sql.raw(
					`${LIST_KEYS.indexOf("createdAt") + 1} desc, ${LIST_KEYS.indexOf("id") + 1} desc`,
				);
				const compound = sql`select * from ${page} union all select ${nulls}, ${totalOf(db)}, ${sql.join(
					carried.map((k) => owner.columns[k] as SQL),
					sql`, `,
				)} order by ${order}`;
				return selectLike(db, compound, page);
			}),
			total: new Template((db) => totalQuery(db, present, account)),
		};
		listTemplates.set(key, templates);
	}
	return templates;
}

const LIST_KEYS = Object.keys(LIST_COLUMNS) as (keyof typeof LIST_COLUMNS)[];

/**
 * One page of interviews, newest first (created_at, then id, both descending), and the count of
 * all interviews matching the filters. Keyset pagination: a page costs the same wherever it is.
 * Its statements are built once per isolate for each shape of filters (which are set, and
 * whether a cursor is), and each list only binds values. For an owner found by the statement,
 * `carried` is the values of its columns (null for an account id).
 */
export async function listInterviews(
	db: Db,
	owner: ListOwner,
	environment: DataEnvironment,
	filters: ListFilters,
	limit: number,
	cursor: ListCursor | null,
): Promise<{ rows: InterviewListRow[]; total: number; carried: Record<string, unknown> | null }> {
	// Text filters count when not empty, the others when given (as the conditions always did).
	const present = new Set(
		FILTER_KEYS.filter((k) =>
			typeof filters[k] === "string" ? filters[k] !== "" : filters[k] !== undefined,
		),
	);
	const found = typeof owner === "string" ? null : owner;
	const { page, total } = listTemplatesOf(present, cursor !== null, found);
	const values = {
		...filterValues(typeof owner === "string" ? owner : null, environment, filters),
		...found?.values,
		cursorCreatedAt: cursor?.createdAt,
		cursorId: cursor?.id,
		limit: limit + 1,
	};
	// One statement, its rows fetched as arrays (a batch would turn them into objects and back).
	const rows = (await runRows(page.bind(db, values))) as (InterviewListRow & {
		total: number | null;
	} & Record<string, unknown>)[];
	if (found) {
		const last = rows.pop();
		if (!last || last.id !== null) throw new Error("The list's statement gave no owner row.");
		const carried = Object.fromEntries(Object.keys(found.columns).map((k) => [k, last[k]]));
		return { rows, total: Number(last.total ?? 0), carried };
	}
	const first = rows[0];
	if (first) return { rows, total: first.total as number, carried: null };
	const totals = (await runRows(total.bind(db, values))) as { total: number }[];
	return { rows, total: Number(totals[0]?.total ?? 0), carried: null };
}
