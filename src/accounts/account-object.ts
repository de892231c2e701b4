import { DurableObject } from "cloudflare:workers";
import { findAccount } from "../db/accounts-repo";
import { getDb } from "../db/client";
import type { Env } from "../env";
import { interviewStub } from "../interview/service";
import {
	confirmSlot,
	countSlots,
	enqueue,
	findSlot,
	grantSlots,
	migrateAccountStorage,
	rememberAccountId,
	removeSlot,
	storedAccountId,
	unconfirmedSlots,
	waitingPosition,
} from "./account-storage";
import type { SlotResult, SlotUsage } from "./account-stub";
import { effectiveLimits, type PlanId } from "./plans";
import { decide, type RateDecision, WINDOW_MS } from "./rate-limit";

/** A granted slot is checked this long after the grant, in case its interview never started. */
const CONFIRM_AFTER_MS = 60_000;
const RETRY_AFTER_MS = 10_000;
const MAX_STARTS_PER_CALL = 100;

/**
 * One per account: the serialisation point for per-account limits.
 * - Rate limit: the timestamps of the requests counted in the last 60 seconds (in memory,
 *   mirrored to SQLite so an eviction loses nothing), which makes the sliding window exact.
 * - Concurrent interviews: which live interviews hold a slot and which joined ones wait, in
 *   order; a freed slot goes to the longest-waiting interview, which this object starts.
 */
export class AccountObject extends DurableObject<Env> {
	/** This object's clock; tests move it instead of waiting. */
	clock: () => number = Date.now;
	private hits: number[] = [];

	constructor(ctx: DurableObjectState, env: Env) {
		super(ctx, env);
		ctx.blockConcurrencyWhile(async () => {
			const sql = ctx.storage.sql;
			migrateAccountStorage(sql);
			this.hits = sql
				.exec<{ ts: number }>("SELECT ts FROM hits WHERE ts > ? ORDER BY ts", Date.now() - WINDOW_MS)
				.toArray()
				.map((r) => r.ts);
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
			this.ctx.storage.sql.exec("INSERT INTO hits (ts) VALUES (?)", ts);
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
		const limit = await this.concurrentLimit(accountId);
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
		const limit = await this.concurrentLimit(accountId);
		this.ctx.storage.transactionSync(() => grantSlots(sql, limit, this.clock()));
		await this.startGranted(accountId, unconfirmedSlots(sql));
	}

	/**
	 * Starts interviews that were just given a slot. One that is no longer waiting (cancelled
	 * meanwhile) gives its slot to the next in line; one that cannot be reached is retried by
	 * the alarm.
	 */
	private async startGranted(accountId: string, ids: string[]): Promise<void> {
		const sql = this.ctx.storage.sql;
		const queue = [...ids];
		for (let round = 0; round < MAX_STARTS_PER_CALL && queue.length > 0; round++) {
			const id = queue.shift() as string;
			let outcome: { status: "started" | "not_waiting" };
			try {
				outcome = await interviewStub(this.env, id).startFromWaitingRoom(this.clock());
			} catch (error) {
				console.error(
					JSON.stringify({ message: "slot start failed", interview_id: id, error: String(error) }),
				);
				await this.armCheck(RETRY_AFTER_MS);
				continue;
			}
			if (outcome.status === "started") {
				confirmSlot(sql, id);
				continue;
			}
			const limit = await this.concurrentLimit(accountId);
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

	private async armCheck(delayMs: number): Promise<void> {
		const at = Date.now() + delayMs;
		const current = await this.ctx.storage.getAlarm();
		if (current === null || current > at) await this.ctx.storage.setAlarm(at);
	}

	private prune(now: number): void {
		const windowStart = now - WINDOW_MS;
		let drop = 0;
		while (drop < this.hits.length && (this.hits[drop] as number) <= windowStart) drop++;
		if (drop > 0) {
			this.hits.splice(0, drop);
			this.ctx.storage.sql.exec("DELETE FROM hits WHERE ts <= ?", windowStart);
		}
	}
}
