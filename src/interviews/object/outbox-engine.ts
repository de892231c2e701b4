import { errorText } from "../../platform/lib/error-text";
import type { InterviewState } from "../core/model";
import { applyOutboxRows } from "./outbox";
import { appendOutbox, deleteOutboxThrough, hasOutbox, type OutboxItem, readOutbox } from "./storage";
import type { Timers } from "./timers";

/** The timer that retries the outbox (and guards a commit that owes it something). */
export const OUTBOX_RETRY_TIMER = "outbox_retry";
/** Delays between failed flushes: 1 s, 5 s, 30 s, 2 min, then every 10 min. */
export const OUTBOX_RETRY_MS = [1_000, 5_000, 30_000, 120_000, 600_000];
/**
 * A commit that owes the outbox something arms the retry this far ahead in its own transaction,
 * so that if the object is reset before its flush (a deploy, an eviction) the alarm flushes it.
 * A flush that succeeds first clears it again.
 */
const OUTBOX_GUARD_MS = 10_000;
/** Flush rounds at most in one call (each writes what was committed while the last was in flight). */
const FLUSH_ROUNDS = 10;

export interface OutboxDeps {
	env: Env;
	timers: Timers;
	/** The state the rows are written for (the newest: the projection is written from it). */
	state(): InterviewState | null;
}

/**
 * Applies the outbox after commits (`src/interviews/object/outbox.ts` says what each row owes)
 * and retries it from the alarm with backoff after a failure. Rows are appended inside the
 * commit's transaction (`owe`, `guard`); `flush` runs after the commit.
 */
export class OutboxEngine {
	private flushing: Promise<boolean> | null = null;
	private failures = 0;
	/**
	 * Whether an outbox retry timer is stored (read from storage when the instance starts: one
	 * may survive a restart). A commit that owes D1 arms one only if none is; a flush that empties
	 * the outbox clears it once instead of after every flush.
	 */
	private guarded = false;
	/** False only once the outbox was seen empty and nothing was appended since. */
	private pending = true;

	constructor(
		private readonly storage: DurableObjectStorage,
		private readonly deps: OutboxDeps,
	) {}

	/** An object with no tables yet owes nothing: no flush looks for rows until one is appended. */
	markEmpty(): void {
		this.pending = false;
	}

	/** Reads whether the retry timer is stored: at start, and after the alarm (it may have fired). */
	loadGuard(): void {
		this.guarded = this.deps.timers.has(OUTBOX_RETRY_TIMER);
	}

	/** Appends an outbox row (inside a commit's transaction); the next flush will look for it. */
	owe(item: OutboxItem, now: number): void {
		appendOutbox(this.storage.sql, item, now);
		this.pending = true;
	}

	/** Inside a commit that owes something: arms the retry timer as a guard, unless one is stored. */
	guard(): void {
		if (this.guarded) return;
		this.deps.timers.set(OUTBOX_RETRY_TIMER, Date.now() + OUTBOX_GUARD_MS);
		this.guarded = true;
	}

	/** Arms the retry at the first backoff step (the adoption's replay, should it not happen). */
	retrySoon(now: number): void {
		this.deps.timers.set(OUTBOX_RETRY_TIMER, now + (OUTBOX_RETRY_MS[0] ?? 1_000));
		this.guarded = true;
	}

	/**
	 * Applies the outbox until it is empty; true if it is. Concurrent callers share the attempt in
	 * flight and then look again, so rows committed while a batch was being written are never left
	 * behind.
	 */
	async flush(): Promise<boolean> {
		const sql = this.storage.sql;
		for (let round = 0; round < FLUSH_ROUNDS; round++) {
			if (this.flushing) {
				await this.flushing;
				continue;
			}
			if (!this.pending) return true;
			if (!hasOutbox(sql)) {
				this.pending = false;
				return true;
			}
			this.flushing = this.apply().finally(() => {
				this.flushing = null;
			});
			if (!(await this.flushing)) return false;
		}
		return !hasOutbox(sql);
	}

	private async apply(): Promise<boolean> {
		const sql = this.storage.sql;
		const { timers } = this.deps;
		const rows = readOutbox(sql);
		const state = this.deps.state();
		const last = rows.at(-1);
		if (!last || !state) return true;
		try {
			await applyOutboxRows(this.deps.env, state, rows);
			deleteOutboxThrough(sql, last.seq);
			// Rows appended while the batch was in flight keep the outbox pending for the next round.
			if (!hasOutbox(sql)) {
				if (this.guarded) {
					timers.set(OUTBOX_RETRY_TIMER, null);
					this.guarded = false;
					await timers.arm();
				}
				this.pending = false;
			}
			this.failures = 0;
			return true;
		} catch (error) {
			const delay = retryDelay(this.failures);
			this.failures++;
			console.error(
				JSON.stringify({ message: "outbox flush failed", interview_id: state.id, error: errorText(error) }),
			);
			timers.set(OUTBOX_RETRY_TIMER, Date.now() + delay);
			this.guarded = true;
			await timers.arm();
			return false;
		}
	}
}

/** The retry's delay after `failures` failed flushes in a row (0: the first failure). */
export function retryDelay(failures: number): number {
	return OUTBOX_RETRY_MS[Math.min(failures, OUTBOX_RETRY_MS.length - 1)] ?? 1_000;
}
