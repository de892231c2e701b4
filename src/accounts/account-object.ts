import { DurableObject } from "cloudflare:workers";
import { getDb } from "../platform/db/client";
import { errorText } from "../platform/lib/error-text";
import {
	type AuthVersion,
	confirmSlot,
	countSlots,
	enqueue,
	findSlot,
	grantSlots,
	insertReservation,
	loadWindow,
	migrateAccountStorage,
	pruneReservations,
	readAuthVersion,
	rememberAccountId,
	removeSlot,
	storedAccountId,
	trimReservation,
	unconfirmedSlots,
	waitingPosition,
	writeAuthVersion,
} from "./account-storage";
import type {
	ChangeAtOnceOutcome,
	ChangeAtOnceRequest,
	ChangeDecided,
	ChangeRead,
	ChangeRequest,
	ChangeWrite,
	ChangeWritten,
	CountAnswer,
	CreateAtOnceOutcome,
	CreateAtOnceRequest,
	CreateWrite,
	CreateWritten,
	SlotResult,
	SlotUsage,
} from "./account-stub";
import { findAccount } from "./accounts-repo";
import { type CommitOutcome, GroupCommit } from "./group-commit";
import { effectiveLimits, type PlanId } from "./plans";
import { admitLiveInterviews } from "./quota-repo";
import { decide, nextReservationSize, type RateDecision, RESERVATION_MS, WINDOW_MS } from "./rate-limit";

/** A granted slot is checked this long after the grant, in case its interview never started. */
const CONFIRM_AFTER_MS = 60_000;
const RETRY_AFTER_MS = 10_000;
const MAX_STARTS_PER_CALL = 100;
/** Old reservations leave SQLite at most this often (the in-memory window is pruned on every request). */
const SQL_PRUNE_EVERY_MS = 1_000;
/** A change of keys or limits still open after this long is taken as abandoned (its Worker died). */
const AUTH_CHANGE_TIMEOUT_MS = 5 * 60_000;
/** Interviews per group commit: a bulk's worth, whose statements are known to fit D1's limits. */
const MAX_INTERVIEWS_PER_COMMIT = 100;
/**
 * Changes per group commit: a change writes about ten statements (guard, row, projection, ledger,
 * monthly count, events), so a group stays far below D1's 1,000 queries per call.
 */
const MAX_CHANGES_PER_COMMIT = 20;
/** Seeds per grouped read: one statement whatever the number (the ids are one JSON parameter). */
const MAX_SEEDS_PER_READ = 100;

/**
 * What the account object does through the modules above accounts, which accounts does not
 * import: the composition (src/worker.ts) hands it over with `AccountObject.configure` when the
 * Worker's module loads, before any object is constructed.
 */
export interface AccountObjectDeps {
	/** Commits single creates' writes in one batch (one transaction); one result per write, in order. */
	commitCreates(env: Env, writes: CreateWrite[]): Promise<CreateWritten[]>;
	/** Interviews one write holds: a group commit stays within MAX_INTERVIEWS_PER_COMMIT. */
	interviewsIn(write: CreateWrite): number;
	/** Commits changes of interviews not yet opened in one batch; one result per write, in order. */
	commitChanges(env: Env, writes: ChangeWrite[]): Promise<ChangeWritten[]>;
	/** Reads the seeds of interviews not yet opened in one statement; one per id, in order. */
	readSeeds(env: Env, ids: string[]): Promise<ChangeRead[]>;
	/** Decides a change against its seed, reading and writing through `io`. */
	decideChange(
		request: ChangeRequest,
		io: { read(id: string): Promise<ChangeRead>; commit(write: ChangeWrite): Promise<ChangeWritten> },
	): Promise<ChangeDecided>;
	/** Starts a live interview just given a slot; `not_waiting` when it no longer waits. */
	startWaiting(env: Env, interviewId: string, now: number): Promise<{ status: "started" | "not_waiting" }>;
}

let configured: AccountObjectDeps | null = null;

function deps(): AccountObjectDeps {
	if (!configured) throw new Error("AccountObject.configure was not called (src/worker.ts calls it)");
	return configured;
}

/** A grouped read's or write's result, or its failure as an error (with D1's message). */
function resultOf<R>(outcome: CommitOutcome<R>): R {
	if (outcome.status === "failed") throw new Error(outcome.error);
	return outcome.result;
}

/**
 * One per account: the serialisation point for per-account limits.
 * - Rate limit: the timestamps of the requests counted in the last 60 seconds (in memory,
 *   mirrored to SQLite so an eviction loses nothing), which makes the sliding window exact.
 * - Concurrent interviews: which live interviews hold a slot and which joined ones wait, in
 *   order; a freed slot goes to the longest-waiting interview, which this object starts.
 * - Single creates: counted, admitted and written in one call (`createAtOnce`), the writes of
 *   concurrent creates committed to D1 together (group commit).
 * - Changes of interviews not yet opened (a cancel, an update decided against the seed): counted,
 *   decided and written in one call (`changeAtOnce`); the seeds of concurrent changes are read
 *   together and their writes committed together the same way.
 */
export class AccountObject extends DurableObject<Env> {
	/** Hands over what the object needs from higher modules (see `AccountObjectDeps`). */
	static configure(given: AccountObjectDeps): void {
		configured = given;
	}

	/** This object's clock; tests move it instead of waiting. */
	clock: () => number = Date.now;
	private hits: number[] = [];
	/** The newest persisted reservation: its row, its size, the requests it still covers, up to its time. */
	private reserved: { row: number; size: number; left: number; until: number } | null = null;
	private lastSqlPrune = 0;
	private auth: AuthVersion = { version: 0, pending: 0, pendingSince: 0 };
	/** Single creates' D1 writes, those that arrive while one is in flight committed together. */
	readonly creations = new GroupCommit<CreateWrite, CreateWritten>({
		run: (writes) => deps().commitCreates(this.env, writes),
		size: (write) => deps().interviewsIn(write),
		maxSize: MAX_INTERVIEWS_PER_COMMIT,
	});
	/** Changes' D1 writes, committed together as creates are (each still guarded by its own seed's version). */
	readonly changes = new GroupCommit<ChangeWrite, ChangeWritten>({
		run: (writes) => deps().commitChanges(this.env, writes),
		size: () => 1,
		maxSize: MAX_CHANGES_PER_COMMIT,
	});
	/** Seed reads of changes, those that arrive while one is in flight read together. */
	readonly seedReads = new GroupCommit<string, ChangeRead>({
		run: (ids) => deps().readSeeds(this.env, ids),
		size: () => 1,
		maxSize: MAX_SEEDS_PER_READ,
	});

	constructor(ctx: DurableObjectState, env: Env) {
		super(ctx, env);
		ctx.blockConcurrencyWhile(async () => {
			const sql = ctx.storage.sql;
			migrateAccountStorage(sql);
			this.hits = loadWindow(sql, Date.now() - WINDOW_MS);
			this.auth = readAuthVersion(sql);
		});
	}

	/** The cheapest call there is: the floor probe's (development only, src/platform/lib/floor-probe.ts). */
	ping(): number {
		return 1;
	}

	/**
	 * The API's per-request call: counts the request like `hit`, unless `version` (the key-cache
	 * version the Worker's cached key was confirmed at; null for a key just read from D1) is no
	 * longer current, in which case nothing is counted and the Worker reads the key again.
	 */
	async countRequest(limit: number, version: number | null): Promise<CountAnswer> {
		this.expireAbandonedChange();
		const cacheable = this.auth.pending === 0;
		if (version !== null && (version !== this.auth.version || !cacheable)) {
			return { status: "stale", version: this.auth.version, cacheable };
		}
		return { status: "counted", decision: await this.hit(limit), version: this.auth.version, cacheable };
	}

	/**
	 * A single create in one call: the request is counted as `countRequest` counts it; if it is allowed,
	 * a live interview is admitted to the monthly quota and debited its credit (one D1 batch, as
	 * `admitLiveInterviews` does it for the Worker), and then it is written with the creates that
	 * arrived meanwhile (one D1 batch for them all). Stops at the first step that does not go
	 * through and says which; never rejects for a failed write (a rejected call can surface as an
	 * unhandled rejection), it reports it.
	 */
	async createAtOnce(request: CreateAtOnceRequest): Promise<CreateAtOnceOutcome> {
		const count = await this.countRequest(request.limit, request.version);
		if (count.status !== "counted" || !count.decision.allowed) return { count };
		if (request.admissions.length > 0) {
			try {
				const quota = await admitLiveInterviews(getDb(this.env.DB), request.admissions);
				if (quota.some((outcome) => !outcome.admitted)) return { count, quota };
			} catch (error) {
				return { count, commit: { status: "failed", error: errorText(error) } };
			}
		}
		return { count, commit: await this.creations.commit(request.write) };
	}

	/**
	 * A change of an interview not yet opened in one call: the request is counted as `countRequest`
	 * counts it and, if allowed, the change is decided against its seed, read with the seeds of the
	 * changes that arrived meanwhile and written with their writes. Never rejects: a read or write
	 * D1 could not do is reported (`error`).
	 */
	async changeAtOnce(request: ChangeAtOnceRequest): Promise<ChangeAtOnceOutcome> {
		const count = await this.countRequest(request.limit, request.version);
		if (count.status !== "counted" || !count.decision.allowed) return { count };
		try {
			const decided = await deps().decideChange(request.change, {
				read: async (id) => resultOf(await this.seedReads.commit(id)),
				commit: async (write) => resultOf(await this.changes.commit(write)),
			});
			return { count, decided };
		} catch (error) {
			return { count, error: errorText(error) };
		}
	}

	/**
	 * Called before D1 changes a key or the account's plan, limits or name: every cached key of
	 * the account becomes stale at once, and none is cached until `endAuthChange`.
	 */
	async beginAuthChange(): Promise<void> {
		this.expireAbandonedChange();
		const now = this.clock();
		this.setAuth({
			version: this.auth.version + 1,
			pending: this.auth.pending + 1,
			pendingSince: this.auth.pending === 0 ? now : this.auth.pendingSince,
		});
	}

	/** Called once D1 holds the change: stale again (for keys read during it), and cacheable. */
	async endAuthChange(): Promise<void> {
		const pending = Math.max(0, this.auth.pending - 1);
		this.setAuth({
			version: this.auth.version + 1,
			pending,
			pendingSince: pending === 0 ? 0 : this.auth.pendingSince,
		});
	}

	/** Counts one request against `limit` per 60 s if the window has room. */
	async hit(limit: number): Promise<RateDecision> {
		const now = this.clock();
		this.prune(now);
		const decision = decide(this.hits, limit, now);
		if (decision.allowed) {
			// Arrival order, not clock jitter, defines the window: keep timestamps monotonic.
			const ts = Math.max(now, this.hits.at(-1) ?? now);
			this.hits.push(ts);
			this.persist(ts, limit - this.hits.length);
		}
		return decision;
	}

	/** The count in the window now, without counting anything. */
	async usage(): Promise<number> {
		this.prune(this.clock());
		return this.hits.length;
	}

	/**
	 * A live interview's candidate has joined: it gets a slot if one is free and nobody has been
	 * waiting longer, otherwise it joins the line. Idempotent per interview.
	 */
	async acquireSlot(accountId: string, interviewId: string): Promise<SlotResult> {
		let limit: number;
		try {
			limit = await this.concurrentLimit(accountId);
		} catch (error) {
			// A result, not a rejection: the caller keeps the candidate waiting and asks again.
			console.error(
				JSON.stringify({
					message: "slot limit unreadable",
					interview_id: interviewId,
					error: errorText(error),
				}),
			);
			return { status: "unavailable" };
		}
		const sql = this.ctx.storage.sql;
		const now = this.clock();
		const granted = this.ctx.storage.transactionSync(() => {
			rememberAccountId(sql, accountId);
			enqueue(sql, interviewId, now);
			return grantSlots(sql, limit, now);
		});
		const result: SlotResult =
			findSlot(sql, interviewId)?.state === "active"
				? { status: "acquired" }
				: { status: "waiting", position: waitingPosition(sql, interviewId) };
		if (result.status === "acquired") await this.armCheck(CONFIRM_AFTER_MS);
		await this.startGranted(
			accountId,
			granted.filter((id) => id !== interviewId),
		);
		return result;
	}

	/**
	 * The interview ended (completed or cancelled) or left the line: its slot goes to the
	 * longest-waiting interview, which is started. Idempotent per interview.
	 */
	async releaseSlot(accountId: string, interviewId: string): Promise<{ released: boolean }> {
		const limit = await this.concurrentLimit(accountId);
		const sql = this.ctx.storage.sql;
		const now = this.clock();
		const { held, granted } = this.ctx.storage.transactionSync(() => {
			rememberAccountId(sql, accountId);
			return { held: removeSlot(sql, interviewId), granted: grantSlots(sql, limit, now) };
		});
		await this.startGranted(accountId, granted);
		return { released: held !== null };
	}

	async slotUsage(): Promise<SlotUsage> {
		return countSlots(this.ctx.storage.sql);
	}

	/** Checks granted slots whose interview was not seen to start, and fills any free slot. */
	override async alarm(): Promise<void> {
		const sql = this.ctx.storage.sql;
		const accountId = storedAccountId(sql);
		if (!accountId) return;
		const limit = await this.concurrentLimitOrRetry(accountId);
		if (limit === null) return;
		this.ctx.storage.transactionSync(() => grantSlots(sql, limit, this.clock()));
		await this.startGranted(accountId, unconfirmedSlots(sql));
	}

	/**
	 * The account's limit may have been raised (an admin's change of plan or override): free slots
	 * go to the longest-waiting interviews now, which are started, rather than at the next join or
	 * release. Answers how many were given a slot; never rejects (a limit D1 cannot give re-arms
	 * the check, which fills them then).
	 */
	async fillSlots(): Promise<{ granted: number }> {
		const sql = this.ctx.storage.sql;
		const accountId = storedAccountId(sql);
		if (!accountId) return { granted: 0 };
		try {
			const limit = await this.concurrentLimitOrRetry(accountId);
			if (limit === null) return { granted: 0 };
			const granted = this.ctx.storage.transactionSync(() => grantSlots(sql, limit, this.clock()));
			await this.startGranted(accountId, granted);
			return { granted: granted.length };
		} catch (error) {
			console.error(JSON.stringify({ message: "slot fill failed", error: errorText(error) }));
			await this.armCheck(RETRY_AFTER_MS);
			return { granted: 0 };
		}
	}

	/**
	 * Starts interviews that were just given a slot. One that is no longer waiting (cancelled
	 * meanwhile) gives its slot to the next in line; one that cannot be reached is retried by
	 * the alarm.
	 */
	private async startGranted(accountId: string, ids: string[]): Promise<void> {
		const sql = this.ctx.storage.sql;
		// Before any start is tried: should this call end early (the object reset, D1 failing),
		// the alarm finds the granted slots still unconfirmed and starts them.
		if (ids.length > 0) await this.armCheck(CONFIRM_AFTER_MS);
		const queue = [...ids];
		for (let round = 0; round < MAX_STARTS_PER_CALL && queue.length > 0; round++) {
			const id = queue.shift() as string;
			let outcome: { status: "started" | "not_waiting" };
			try {
				outcome = await deps().startWaiting(this.env, id, this.clock());
			} catch (error) {
				console.error(
					JSON.stringify({ message: "slot start failed", interview_id: id, error: errorText(error) }),
				);
				await this.armCheck(RETRY_AFTER_MS);
				continue;
			}
			if (outcome.status === "started") {
				confirmSlot(sql, id);
				continue;
			}
			const limit = await this.concurrentLimitOrRetry(accountId);
			if (limit === null) return;
			queue.push(
				...this.ctx.storage.transactionSync(() => {
					removeSlot(sql, id);
					return grantSlots(sql, limit, this.clock());
				}),
			);
		}
		if (queue.length > 0) await this.armCheck(RETRY_AFTER_MS);
	}

	private async concurrentLimit(accountId: string): Promise<number> {
		const row = await findAccount(getDb(this.env.DB), accountId);
		if (!row) return 0;
		return effectiveLimits(row.plan as PlanId, {
			requests_per_minute: row.requestsPerMinuteOverride,
			concurrent_interviews: row.concurrentInterviewsOverride,
			monthly_interviews: row.monthlyInterviewsOverride,
		}).concurrent_interviews;
	}

	/** The limit, or null with the check alarm armed to try again when D1 cannot say. */
	private async concurrentLimitOrRetry(accountId: string): Promise<number | null> {
		try {
			return await this.concurrentLimit(accountId);
		} catch (error) {
			console.error(JSON.stringify({ message: "slot limit unreadable", error: errorText(error) }));
			await this.armCheck(RETRY_AFTER_MS);
			return null;
		}
	}

	private async armCheck(delayMs: number): Promise<void> {
		const at = Date.now() + delayMs;
		const current = await this.ctx.storage.getAlarm();
		if (current === null || current > at) await this.ctx.storage.setAlarm(at);
	}

	/**
	 * Makes sure a persisted reservation covers the request counted at `ts`: most requests use
	 * one already written; otherwise a new one is written, so SQLite is written once per
	 * reservation rather than once per request, and never lags behind memory. A reservation that
	 * ends with places unused is first cut to the requests it covered, so only the newest one can
	 * count more than it covers after a restart. The new one is sized by the traffic
	 * (`nextReservationSize`): sparse requests get one place each.
	 */
	private persist(ts: number, remaining: number): void {
		const current = this.reserved;
		if (current && current.left > 0 && ts <= current.until) {
			current.left--;
			return;
		}
		const sql = this.ctx.storage.sql;
		if (current && current.left > 0) trimReservation(sql, current.row, current.size - current.left);
		const size = nextReservationSize(current, ts, remaining);
		const until = ts + RESERVATION_MS;
		this.reserved = { row: insertReservation(sql, until, size), size, left: size - 1, until };
	}

	private setAuth(next: AuthVersion): void {
		writeAuthVersion(this.ctx.storage.sql, next);
		this.auth = next;
	}

	private expireAbandonedChange(): void {
		if (this.auth.pending > 0 && this.clock() - this.auth.pendingSince > AUTH_CHANGE_TIMEOUT_MS) {
			this.setAuth({ version: this.auth.version + 1, pending: 0, pendingSince: 0 });
		}
	}

	private prune(now: number): void {
		const windowStart = now - WINDOW_MS;
		let drop = 0;
		while (drop < this.hits.length && (this.hits[drop] as number) <= windowStart) drop++;
		if (drop > 0) this.hits.splice(0, drop);
		// SQLite only mirrors the window: rows out of it are never read (the constructor skips
		// them), so they are deleted in batches rather than on every request.
		if (now - this.lastSqlPrune >= SQL_PRUNE_EVERY_MS) {
			this.lastSqlPrune = now;
			pruneReservations(this.ctx.storage.sql, windowStart);
		}
	}
}
