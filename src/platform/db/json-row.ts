import { type Column, getTableColumns, type SQL, sql, type Table } from "drizzle-orm";

/**
 * A table's row as one SQL value, a JSON object keyed by the row's property names (as drizzle
 * names them), for a statement that carries a row of another table beside its own. The keys are
 * the schema's own identifiers, written into the SQL as literals, not bound.
 */
export function jsonObjectOf(table: Table): SQL {
	const columns = Object.entries(getTableColumns(table)) as [string, Column][];
	for (const [key] of columns) {
		if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new Error(`Not an identifier: "${key}".`);
	}
	return sql`json_object(${sql.join(
		columns.map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`),
		sql`, `,
	)})`;
}

/**
 * Reads a row from the object `jsonObjectOf` made: each value through its column's decoder, as
 * drizzle reads a row (null stays null). Throws if a column is missing: the SQL and the schema
 * disagree.
 */
export function readJsonRow<T extends Table>(table: T, value: Record<string, unknown>): T["$inferSelect"] {
	const row: Record<string, unknown> = {};
	for (const [key, column] of Object.entries(getTableColumns(table)) as [string, Column][]) {
		if (!(key in value)) throw new Error(`The JSON row has no "${key}".`);
		const cell = value[key];
		row[key] = cell === null ? null : column.mapFromDriverValue(cell);
	}
	return row as T["$inferSelect"];
}
