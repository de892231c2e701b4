import { expandReservations } from "./rate-limit";

const SCHEMA_VERSION = 3;

/** Idempotent DDL for the account object's SQLite storage, with a version row. */
export function migrateAccountStorage(sql: SqlStorage): void {
	sql.exec("CREATE TABLE IF NOT EXISTS hits (ts INTEGER NOT NULL)");
	sql.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
	const row = sql.exec<{ version: number }>("SELECT version FROM schema_version").toArray()[0];
	if (row && row.version >= SCHEMA_VERSION) return;
	sql.exec("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)");
	// One row per live interview holding a concurrent slot (`active`) or waiting for one.
	// `confirmed` is set once the interview is known to have started with its slot.
	sql.exec(`CREATE TABLE IF NOT EXISTS slots (
		interview_id TEXT PRIMARY KEY,
		state TEXT NOT NULL CHECK (state IN ('active', 'waiting')),
		seq INTEGER NOT NULL,
		since INTEGER NOT NULL,
		confirmed INTEGER NOT NULL DEFAULT 0
	)`);
	sql.exec("CREATE INDEX IF NOT EXISTS slots_state_seq ON slots (state, seq)");
	// Version 3: a row is a reservation of `n` requests (rate-limit.ts); pruning deletes a range.
	sql.exec("ALTER TABLE hits ADD COLUMN n INTEGER NOT NULL DEFAULT 1");
	sql.exec("CREATE INDEX IF NOT EXISTS hits_ts ON hits (ts)");
	sql.exec("DELETE FROM schema_version");
	sql.exec("INSERT INTO schema_version (version) VALUES (?)", SCHEMA_VERSION);
}

/** The rate window as persisted: every reservation still in it, as requests (over-counted). */
export function loadWindow(sql: SqlStorage, windowStart: number): number[] {
	return expandReservations(
		sql.exec<{ ts: number; n: number }>("SELECT ts, n FROM hits WHERE ts > ?", windowStart).toArray(),
	);
}

/** Writes a reservation; returns its row. */
export function insertReservation(sql: SqlStorage, ts: number, n: number): number {
	return sql.exec<{ id: number }>("INSERT INTO hits (ts, n) VALUES (?, ?) RETURNING rowid AS id", ts, n).one()
		.id;
}

/** Cuts a reservation that ended to the requests it covered. */
export function trimReservation(sql: SqlStorage, row: number, n: number): void {
	sql.exec("UPDATE hits SET n = ? WHERE rowid = ?", n, row);
}

export function pruneReservations(sql: SqlStorage, windowStart: number): void {
	sql.exec("DELETE FROM hits WHERE ts <= ?", windowStart);
}

export function rememberAccountId(sql: SqlStorage, accountId: string): void {
	sql.exec("INSERT OR IGNORE INTO meta (name, value) VALUES ('account_id', ?)", accountId);
}

export function storedAccountId(sql: SqlStorage): string | null {
	const row = sql.exec<{ value: string }>("SELECT value FROM meta WHERE name = 'account_id'").toArray()[0];
	return row?.value ?? null;
}

/** The account's key-cache version (see docs/performance.md): bumped around every change to keys or limits. */
export interface AuthVersion {
	version: number;
	/** Changes begun and not yet ended; while any is open, nobody may cache. */
	pending: number;
	/** When the oldest open change began (epoch ms), 0 when none is open. */
	pendingSince: number;
}

export function readAuthVersion(sql: SqlStorage): AuthVersion {
	const rows = sql
		.exec<{ name: string; value: string }>(
			"SELECT name, value FROM meta WHERE name IN ('auth_version', 'auth_pending', 'auth_pending_since')",
		)
		.toArray();
	const value = (name: string) => Number(rows.find((r) => r.name === name)?.value ?? 0);
	return {
		version: value("auth_version"),
		pending: value("auth_pending"),
		pendingSince: value("auth_pending_since"),
	};
}

export function writeAuthVersion(sql: SqlStorage, state: AuthVersion): void {
	for (const [name, value] of [
		["auth_version", state.version],
		["auth_pending", state.pending],
		["auth_pending_since", state.pendingSince],
	] as const) {
		sql.exec(
			"INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value",
			name,
			String(value),
		);
	}
}

export type SlotState = "active" | "waiting";

export interface SlotRow {
	interviewId: string;
	state: SlotState;
	seq: number;
	since: number;
	confirmed: boolean;
}

export function findSlot(sql: SqlStorage, interviewId: string): SlotRow | null {
	const row = sql
		.exec<{ interview_id: string; state: SlotState; seq: number; since: number; confirmed: number }>(
			"SELECT interview_id, state, seq, since, confirmed FROM slots WHERE interview_id = ?",
			interviewId,
		)
		.toArray()[0];
	return row
		? {
				interviewId: row.interview_id,
				state: row.state,
				seq: row.seq,
				since: row.since,
				confirmed: row.confirmed === 1,
			}
		: null;
}

/** Joins the end of the waiting line (no-op if the interview already holds or awaits a slot). */
export function enqueue(sql: SqlStorage, interviewId: string, now: number): void {
	sql.exec(
		`INSERT OR IGNORE INTO slots (interview_id, state, seq, since, confirmed)
		 VALUES (?, 'waiting', (SELECT coalesce(max(seq), 0) + 1 FROM slots), ?, 0)`,
		interviewId,
		now,
	);
}

export function countSlots(sql: SqlStorage): { active: number; waiting: number } {
	const row = sql
		.exec<{ active: number; waiting: number }>(
			`SELECT coalesce(sum(state = 'active'), 0) AS active, coalesce(sum(state = 'waiting'), 0) AS waiting FROM slots`,
		)
		.toArray()[0];
	return { active: row?.active ?? 0, waiting: row?.waiting ?? 0 };
}

/**
 * Gives free slots to the longest-waiting interviews, oldest first, while fewer than `limit`
 * are active. Returns the interviews that just got one: they must now be started.
 */
export function grantSlots(sql: SqlStorage, limit: number, now: number): string[] {
	const { active } = countSlots(sql);
	const free = Math.max(0, limit - active);
	if (free === 0) return [];
	const ids = sql
		.exec<{ interview_id: string }>(
			"SELECT interview_id FROM slots WHERE state = 'waiting' ORDER BY seq LIMIT ?",
			free,
		)
		.toArray()
		.map((r) => r.interview_id);
	for (const id of ids) {
		sql.exec("UPDATE slots SET state = 'active', since = ?, confirmed = 0 WHERE interview_id = ?", now, id);
	}
	return ids;
}

export function waitingPosition(sql: SqlStorage, interviewId: string): number {
	const row = sql
		.exec<{ position: number }>(
			`SELECT count(*) AS position FROM slots
			 WHERE state = 'waiting' AND seq <= (SELECT seq FROM slots WHERE interview_id = ?)`,
			interviewId,
		)
		.toArray()[0];
	return row?.position ?? 0;
}

export function confirmSlot(sql: SqlStorage, interviewId: string): void {
	sql.exec("UPDATE slots SET confirmed = 1 WHERE interview_id = ? AND state = 'active'", interviewId);
}

/** Removes the interview's slot or place in line; returns what it held. */
export function removeSlot(sql: SqlStorage, interviewId: string): SlotState | null {
	const slot = findSlot(sql, interviewId);
	if (slot) sql.exec("DELETE FROM slots WHERE interview_id = ?", interviewId);
	return slot?.state ?? null;
}

export function unconfirmedSlots(sql: SqlStorage): string[] {
	return sql
		.exec<{ interview_id: string }>(
			"SELECT interview_id FROM slots WHERE state = 'active' AND confirmed = 0 ORDER BY seq",
		)
		.toArray()
		.map((r) => r.interview_id);
}
