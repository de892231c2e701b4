import { is, Param, Placeholder, type Query, sql } from "drizzle-orm";
import type { Db } from "./client";

/** What a drizzle query builder's `prepare()` gives: its SQL and how to read its D1 result. */
interface Prepared {
	getQuery(): Query;
	mapResult(response: unknown, isFromBatch?: boolean): unknown;
}

/** A drizzle query builder (select, insert, update, delete). */
export interface Preparable {
	prepare(): Prepared;
}

/** One statement ready for a D1 batch, and how to read its result the way drizzle would. */
export interface Bound {
	statement: D1PreparedStatement;
	read(result: D1Result): unknown;
}

interface Compiled {
	sql: string;
	params: unknown[];
	prepared: Prepared;
}

/**
 * A hot statement whose SQL drizzle builds once per isolate, with named placeholders; each use
 * only binds values. Building a statement (walking the query tree into SQL) was the largest cost
 * of a create of our own (docs/performance.md); the text never changes, so it is built once.
 * Values are encoded by their column as drizzle encodes them (booleans, JSON), null as null.
 */
export class Template<V extends Record<string, unknown>> {
	private compiled: Compiled | null = null;

	constructor(private readonly build: (db: Db) => Preparable) {}

	bind(db: Db, values: V): Bound {
		this.compiled ??= compile(this.build(db));
		const { sql: text, params, prepared } = this.compiled;
		const bound = db.$client.prepare(text).bind(...params.map((p) => fill(p, values)));
		return { statement: bound, read: (result) => prepared.mapResult(result, true) };
	}
}

/**
 * A multi-row statement (insert or upsert) built once per row count, up to `maxRows` rows: the
 * value of `column` in row `i` is the placeholder `column_i`.
 */
export class RowsTemplate<Row extends Record<string, unknown>, Column extends keyof Row & string> {
	private readonly bySize = new Map<number, Template<Record<string, unknown>>>();

	constructor(
		readonly maxRows: number,
		private readonly columns: readonly Column[],
		private readonly build: (db: Db, rows: Record<Column, Placeholder>[]) => Preparable,
	) {}

	bind(db: Db, rows: readonly Pick<Row, Column>[]): Bound {
		if (rows.length === 0 || rows.length > this.maxRows) {
			throw new Error(`A statement holds 1 to ${this.maxRows} rows, not ${rows.length}.`);
		}
		let template = this.bySize.get(rows.length);
		if (!template) {
			const placeholders = rows.map(
				(_, i) =>
					Object.fromEntries(this.columns.map((c) => [c, sql.placeholder(`${c}_${i}`)])) as Record<
						Column,
						Placeholder
					>,
			);
			template = new Template((d) => this.build(d, placeholders));
			this.bySize.set(rows.length, template);
		}
		const values: Record<string, unknown> = {};
		rows.forEach((row, i) => {
			for (const c of this.columns) values[`${c}_${i}`] = row[c];
		});
		return template.bind(db, values);
	}
}

/** A drizzle query built now, as a batch statement (for statements that are not hot). */
export function boundQuery(db: Db, query: Preparable): Bound {
	const { sql: text, params, prepared } = compile(query);
	return {
		statement: db.$client.prepare(text).bind(...params),
		read: (result) => prepared.mapResult(result, true),
	};
}

/** Runs the statements in one D1 batch (one transaction); each result read as drizzle would. */
export async function runBatch(db: Db, items: readonly Bound[]): Promise<unknown[]> {
	const results = await db.$client.batch(items.map((item) => item.statement));
	return results.map((result, i) => (items[i] as Bound).read(result));
}

/** Runs one statement on its own. */
export async function runOne(item: Bound): Promise<unknown> {
	return item.read(await item.statement.all());
}

function compile(query: Preparable): Compiled {
	const prepared = query.prepare();
	const { sql: text, params } = prepared.getQuery();
	return { sql: text, params, prepared };
}

function fill(param: unknown, values: Record<string, unknown>): unknown {
	const placeholder = is(param, Placeholder)
		? param
		: is(param, Param) && is(param.value, Placeholder)
			? param.value
			: null;
	if (!placeholder) return param;
	if (!(placeholder.name in values)) throw new Error(`No value for placeholder "${placeholder.name}".`);
	const value = values[placeholder.name];
	if (value === null || value === undefined) return null;
	return is(param, Param) ? param.encoder.mapToDriverValue(value) : value;
}
