import { drizzle } from "drizzle-orm/d1";
import { countD1Batch, countD1Statement } from "../lib/call-counts";
import * as schema from "./schema";

/** Production D1 refuses statements with more than this many bound parameters. */
export const D1_MAX_BOUND_PARAMETERS = 100;

/** Counts `?` placeholders outside quoted literals and identifiers. */
export function countBoundParameters(query: string): number {
	let count = 0;
	let quote: string | null = null;
	for (const ch of query) {
		if (quote) {
			if (ch === quote) quote = null;
		} else if (ch === "'" || ch === '"' || ch === "`") {
			quote = ch;
		} else if (ch === "?") {
			count++;
		}
	}
	return count;
}

/** Counts of recent statements: the hot ones are the same strings on every request. */
const counted = new Map<string, number>();
const COUNTED_MAX = 512;

function knownCount(query: string): number {
	let n = counted.get(query);
	if (n === undefined) {
		n = countBoundParameters(query);
		if (counted.size >= COUNTED_MAX) counted.clear();
		counted.set(query, n);
	}
	return n;
}

/**
 * Wraps D1 so that a statement over production's parameter limit fails here too: local SQLite
 * allows far more, and would otherwise hide the problem until deployment.
 */
export function guardD1(database: D1Database): D1Database {
	return new Proxy(database, {
		get(target, prop) {
			if (prop === "prepare") {
				return (query: string) => {
					const n = knownCount(query);
					if (n > D1_MAX_BOUND_PARAMETERS) {
						throw new Error(
							`D1 statement has ${n} bound parameters; the limit is ${D1_MAX_BOUND_PARAMETERS}`,
						);
					}
					countD1Statement();
					return target.prepare(query);
				};
			}
			if (prop === "batch") {
				return (statements: D1PreparedStatement[]) => {
					countD1Batch(statements.length);
					return target.batch(statements);
				};
			}
			const value = Reflect.get(target, prop, target);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
}

const cache = new WeakMap<D1Database, ReturnType<typeof makeDb>>();

function makeDb(database: D1Database) {
	return drizzle(guardD1(database), { schema });
}

export type Db = ReturnType<typeof makeDb>;

export function getDb(database: D1Database): Db {
	let db = cache.get(database);
	if (!db) {
		db = makeDb(database);
		cache.set(database, db);
	}
	return db;
}
