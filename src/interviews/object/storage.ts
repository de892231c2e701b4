import type { CandidateEmailRequest } from "../../email/model";
import { chunks } from "../../platform/lib/chunks";
import type { InterviewState, Json, TranscriptEntry } from "../core/model";

const SCHEMA_VERSION = 4;

/**
 * Set on an object made before version 4: it may hold recording chunks its count never saw
 * (`RecordingUsageCounter.mayHoldChunks`).
 */
const RECORDINGS_UNCOUNTED = "recordings_uncounted";

/** Whether the object's tables exist: a read only, so an object that holds nothing stays empty. */
export function hasInterviewStorage(sql: SqlStorage): boolean {
	return (
		sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").toArray()
			.length > 0
	);
}

/**
 * Idempotent DDL for the interview object's SQLite storage, with a version row. A new object's
 * tables are made by one multi-statement call (a join creates an object, so this is on the room's
 * path); an older object is brought up to date the same way, then its rows are moved.
 */
export function migrateInterviewStorage(sql: SqlStorage): void {
	sql.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
	const row = sql.exec<{ version: number }>("SELECT version FROM schema_version").toArray()[0];
	if (row && row.version >= SCHEMA_VERSION) return;
	sql.exec(`
		CREATE TABLE IF NOT EXISTS interview (
			singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
			state TEXT NOT NULL
		);
		CREATE TABLE IF NOT EXISTS outbox (
			seq INTEGER PRIMARY KEY AUTOINCREMENT,
			kind TEXT NOT NULL,
			payload TEXT NOT NULL,
			created_at INTEGER NOT NULL
		);
		CREATE TABLE IF NOT EXISTS timers (kind TEXT PRIMARY KEY, due_at INTEGER NOT NULL);
		-- Version 2: the real-time channel's message log (replayed on resync) and its sequence.
		CREATE TABLE IF NOT EXISTS messages (seq INTEGER PRIMARY KEY, payload TEXT NOT NULL);
		CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
		-- Version 3: the transcript in a row per entry, so that an answer writes its entry, not them all.
		CREATE TABLE IF NOT EXISTS transcript (idx INTEGER PRIMARY KEY, entry TEXT NOT NULL)`);
	const before = sql.exec<{ state: string }>("SELECT state FROM interview WHERE singleton = 1").toArray()[0];
	if (before) {
		const state = JSON.parse(before.state) as Partial<InterviewState>;
		if (Array.isArray(state.transcript)) saveState(sql, null, state as InterviewState);
	}
	// Version 4: an object made from now on counts every recording chunk before it is stored, so a
	// count of none means none is stored; one made before may hold chunks from before the count.
	if (row) {
		sql.exec(
			"INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT(name) DO NOTHING",
			RECORDINGS_UNCOUNTED,
		);
	}
	sql.exec(`DELETE FROM schema_version; INSERT INTO schema_version (version) VALUES (${SCHEMA_VERSION})`);
}

/** Whether the object is older than the recording count (see `RECORDINGS_UNCOUNTED`). */
export function recordingsUncounted(sql: SqlStorage): boolean {
	return sql.exec("SELECT 1 FROM counters WHERE name = ? LIMIT 1", RECORDINGS_UNCOUNTED).toArray().length > 0;
}

export function loadState(sql: SqlStorage): InterviewState | null {
	const row = sql.exec<{ state: string }>("SELECT state FROM interview WHERE singleton = 1").toArray()[0];
	if (!row) return null;
	const transcript = sql
		.exec<{ entry: string }>("SELECT entry FROM transcript ORDER BY idx")
		.toArray()
		.map((r) => JSON.parse(r.entry) as TranscriptEntry);
	return { ...(JSON.parse(row.state) as Omit<InterviewState, "transcript">), transcript };
}

/**
 * Stores `state`, whose predecessor in storage is `stored` (null: unknown or none). The transcript
 * lives in a row per entry and only the entries that are not the very objects `stored` held are
 * written: transitions are pure, so an answer replaces one entry and a question appends one, and
 * the rest of the state is small. Call inside the commit's transaction.
 */
export function saveState(sql: SqlStorage, stored: InterviewState | null, state: InterviewState): void {
	const { transcript, ...rest } = state;
	sql.exec(
		"INSERT INTO interview (singleton, state) VALUES (1, ?) ON CONFLICT(singleton) DO UPDATE SET state = excluded.state",
		JSON.stringify(rest),
	);
	const changed: unknown[] = [];
	transcript.forEach((entry, i) => {
		if (stored?.transcript[i] !== entry) changed.push(i, JSON.stringify(entry));
	});
	// One statement per 50 entries (100 bound parameters): an answer writes its two in one.
	for (const part of chunks(changed, 100)) {
		sql.exec(
			`INSERT INTO transcript (idx, entry) VALUES ${rowsOf(part.length / 2, 2)} ON CONFLICT(idx) DO UPDATE SET entry = excluded.entry`,
			...part,
		);
	}
	if (!stored || stored.transcript.length > transcript.length)
		sql.exec("DELETE FROM transcript WHERE idx >= ?", transcript.length);
}

export type OutboxItem =
	| { kind: "projection" }
	| { kind: "event"; event: { id: string; type: string; data: { [key: string]: Json }; createdAt: number } }
	| { kind: "refund"; entryId: string; credits: number; createdAt: number }
	| { kind: "notify"; request: CandidateEmailRequest }
	| { kind: "release_quota"; createdAt: number }
	| { kind: "release_slot" }
	/** Deletes the interview's seed row once adopted (src/interviews/db/seeds-repo.ts). */
	| { kind: "forget_seed" };

export interface OutboxRow {
	seq: number;
	item: OutboxItem;
}

export function appendOutbox(sql: SqlStorage, item: OutboxItem, now: number): void {
	sql.exec(
		"INSERT INTO outbox (kind, payload, created_at) VALUES (?, ?, ?)",
		item.kind,
		JSON.stringify(item),
		now,
	);
}

export function readOutbox(sql: SqlStorage): OutboxRow[] {
	return sql
		.exec<{ seq: number; payload: string }>("SELECT seq, payload FROM outbox ORDER BY seq")
		.toArray()
		.map((r) => ({ seq: r.seq, item: JSON.parse(r.payload) as OutboxItem }));
}

/** Whether any outbox row is waiting, without reading the rows. */
export function hasOutbox(sql: SqlStorage): boolean {
	return sql.exec("SELECT 1 FROM outbox LIMIT 1").toArray().length > 0;
}

export function deleteOutboxThrough(sql: SqlStorage, seq: number): void {
	sql.exec("DELETE FROM outbox WHERE seq <= ?", seq);
}

export function setTimer(sql: SqlStorage, kind: string, dueAt: number | null): void {
	if (dueAt === null) {
		sql.exec("DELETE FROM timers WHERE kind = ?", kind);
		return;
	}
	sql.exec(
		"INSERT INTO timers (kind, due_at) VALUES (?, ?) ON CONFLICT(kind) DO UPDATE SET due_at = excluded.due_at",
		kind,
		dueAt,
	);
}

export function hasTimer(sql: SqlStorage, kind: string): boolean {
	return sql.exec("SELECT 1 FROM timers WHERE kind = ? LIMIT 1", kind).toArray().length > 0;
}

export function earliestTimer(sql: SqlStorage): number | null {
	const row = sql.exec<{ due: number | null }>("SELECT MIN(due_at) AS due FROM timers").toArray()[0];
	return row?.due ?? null;
}

export function dueTimers(sql: SqlStorage, now: number): { kind: string; dueAt: number }[] {
	return sql
		.exec<{ kind: string; due_at: number }>(
			"SELECT kind, due_at FROM timers WHERE due_at <= ? ORDER BY due_at",
			now,
		)
		.toArray()
		.map((r) => ({ kind: r.kind, dueAt: r.due_at }));
}

/** Removes a timer only if it is still the one that fired (a command may have re-armed it). */
export function clearTimer(sql: SqlStorage, kind: string, dueAt: number): void {
	sql.exec("DELETE FROM timers WHERE kind = ? AND due_at = ?", kind, dueAt);
}

/** How many sequence numbers one write of the counter reserves. */
export const SEQ_BLOCK = 100;
/** Stored messages older than this many sequence numbers are deleted (resync replays the rest). */
export const MESSAGES_KEPT = 1_000;

/**
 * The room's message sequence: increasing, not contiguous. The stored counter is the end of a
 * reserved block, written once per `SEQ_BLOCK` messages; numbers are handed out from memory, and a
 * new instance starts after the last block reserved, so a number is never handed out twice.
 */
export class SeqCounter {
	private next = 0;
	private reservedThrough = 0;

	constructor(private readonly sql: SqlStorage) {}

	take(): number {
		if (this.next === 0) {
			const row = this.sql
				.exec<{ value: number }>("SELECT value FROM counters WHERE name = 'seq'")
				.toArray()[0];
			this.reservedThrough = row?.value ?? 0;
			this.next = this.reservedThrough + 1;
		}
		if (this.next > this.reservedThrough) {
			this.reservedThrough = this.next + SEQ_BLOCK - 1;
			this.sql.exec(
				"INSERT INTO counters (name, value) VALUES ('seq', ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value",
				this.reservedThrough,
			);
			// Once a block: the stored messages stay bounded however long the object lives (each
			// API change of a scheduled interview stores one), and a resync is at most that long.
			this.sql.exec("DELETE FROM messages WHERE seq <= ?", this.next - MESSAGES_KEPT);
		}
		return this.next++;
	}

	/** After the storage was deleted (the purge). */
	reset(): void {
		this.next = 0;
		this.reservedThrough = 0;
	}
}

/** Deletes the room's whole message history (its retention after the interview ended). */
export function deleteMessages(sql: SqlStorage): void {
	sql.exec("DELETE FROM messages");
}

/** Stores messages of the real-time channel in one statement (up to 50: 100 bound parameters). */
export function saveMessages(sql: SqlStorage, messages: readonly { seq: number; payload: string }[]): void {
	for (const part of chunks(messages, 50)) {
		sql.exec(
			`INSERT INTO messages (seq, payload) VALUES ${rowsOf(part.length, 2)}`,
			...part.flatMap((m) => [m.seq, m.payload]),
		);
	}
}

/** `(?, ?), (?, ?)`: placeholders for `rows` rows of `columns` values. */
function rowsOf(rows: number, columns: number): string {
	const row = `(${Array.from({ length: columns }, () => "?").join(", ")})`;
	return Array.from({ length: rows }, () => row).join(", ");
}

export function messagesAfter(sql: SqlStorage, seq: number, limit = 1000): string[] {
	return sql
		.exec<{ payload: string }>("SELECT payload FROM messages WHERE seq > ? ORDER BY seq LIMIT ?", seq, limit)
		.toArray()
		.map((r) => r.payload);
}
