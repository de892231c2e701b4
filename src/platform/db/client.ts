import { drizzle } from "drizzle-orm/d1";
import { callCountsOn, countD1Batch, countD1Execution, countD1Statement } from "../lib/call-counts";
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

const RUNS = new Set(["run", "all", "first", "raw"]);
/** Counted statements (development counters only) and the statements they wrap, for `batch`. */
const unwrapped = new WeakMap<D1PreparedStatement, D1PreparedStatement>();

/** A statement whose runs (not its preparation) are counted: a round trip each. */
function countedStatement(statement: D1PreparedStatement): D1PreparedStatement {
	const proxy = new Proxy(statement, {
		get(target, prop) {
			const value = Reflect.get(target, prop, target);
			if (typeof value !== "function") return value;
			if (prop === "bind") return (...args: unknown[]) => countedStatement(value.apply(target, args));
			if (typeof prop === "string" && RUNS.has(prop)) {
				return (...args: unknown[]) => {
					countD1Execution();
					return value.apply(target, args);
				};
			}
			return value.bind(target);
		},
	});
	unwrapped.set(proxy, statement);
	return proxy;
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
					const statement = target.prepare(query);
					return callCountsOn() ? countedStatement(statement) : statement;
				};
			}
			if (prop === "batch") {
				return (statements: D1PreparedStatement[]) => {
					countD1Batch(statements.length);
					return target.batch(statements.map((s) => unwrapped.get(s) ?? s));
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
