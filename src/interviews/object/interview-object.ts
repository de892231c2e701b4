import { DurableObject } from "cloudflare:workers";
import { createInterviewer } from "../../interviewer";
import { getDb } from "../../platform/db/client";
import { runOne } from "../../platform/db/templates";
import { constantTimeEqual } from "../../platform/lib/crypto";
import type { CompletionReason, InterviewState } from "../core/model";
import { type Command, type Effect, isLive, transition } from "../core/state-machine";
import type { AdvanceTarget } from "../core/transitions/test-advance";
import { forgetSeed } from "../db/seeds-repo";
import { Adoption } from "./adoption";
import type { CommandResult, Owner } from "./command-result";
import * as result from "./command-result";
import { commitState, ROOM_HISTORY_TIMER } from "./commit";
import { Conductor } from "./conductor";
import { OUTBOX_RETRY_TIMER, OutboxEngine } from "./outbox-engine";
import { RecordingUsageCounter } from "./recording-usage";
import { RoomHub, roomUpdate } from "./room-hub";
import { SLOT_RETRY_TIMER, Slots } from "./slots";
import { deleteMessages, hasInterviewStorage, loadState, migrateInterviewStorage } from "./storage";
import { Timers } from "./timers";

// The room's close codes, as tests and docs/live-room.md name them.
export {
	LINK_REPLACED_CLOSE,
	OBSERVER_KEY_CHECK_MS,
	OBSERVER_KEY_CLOSE,
	OBSERVER_SESSION_CLOSE,
} from "./room-hub";

/**
 * One interview: the authoritative state machine. Each command commits the new state and its
 * outgoing effects (outbox rows, timers) in one storage transaction; after the commit the outbox
 * is applied to D1 (projection, event log, ledger) and to the e-mail queue. If that fails an
 * alarm retries it, so D1 never lags for long and never shows a state this object does not hold.
 * The object holds the state and runs commands; its parts do the rest (`Timers`, `OutboxEngine`,
 * `RoomHub`, `Adoption`, `Slots`, `Conductor`, the recording totals: docs/architecture.md).
 */
export class InterviewObject extends DurableObject<Env> {
	/** The alarm's clock; tests move it to fire timers without waiting. */
	clock: () => number = Date.now;
	private state: InterviewState | null = null;
	/** Whether this object's tables exist: made only once it holds an interview (`prepareStorage`). */
	private storageReady = false;
	/** The interviewer the conductor asks (tests slow it down to reorder the candidate's steps). */
	private readonly interviewer = createInterviewer(this.env);
	private readonly timers = new Timers(this.ctx.storage, () => this.storageReady);
	private readonly outbox = new OutboxEngine(this.ctx.storage, {
		env: this.env,
		timers: this.timers,
		state: () => this.state,
	});
	private readonly room: RoomHub = new RoomHub(this.ctx.storage, {
		env: this.env,
		state: () => this.state,
		clock: () => this.clock(),
		join: (token, now) => this.joinAndStart(token, now),
		answer: (questionId, response, sentAt, now) =>
			this.conductor.inTurn(() => this.answer(questionId, response, sentAt, now)),
		end: (now) => this.conductor.inTurn(() => this.finish("candidate_ended", now)),
	});
	private readonly adoption = new Adoption(this.ctx.storage, {
		env: this.env,
		name: this.ctx.id.name,
		blockConcurrencyWhile: (callback) => this.ctx.blockConcurrencyWhile(callback),
		timers: this.timers,
		outbox: this.outbox,
		state: () => this.state,
		prepareStorage: () => this.prepareStorage(),
		adopted: (state) => {
			this.state = state;
		},
	});
	private readonly slots = new Slots({ env: this.env, timers: this.timers });
	private readonly conductor: Conductor = new Conductor({
		interviewer: this.interviewer,
		timers: this.timers,
		outbox: this.outbox,
		room: this.room,
		state: () => this.state,
		run: (command, now, options) => this.run(command, now, options),
		commit: (next, effects, now) => this.commit(next, effects, now),
	});
	private readonly recordings = new RecordingUsageCounter(this.ctx.storage);

	constructor(ctx: DurableObjectState, env: Env) {
		super(ctx, env);
		ctx.blockConcurrencyWhile(async () => {
			// An object that holds no interview writes nothing (an id never created leaves no
			// storage behind): its tables are made when it first holds one (`prepareStorage`).
			if (!hasInterviewStorage(ctx.storage.sql)) {
				this.outbox.markEmpty();
				return;
			}
			this.storageReady = true;
			migrateInterviewStorage(ctx.storage.sql);
			this.state = loadState(ctx.storage.sql);
			this.outbox.loadGuard();
		});
	}

	/** The cheapest call there is: the floor probe's (development only, src/platform/lib/floor-probe.ts). */
	ping(): number {
		return 1;
	}

	async get(): Promise<InterviewState | null> {
		await this.adoption.ensure();
		return this.state;
	}

	/**
	 * The state and whether its recording may have chunks in R2 (`RecordingUsageCounter.mayHoldChunks`),
	 * in one call: a reader that shows the recording lists R2 only when it may find something.
	 */
	async getWithRecordings(): Promise<{ state: InterviewState | null; recordings: boolean }> {
		await this.adoption.ensure();
		if (!this.state) return { state: null, recordings: false };
		return { state: this.state, recordings: await this.recordings.mayHoldChunks() };
	}

	/** Counts a recording chunk of `bytes` before it is stored; false once a total would be passed. */
	async reserveRecording(bytes: number): Promise<{ ok: boolean }> {
		await this.adoption.ensure();
		if (!this.state) return { ok: false };
		return { ok: await this.recordings.reserve(bytes) };
	}

	/**
	 * The dashboard session `sessionHash` ended: its live views of this interview close with
	 * `OBSERVER_SESSION_CLOSE`. Only open connections are touched; nothing is adopted or stored.
	 */
	async closeObserverSession(sessionHash: string): Promise<{ closed: number }> {
		return { closed: this.room.closeSession(sessionHash, "Signed out.") };
	}

	/** Opens the interview if it is still a seed in D1 (the wake message, the housekeeping sweep). */
	async wake(): Promise<{ status: "awake" | "absent" }> {
		await this.adoption.ensure();
		return { status: this.state ? "awake" : "absent" };
	}

	/** A command from the API on behalf of `owner`; another owner's interview does not exist. */
	async execute(command: Command, now: number, owner?: Owner): Promise<CommandResult> {
		return this.opened(async () => {
			if (!owner || command.type === "create") return this.run(command, now);
			return result.refusedFor(this.state, owner) ?? this.run(command, now);
		});
	}

	/**
	 * The candidate's connection: checks the join token and joins. A live interview starts once
	 * the account grants it a concurrent slot; until then it stays scheduled (the waiting room)
	 * and the account object starts it through `startFromWaitingRoom` when a slot frees. Test and
	 * dev interviews start at once. (The WebSocket upgrade joins inside its own `opened`.)
	 */
	async join(token: string, now: number): Promise<CommandResult> {
		return this.opened(() => this.joinAndStart(token, now));
	}

	private async joinAndStart(token: string, now: number): Promise<CommandResult> {
		if (!this.state || !constantTimeEqual(token, this.state.joinToken)) return result.notFound();
		const joined = await this.run({ type: "join" }, now, { flush: false });
		if (joined.status !== "ok") return joined;
		if (joined.interview.status === "scheduled") {
			if (isLive(joined.interview) && !(await this.slots.take(joined.interview, now))) return joined;
			// The link may have been replaced while the slot was asked for: this token joins nothing.
			if (!this.state || !constantTimeEqual(token, this.state.joinToken)) return result.notFound();
			const started = await this.run({ type: "start" }, now, { flush: false });
			if (started.status !== "ok") return started;
		}
		await this.conductor.advance(now);
		return result.okResult(this.state as InterviewState);
	}

	/** Called by the account object when this joined interview is given a concurrent slot. */
	async startFromWaitingRoom(now: number): Promise<{ status: "started" | "not_waiting" }> {
		await this.adoption.ensure();
		const state = this.state;
		if (state?.status === "in_progress") return { status: "started" };
		if (state?.status !== "scheduled" || state.joinedAt === null) return { status: "not_waiting" };
		const result = await this.start(now);
		return { status: result.status === "ok" ? "started" : "not_waiting" };
	}

	/** Starts the joined interview and asks the first question. */
	private async start(now: number): Promise<CommandResult> {
		const started = await this.run({ type: "start" }, now);
		if (started.status === "ok") await this.conductor.advance(now);
		return started;
	}

	/** The test helper: a test-mode interview taken to `to` through the real path's transitions. */
	async testAdvance(to: AdvanceTarget, now: number, owner: Owner): Promise<CommandResult> {
		await this.adoption.ensure();
		const run = (command: Command) => this.run(command, now);
		return result.advanceForTest(this.state, owner, to, () => this.state, run);
	}

	/** Deletes everything this object stores (the dev-data purge): state, outbox, timers, alarm. */
	async purge(): Promise<void> {
		const id = this.state?.id ?? this.ctx.id.name;
		this.adoption.close();
		this.timers.forget();
		await this.ctx.storage.deleteAlarm();
		await this.ctx.storage.deleteAll();
		this.storageReady = false;
		this.outbox.markEmpty();
		this.room.reset();
		this.recordings.reset();
		this.state = null;
		if (id) await runOne(forgetSeed(getDb(this.env.DB), id));
	}

	/** The candidate's answer to the current question: scored, recorded, then the next question. */
	async answer(
		questionId: string,
		response: string,
		sentAt: string | null,
		now: number,
	): Promise<CommandResult> {
		await this.adoption.ensure();
		return this.conductor.answer(questionId, response, sentAt, now);
	}

	/** Ends an in-progress interview: results are computed now and published by the analysis timer. */
	async finish(reason: CompletionReason, now: number): Promise<CommandResult> {
		await this.adoption.ensure();
		return this.conductor.finish(reason, now);
	}

	/** WebSocket upgrade for the real-time channel; the Worker has already checked observers' keys. */
	override async fetch(request: Request): Promise<Response> {
		// Adopting the seed, the join, the start and the first question reach D1 in one batch.
		return this.opened(() => this.room.upgrade(request));
	}

	override async alarm(): Promise<void> {
		// The alarm that fired is spent.
		this.timers.forget();
		await this.adoption.ensure();
		if (!this.storageReady) return;
		const now = this.clock();
		for (const timer of this.timers.due(now)) {
			switch (timer.kind) {
				case "no_show":
					await this.run({ type: "no_show_timer" }, now);
					break;
				case "completion":
					// After an answer already in flight, which counts: it came within the duration.
					await this.conductor.inTurn(async () => {
						if (this.state?.status === "in_progress") await this.finish("duration_elapsed", now);
					});
					break;
				case "analysis":
					await this.run({ type: "analysis_timer" }, now);
					break;
				case SLOT_RETRY_TIMER:
					if (await this.slots.retry(this.state, now)) await this.start(now);
					break;
				case ROOM_HISTORY_TIMER:
					deleteMessages(this.ctx.storage.sql);
					break;
			}
			// Cleared only after its command ran, and only if that command did not re-arm it.
			this.timers.clear(timer.kind, timer.dueAt);
			// The retry timer gone: a later commit of this run must arm its own guard.
			if (timer.kind === OUTBOX_RETRY_TIMER) this.outbox.loadGuard();
		}
		await this.outbox.flush();
		await this.timers.arm();
	}

	/**
	 * Runs `body` on the opened interview. What adopting its seed owes D1 is written with what
	 * `body` owes, in one batch (the commands' own flushes carry it), before this returns.
	 */
	private async opened<T>(body: () => Promise<T>): Promise<T> {
		await this.adoption.ensure({ flush: false });
		try {
			return await body();
		} finally {
			// The adoption's retry timer is gone once the outbox is written: the alarm moves on.
			if (await this.outbox.flush()) await this.timers.arm();
		}
	}

	/** validate -> transition -> commit -> broadcast, re-arm the alarm, flush the outbox. */
	private async run(
		command: Command,
		now: number,
		options: { flush?: boolean } = {},
	): Promise<CommandResult> {
		const result = transition(this.state, command, now);
		if (!result.ok) return { status: "rejected", error: result.error, interview: this.state };
		if (result.state !== this.state) {
			const linkReplaced = this.state !== null && result.state.joinToken !== this.state.joinToken;
			this.commit(result.state, result.effects, now);
			if (linkReplaced) this.room.closeCandidates();
			this.room.broadcast(
				roomUpdate(result.state),
				...(command.type === "ask" ? [{ type: "question", question: command.question } as const] : []),
			);
		}
		await this.timers.arm();
		if (options.flush !== false) await this.outbox.flush();
		return {
			status: "ok",
			interview: result.state,
			notificationQueued: result.effects.some((e) => e.kind === "notify"),
			creditsRefunded: result.effects.reduce((n, e) => n + (e.kind === "refund" ? e.credits : 0), 0),
		};
	}

	/** Makes (or upgrades) the tables before the first write of an object that had none. */
	private prepareStorage(): void {
		if (this.storageReady) return;
		migrateInterviewStorage(this.ctx.storage.sql);
		this.storageReady = true;
	}

	/** The new state, its outbox rows and timers, in one transaction (`commitState`). */
	private commit(next: InterviewState, effects: Effect[], now: number): void {
		this.prepareStorage();
		commitState(
			{ env: this.env, storage: this.ctx.storage, outbox: this.outbox, timers: this.timers },
			this.state,
			next,
			effects,
			now,
		);
		this.state = next;
	}
}
