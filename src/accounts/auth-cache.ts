import type { AuthContext } from "./auth-context";

/**
 * The isolate's cache of resolved API keys, so that most requests skip the D1 key lookup.
 *
 * An entry is only used after the account's Durable Object confirms it: every request already
 * calls that object for the rate limit (`countRequest`), and passes the key-cache version its entry was
 * cached at. The object counts the request only if that version is still current; any change of
 * the account's keys, plan, limits or name bumps the version before and after D1 changes
 * (`beginAuthChange`/`endAuthChange`), so a revoked key is refused by the very next request.
 *
 * Safety rests on one rule: an entry is cached with a version that was observed (with no change
 * open) BEFORE the D1 read that produced it. Then if the object still holds that version when the
 * entry is used, no change began after the observation, and every change that ended before it was
 * already in D1 when the key was read. See docs/performance.md.
 */

export interface CachedKey {
	auth: AuthContext;
	version: number;
}

/** An account's key-cache version as last seen by this isolate. */
interface Observation {
	version: number;
	cacheable: boolean;
}

export class AuthCache {
	private readonly entries = new Map<string, CachedKey>();
	/** Key hash -> account, learned from D1 reads: tells which account's version to snapshot. */
	private readonly accounts = new Map<string, string>();
	private readonly observed = new Map<string, Observation>();

	constructor(private readonly maxEntries = 10_000) {}

	/** The cached key, unless it has expired by `now` (then the D1 path answers API_KEY_EXPIRED). */
	get(hash: string, now: number): CachedKey | null {
		const entry = this.entries.get(hash);
		if (!entry) return null;
		if (entry.auth.expiresAt !== null && entry.auth.expiresAt <= now) {
			this.entries.delete(hash);
			return null;
		}
		return entry;
	}

	/**
	 * Taken before a D1 read of the key: the version last observed for the key's account, if
	 * the isolate knows the account and no change was open then.
	 */
	snapshot(hash: string): { accountId: string; version: number } | null {
		const accountId = this.accounts.get(hash);
		if (accountId === undefined) return null;
		const seen = this.observed.get(accountId);
		return seen?.cacheable ? { accountId, version: seen.version } : null;
	}

	/**
	 * Records a key just read from D1. It is cached only with a snapshot of its own account taken
	 * before that read; returns the version it was cached at, or null when it was not cached.
	 */
	remember(
		hash: string,
		auth: AuthContext,
		before: { accountId: string; version: number } | null,
	): number | null {
		setBounded(this.accounts, hash, auth.accountId, this.maxEntries);
		if (!before || before.accountId !== auth.accountId) return null;
		setBounded(this.entries, hash, { auth, version: before.version }, this.maxEntries);
		return before.version;
	}

	/** What the account's object answered (its version now, and whether caching is allowed). */
	observe(accountId: string, version: number, cacheable: boolean): void {
		setBounded(this.observed, accountId, { version, cacheable }, this.maxEntries);
	}

	forget(hash: string): void {
		this.entries.delete(hash);
	}

	get size(): number {
		return this.entries.size;
	}
}

/** Sets `key`, dropping the oldest entries first when the map is full (maps keep insertion order). */
function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
	map.delete(key);
	while (map.size >= max) {
		const oldest = map.keys().next();
		if (oldest.done) break;
		map.delete(oldest.value);
	}
	map.set(key, value);
}

/** One cache per isolate: module state lives as long as the isolate. */
export const authCache = new AuthCache();
