import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { decide, type RateDecision, WINDOW_MS } from "./rate-limit";

/**
 * One per account: the serialisation point for per-account limits. It keeps the timestamps of
 * the requests counted in the last 60 seconds (in memory, mirrored to SQLite so an eviction
 * loses nothing), which makes the sliding-window rate limit exact.
 */
export class AccountObject extends DurableObject<Env> {
	private hits: number[] = [];

	constructor(ctx: DurableObjectState, env: Env) {
		super(ctx, env);
		ctx.blockConcurrencyWhile(async () => {
			const sql = ctx.storage.sql;
			sql.exec("CREATE TABLE IF NOT EXISTS hits (ts INTEGER NOT NULL)");
			this.hits = sql
				.exec<{ ts: number }>("SELECT ts FROM hits WHERE ts > ? ORDER BY ts", Date.now() - WINDOW_MS)
				.toArray()
				.map((r) => r.ts);
		});
	}

	/** Counts one request against `limit` per 60 s if the window has room. */
	async hit(limit: number, now: number): Promise<RateDecision> {
		this.prune(now);
		const decision = decide(this.hits, limit, now);
		if (decision.allowed) {
			// Arrival order, not caller clocks, defines the window: keep timestamps monotonic.
			const ts = Math.max(now, this.hits.at(-1) ?? now);
			this.hits.push(ts);
			this.ctx.storage.sql.exec("INSERT INTO hits (ts) VALUES (?)", ts);
		}
		return decision;
	}

	/** The count in the window now, without counting anything. */
	async usage(now: number): Promise<number> {
		this.prune(now);
		return this.hits.length;
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
