import { DurableObject } from "cloudflare:workers";
import { getDb } from "../db/client";
import { upsertProjection } from "../db/interviews-repo";
import type { Env } from "../env";
import { type EventRecord, insertEvent } from "../events/events-repo";
import { publishEvents } from "../events/publish";
import { newId } from "../lib/random";
import type { InterviewState } from "./model";
import { type Command, type Effect, type TransitionError, transition } from "./state-machine";
import {
	appendOutbox,
	deleteOutboxThrough,
	earliestTimer,
	loadState,
	migrateInterviewStorage,
	readOutbox,
	saveState,
	setTimer,
} from "./storage";

export type CommandResult =
	| { status: "ok"; interview: InterviewState; projected: boolean }
	| {
			status: "rejected";
			error: TransitionError;
			interview: InterviewState | null;
	  };

const OUTBOX_RETRY_TIMER = "outbox_retry";
const OUTBOX_RETRY_MS = [1_000, 5_000, 30_000, 120_000, 600_000];

/**
 * One interview: the authoritative state machine. Each command commits the new state and its
 * outgoing effects (outbox rows) in one storage transaction; after the commit the outbox is
 * applied to D1 (projection and event log). If that fails, an alarm retries it, so D1 never
 * lags for long and never shows a state this object does not hold.
 */
export class InterviewObject extends DurableObject<Env> {
	private state: InterviewState | null = null;
	private flushing: Promise<boolean> | null = null;
	private flushFailures = 0;

	constructor(ctx: DurableObjectState, env: Env) {
		super(ctx, env);
		ctx.blockConcurrencyWhile(async () => {
			migrateInterviewStorage(ctx.storage.sql);
			this.state = loadState(ctx.storage.sql);
		});
	}

	async get(): Promise<InterviewState | null> {
		return this.state;
	}

	async execute(command: Command, now: number): Promise<CommandResult> {
		const result = transition(this.state, command, now);
		if (!result.ok) return { status: "rejected", error: result.error, interview: this.state };
		this.commit(result.state, result.effects, now);
		const projected = await this.flushOutbox();
		return { status: "ok", interview: result.state, projected };
	}

	override async alarm(): Promise<void> {
		const sql = this.ctx.storage.sql;
		setTimer(sql, OUTBOX_RETRY_TIMER, null);
		await this.flushOutbox();
		await this.armAlarm();
	}

	private commit(next: InterviewState, effects: Effect[], now: number): void {
		const sql = this.ctx.storage.sql;
		this.ctx.storage.transactionSync(() => {
			saveState(sql, next);
			appendOutbox(sql, { kind: "projection" }, now);
			for (const effect of effects) {
				if (effect.kind === "event") {
					appendOutbox(
						sql,
						{
							kind: "event",
							event: {
								id: newId("evt"),
								type: effect.type,
								data: effect.data,
								createdAt: now,
							},
						},
						now,
					);
				}
			}
		});
		this.state = next;
	}

	/** Applies the outbox to D1 in one batch; concurrent callers share one attempt. */
	private flushOutbox(): Promise<boolean> {
		if (!this.flushing) {
			this.flushing = this.applyOutbox().finally(() => {
				this.flushing = null;
			});
		}
		return this.flushing;
	}

	private async applyOutbox(): Promise<boolean> {
		const sql = this.ctx.storage.sql;
		const rows = readOutbox(sql);
		const state = this.state;
		const last = rows.at(-1);
		if (!last || !state) return true;
		const db = getDb(this.env.DB);
		const events: EventRecord[] = rows.flatMap(({ item }) =>
			item.kind === "event"
				? [
						{
							...item.event,
							accountId: state.accountId,
							environment: state.environment,
							interviewId: state.id,
							testMode: state.testMode,
						},
					]
				: [],
		);
		try {
			// The projection is always written from the newest state, before the events it explains.
			await db.batch([upsertProjection(db, state), ...events.map((event) => insertEvent(db, event))]);
			await publishEvents(this.env, events);
			deleteOutboxThrough(sql, last.seq);
			this.flushFailures = 0;
			return true;
		} catch (error) {
			const delay = OUTBOX_RETRY_MS[Math.min(this.flushFailures, OUTBOX_RETRY_MS.length - 1)] ?? 1_000;
			this.flushFailures++;
			console.error(
				JSON.stringify({
					message: "outbox flush failed",
					interview_id: state.id,
					error: String(error),
				}),
			);
			setTimer(sql, OUTBOX_RETRY_TIMER, Date.now() + delay);
			await this.armAlarm();
			return false;
		}
	}

	private async armAlarm(): Promise<void> {
		const next = earliestTimer(this.ctx.storage.sql);
		if (next === null) {
			await this.ctx.storage.deleteAlarm();
			return;
		}
		await this.ctx.storage.setAlarm(Math.max(next, Date.now() + 1));
	}
}
