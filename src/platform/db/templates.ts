import { Column, is, Param, Placeholder, type Query, SQL, sql } from "drizzle-orm";
import { SQLiteTextJson } from "drizzle-orm/sqlite-core";
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

/** A template's statement, which can also read rows fetched as arrays (see `runRows`). */
export interface BoundTemplate extends Bound {
	readRows(rows: unknown[][]): unknown;
}

/**
 * Where one bound parameter's value comes from, worked out once when the SQL is built: a
 * constant of the query, or a named placeholder's value with its column's encoder, if any.
 */
type Slot =
	| { name: null; constant: unknown }
	| { name: string; encode: ((value: unknown) => unknown) | null; json: boolean };

interface Compiled {
	sql: string;
	slots: Slot[];
	prepared: Prepared;
	/** Reads rows fetched as arrays, for a flat select; null: drizzle reads them. */
	readFlat: ((rows: unknown[][]) => Record<string, unknown>[]) | null;
}

/**
 * A hot statement whose SQL drizzle builds once per isolate, with named placeholders; each use
 * only binds values. Building a statement (walking the query tree into SQL) was the largest cost
 * of a create of our own (docs/performance.md); the text never changes, so it is built once, and
 * so is where each parameter's value comes from. Values are encoded by their column as drizzle
 * encodes them (booleans, JSON), null as null.
 */
export class Template<V extends Record<string, unknown>> {
	private compiled: Compiled | null = null;

	constructor(private readonly build: (db: Db) => Preparable) {}

	bind(db: Db, values: V): BoundTemplate {
		return this.bindEach(db, (name) => {
			if (!(name in values)) throw new Error(`No value for placeholder "${name}".`);
			return values[name];
		});
	}

	/** Binds with each placeholder's value read by name (`lookup` throws for a missing one). */
	bindEach(db: Db, lookup: (name: string) => unknown): BoundTemplate {
		this.compiled ??= compile(this.build(db));
		const { sql: text, slots, prepared, readFlat } = this.compiled;
		const args = new Array<unknown>(slots.length);
		for (let i = 0; i < slots.length; i++) {
			const slot = slots[i] as Slot;
			if (slot.name === null) {
				args[i] = slot.constant;
				continue;
			}
			const value = lookup(slot.name);
			args[i] = value === null || value === undefined ? null : slot.encode ? slot.encode(value) : value;
		}
		const bound = db.$client.prepare(text).bind(...args);
		return {
			statement: bound,
			read: (result) => prepared.mapResult(result, true),
			readRows: (rows) => (readFlat ? readFlat(rows) : prepared.mapResult(rows, false)),
		};
	}
}

/**
 * A multi-row statement (insert or upsert) built once per row count, up to `maxRows` rows: the
 * value of `column` in row `i` is the placeholder `column_i`.
 */
export class RowsTemplate<Row extends Record<string, unknown>, Column extends keyof Row & string> {
	private readonly bySize = new Map<number, Template<Record<string, unknown>>>();
	/** The row and column each placeholder name (`column_i`) stands for. */
	private readonly cells = new Map<string, { row: number; column: Column }>();

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
					Object.fromEntries(
						this.columns.map((c) => {
							this.cells.set(`${c}_${i}`, { row: i, column: c });
							return [c, sql.placeholder(`${c}_${i}`)];
						}),
					) as Record<Column, Placeholder>,
			);
			template = new Template((d) => this.build(d, placeholders));
			this.bySize.set(rows.length, template);
		}
		return template.bindEach(db, (name) => {
			const at = this.cells.get(name);
			const row = at ? rows[at.row] : undefined;
			if (!at || !row) throw new Error(`No value for placeholder "${name}".`);
			return row[at.column];
		});
	}
}

/** Most characters of one statement's rows as JSON: well under D1's 2 MB per string value. */
export const JSON_ROWS_MAX_CHARS = 1_000_000;
/** Most rows one JSON rows statement takes (a bulk's hundred fit in one). */
export const JSON_ROWS_MAX_ROWS = 100;

interface CompiledJsonRows {
	sql: string;
	/**
	 * The row's placeholders in the order of the statement's `VALUES`, each with its encoder, and
	 * whether its value (once encoded) is JSON text that goes into the row as JSON.
	 */
	cells: { name: string; encode: ((value: unknown) => unknown) | null; json: boolean }[];
	/** Parameters after the rows (constants of a conflict clause), bound after the rows' JSON. */
	rest: unknown[];
	prepared: Prepared;
}

/**
 * A multi-row insert or upsert whose rows travel as one JSON parameter, read in SQL with
 * `json_each`: `INSERT INTO t (...) SELECT value ->> 0, value ->> 1, ... FROM json_each(?) WHERE
 * true ON CONFLICT ...`. A hundred rows are one statement of one parameter, where binding each
 * cell took one statement per few rows (D1 allows 100 bound parameters): a bulk creation's
 * projections were 25 statements of 4 rows. drizzle builds the one-row statement once per
 * isolate (`build`, given a placeholder per column); its `VALUES (...)` becomes the select.
 * Values are encoded by their column as drizzle encodes them (booleans as 0/1, JSON as text);
 * `->>` gives back SQL text, integers, reals and null as the cell held them.
 *
 * A cell whose value is JSON text (a drizzle JSON column's, or a column named in `jsonText`,
 * whose values the caller gives already serialized, as `JSON.stringify` writes them) goes into
 * the row as that JSON, not as a string holding it, and is read back with `->`, which gives the
 * same text. A string would be escaped once here and again when D1 sends the parameter: a bulk's
 * seeds (1.2 KB of JSON each) make a parameter 18 % smaller this way, and cheaper to write and
 * send (docs/performance.md). A JSON null is stored as SQL null, as drizzle stores a null value.
 */
export class JsonRowsTemplate<Row extends Record<string, unknown>, Column extends keyof Row & string> {
	private compiled: CompiledJsonRows | null = null;

	private readonly jsonText: ReadonlySet<string>;

	constructor(
		private readonly columns: readonly Column[],
		private readonly build: (db: Db, row: Record<Column, Placeholder>) => Preparable,
		options: { jsonText?: readonly Column[] } = {},
	) {
		this.jsonText = new Set(options.jsonText ?? []);
	}

	/** The rows in as few statements as the row and size limits allow (one for a bulk's hundred). */
	bind(db: Db, rows: readonly Pick<Row, Column>[]): Bound[] {
		this.compiled ??= this.compile(db);
		const { sql: text, cells, rest, prepared } = this.compiled;
		const statements: Bound[] = [];
		let part: string[] = [];
		let chars = 2;
		const flush = () => {
			if (part.length === 0) return;
			const statement = db.$client.prepare(text).bind(`[${part.join(",")}]`, ...rest);
			statements.push({ statement, read: (result) => prepared.mapResult(result, true) });
			part = [];
			chars = 2;
		};
		for (const row of rows) {
			let json = "[";
			for (let i = 0; i < cells.length; i++) {
				const { name, encode, json: isJson } = cells[i] as CompiledJsonRows["cells"][number];
				const value = row[name as Column];
				if (i > 0) json += ",";
				if (value === null || value === undefined) json += "null";
				else if (isJson) json += encode ? (encode(value) as string) : (value as string);
				else json += JSON.stringify(encode ? encode(value) : value);
			}
			json += "]";
			if (
				part.length >= JSON_ROWS_MAX_ROWS ||
				(part.length > 0 && chars + json.length + 1 > JSON_ROWS_MAX_CHARS)
			) {
				flush();
			}
			part.push(json);
			chars += json.length + 1;
		}
		flush();
		return statements;
	}

	private compile(db: Db): CompiledJsonRows {
		const row = Object.fromEntries(this.columns.map((c) => [c, sql.placeholder(c)])) as unknown as Record<
			Column,
			Placeholder
		>;
		const prepared = this.build(db, row).prepare();
		const { sql: text, params } = prepared.getQuery();
		const match = / values \(([^()]*)\)/.exec(text);
		if (!match || match.index === undefined) throw new Error(`Not a one-row insert: ${text}`);
		const items = (match[1] as string).split(", ");
		const slots = params.map(slotOf);
		const cells: CompiledJsonRows["cells"] = [];
		const select = items.map((item) => {
			if (item === "null") return "null";
			const slot = slots[cells.length];
			if (item !== "?" || !slot || slot.name === null)
				throw new Error(`Unexpected value "${item}" in: ${text}`);
			const json = slot.json || this.jsonText.has(slot.name);
			cells.push({ name: slot.name, encode: slot.encode, json });
			const at = cells.length - 1;
			return json ? `nullif(value -> ${at}, 'null')` : `value ->> ${at}`;
		});
		const rest = slots.slice(cells.length).map((slot) => {
			if (slot.name !== null) throw new Error(`A placeholder after the values in: ${text}`);
			return slot.constant;
		});
		const before = text.slice(0, match.index);
		const after = text.slice(match.index + match[0].length);
		return {
			sql: `${before} select ${select.join(", ")} from json_each(?) where true order by key${after}`,
			cells,
			rest,
			prepared,
		};
	}
}

/** A drizzle query built now, as a batch statement (for statements that are not hot). */
export function boundQuery(db: Db, query: Preparable): Bound {
	const prepared = query.prepare();
	const { sql: text, params } = prepared.getQuery();
	return {
		statement: db.$client.prepare(text).bind(...params),
		read: (result) => prepared.mapResult(result, true),
	};
}

/**
 * A select written in SQL (a compound, say) whose rows have the columns of `like`, in its order:
 * read as `like`'s rows are. Its placeholders bind as a template's do.
 */
export function selectLike(db: Db, query: SQL, like: Preparable): Preparable {
	return {
		prepare() {
			const model = like.prepare() as Prepared & Selection;
			const text = db.all(query).getQuery();
			return {
				getQuery: () => text,
				mapResult: (response, isFromBatch) => model.mapResult(response, isFromBatch),
				fields: model.fields,
				customResultMapper: model.customResultMapper,
			} as Prepared & Selection;
		},
	};
}

/** Runs the statements in one D1 batch (one transaction); each result read as drizzle would. */
export async function runBatch(db: Db, items: readonly Bound[]): Promise<unknown[]> {
	const results = await db.$client.batch(items.map((item) => item.statement));
	return results.map((result, i) => (items[i] as Bound).read(result));
}

/**
 * Runs one select on its own with its rows fetched as arrays: objects keyed by column name would
 * merge joined tables' columns of the same name (`id`, ...), and a batch's rows arrive as objects
 * that drizzle turns back into arrays before it maps them (for a list's page of 100 rows, a
 * measurable part of the request).
 */
export async function runRows(item: BoundTemplate): Promise<unknown> {
	return item.readRows(await item.statement.raw());
}

/** Runs one statement on its own. */
export async function runOne(item: Bound): Promise<unknown> {
	return item.read(await item.statement.all());
}

function compile(query: Preparable): Compiled {
	const prepared = query.prepare();
	const { sql: text, params } = prepared.getQuery();
	return { sql: text, slots: params.map(slotOf), prepared, readFlat: flatRowReader(prepared) };
}

interface Decoder {
	mapFromDriverValue(value: unknown): unknown;
}

/** An SQL value's decoder (`mapWith`, or none), which drizzle keeps out of its types. */
function decoderOf(value: SQL): Decoder {
	return (value as unknown as { decoder: Decoder }).decoder;
}

/** What drizzle's prepared select keeps of its selection (not in its types; absent, drizzle reads). */
interface Selection {
	fields?: readonly { path: readonly string[]; field: unknown }[];
	customResultMapper?: unknown;
}

/**
 * For a select of columns and SQL values under their own keys (no nested objects, no joined
 * tables), a reader of its rows that decodes each value as drizzle does (null stays null, every
 * other value through its column's or SQL's decoder), worked out once: drizzle's own reader works
 * out each cell's decoder and path again on every row, which was a measurable part of a list's page
 * (docs/performance.md). Null for any other select, which drizzle then reads itself.
 */
export function flatRowReader(prepared: Prepared): ((rows: unknown[][]) => Record<string, unknown>[]) | null {
	const { fields, customResultMapper } = prepared as Prepared & Selection;
	if (!fields || customResultMapper) return null;
	const keys: string[] = [];
	const decoders: Decoder[] = [];
	for (const { path, field } of fields) {
		const [key] = path;
		if (path.length !== 1 || key === undefined) return null;
		if (is(field, Column)) decoders.push(field);
		else if (is(field, SQL)) decoders.push(decoderOf(field));
		else if (is(field, SQL.Aliased)) decoders.push(decoderOf(field.sql));
		else return null;
		keys.push(key);
	}
	return (rows) =>
		rows.map((row) => {
			const out: Record<string, unknown> = {};
			for (let i = 0; i < keys.length; i++) {
				const value = row[i];
				out[keys[i] as string] = value === null ? null : (decoders[i] as Decoder).mapFromDriverValue(value);
			}
			return out;
		});
}

function slotOf(param: unknown): Slot {
	if (is(param, Placeholder)) return { name: param.name, encode: null, json: false };
	if (is(param, Param) && is(param.value, Placeholder)) {
		const { encoder } = param;
		return {
			name: param.value.name,
			encode: (value) => encoder.mapToDriverValue(value),
			json: is(encoder, SQLiteTextJson),
		};
	}
	return { name: null, constant: param };
}
