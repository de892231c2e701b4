import { DurableObject } from "cloudflare:workers";
import { accountStub } from "../../accounts/account-stub";
import { usableKeyIds } from "../../accounts/accounts-repo";
import type { DataEnvironment } from "../../accounts/keys";
import { createInterviewer, type Interviewer, publicQuestion } from "../../interviewer";
import { getDb } from "../../platform/db/client";
import { runOne } from "../../platform/db/templates";
import { constantTimeEqual } from "../../platform/lib/crypto";
import { hasIdShape } from "../../platform/lib/random";
import { retentionMs } from "../../platform/lib/settings";
import type { CompletionReason, InterviewState } from "../core/model";
import { type Command, type Effect, isLive, type TransitionError, transition } from "../core/state-machine";
import { type AdvanceTarget, advanceCommand, advanceSteps } from "../core/transitions/test-advance";
import { projectionChanged } from "../db/interviews-repo";
import { claimSeed, forgetSeed, type Seed } from "../db/seeds-repo";
import { RECORDING_LIMITS } from "../recordings/recordings";
import { asJson, assessmentOf, historyOf, planOf } from "../room/conductor";
import { joinRefusal, parseClientFrame, upgradeRefusal } from "../room/frames";
import type { OutgoingMessage } from "../room/protocol";
import { roomView } from "../room/view";
import { applyOutboxRows, outboxItem } from "./outbox";
import {
	appendOutbox,
	clearTimer,
	deleteMessages,
	deleteOutboxThrough,
	dueTimers,
	earliestTimer,
	hasOutbox,
	hasTimer,
	loadState,
	messagesAfter,
	migrateInterviewStorage,
	type OutboxItem,
	readOutbox,
	SeqCounter,
	saveMessages,
	saveState,
	setTimer,
} from "./storage";

/** What a command did, as plain data: RPC callers never see a thrown error. */
export type CommandResult =
	| { status: "ok"; interview: InterviewState; notificationQueued: boolean; creditsRefunded: number }
	| { status: "rejected"; error: TransitionError; interview: InterviewState | null };

export interface Owner {
	accountId: string;
	environment: DataEnvironment;
}

type Role = "candidate" | "observer";

const OUTBOX_RETRY_TIMER = "outbox_retry";
const OUTBOX_RETRY_MS = [1_000, 5_000, 30_000, 120_000, 600_000];
/**
 * A commit that owes the outbox something arms the retry this far ahead in its own transaction,
 * so that if the object is reset before its flush (a deploy, an eviction) the alarm flushes it.
 * A flush that succeeds first clears it again.
 */
const OUTBOX_GUARD_MS = 10_000;
/** Close code of a candidate connection whose join link was replaced (docs/live-room.md). */
export const LINK_REPLACED_CLOSE = 4001;
/** Close code of an observer connection whose API key was revoked or expired. */
export const OBSERVER_KEY_CLOSE = 4002;
/** How often observers' keys are looked up again in D1 while their connections last. */
export const OBSERVER_KEY_CHECK_MS = 30_000;

const RECORDING_USAGE_KEY = "recording_usage";

interface RecordingUsage {
	chunks: number;
	bytes: number;
}

interface ObserverKey {
	id: string;
	expiresAt: number | null;
}
/** Asks the account for a slot again after a request that failed (`takeSlot`). */
const SLOT_RETRY_TIMER = "slot_retry";
const SLOT_RETRY_MS = 10_000;
/** Deletes the room's message history `ROOM_HISTORY_RETENTION_DAYS` after the interview ended. */
const ROOM_HISTORY_TIMER = "room_history";

/**
 * One interview: the authoritative state machine. Each command commits the new state and its
 * outgoing effects (outbox rows, timers) in one storage transaction; after the commit the outbox
 * is applied to D1 (projection, event log, ledger) and to the e-mail queue. If that fails an
 * alarm retries it, so D1 never lags for long and never shows a state this object does not hold.
 */
export class InterviewObject extends DurableObject<Env> {
	/** The alarm's clock; tests move it to fire timers without waiting. */
	clock: () => number = Date.now;
	private state: InterviewState | null = null;
	private flushing: Promise<boolean> | null = null;
	private flushFailures = 0;
	/**
	 * Whether an outbox retry timer is stored (read from storage when the instance starts: one
	 * may survive a restart). A commit that owes D1 arms one only if none is; a flush that empties
	 * the outbox clears it once instead of after every flush.
	 */
	private guarded = false;
	/** The candidate's step being carried out (`inTurn`). */
	private candidateTurn: Promise<unknown> = Promise.resolve();
	private readonly interviewer: Interviewer;
	private advancing: Promise<void> | null = null;
	/** Whether this instance has looked for a seed (deferred creation) in D1. */
	private seedChecked = false;
	/** The room's message sequence. */
	private readonly seq: SeqCounter;
	/** False only once the outbox was seen empty and nothing was appended since. */
	private outboxPending = true;
	/** The earliest timer the storage alarm was last set for (null: deleted); undefined: unknown. */
	private armedFor: number | null | undefined = undefined;
	/** The earliest timer as last read (null: none); undefined until read again after a write. */
	private earliest: number | null | undefined = undefined;
	/**
	 * The room's open connections and their roles. The room uses the standard WebSocket API, not
	 * hibernation: a hibernatable message is a new event for the runtime, which cost more than the
	 * answer's own work (docs/live-room.md, docs/performance.md). A connection lives as long as
	 * this instance; should the object be evicted, the page reconnects and resyncs.
	 */
	private readonly sockets = new Map<WebSocket, Role>();
	/** Each observer connection's API key, checked again while it lasts (`checkObserverKeys`). */
	private readonly observerKeys = new Map<WebSocket, ObserverKey>();
	/** When the observers' keys were last looked up in D1, and the lookup in flight. */
	private observerKeysCheckedAt = 0;
	private observerKeysCheck: Promise<void> | null = null;

	constructor(ctx: DurableObjectState, env: Env) {
		super(ctx, env);
		this.interviewer = createInterviewer(env);
		this.seq = new SeqCounter(ctx.storage.sql);
		ctx.blockConcurrencyWhile(async () => {
			migrateInterviewStorage(ctx.storage.sql);
			this.state = loadState(ctx.storage.sql);
			this.guarded = hasTimer(ctx.storage.sql, OUTBOX_RETRY_TIMER);
		});
	}

	async get(): Promise<InterviewState | null> {
		await this.ensure();
		return this.state;
	}

	/**
	 * Counts a recording chunk of `bytes` against the interview's totals (`RECORDING_LIMITS`)
	 * before it is stored; false once either total would be passed. A chunk counted and then not
	 * stored still counts: the totals only ever over-count.
	 */
	async reserveRecording(bytes: number): Promise<{ ok: boolean }> {
		const used = (await this.ctx.storage.get<RecordingUsage>(RECORDING_USAGE_KEY)) ?? { chunks: 0, bytes: 0 };
		if (used.chunks + 1 > RECORDING_LIMITS.chunks || used.bytes + bytes > RECORDING_LIMITS.bytes) {
			return { ok: false };
		}
		await this.ctx.storage.put(RECORDING_USAGE_KEY, { chunks: used.chunks + 1, bytes: used.bytes + bytes });
		return { ok: true };
	}

	/** Opens the interview if it is still a seed in D1 (the wake message, the housekeeping sweep). */
	async wake(): Promise<{ status: "awake" | "absent" }> {
		await this.ensure();
		return { status: this.state ? "awake" : "absent" };
	}

	/** A command from the API on behalf of `owner`; another owner's interview does not exist. */
	async execute(command: Command, now: number, owner?: Owner): Promise<CommandResult> {
		return this.opened(async () => {
			if (owner && command.type !== "create" && !this.ownedBy(owner)) {
				return { status: "rejected", error: { code: "NOT_FOUND" }, interview: null };
			}
			return this.run(command, now);
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
		if (!this.state || !constantTimeEqual(token, this.state.joinToken)) {
			return { status: "rejected", error: { code: "NOT_FOUND" }, interview: null };
		}
		const joined = await this.run({ type: "join" }, now, { flush: false });
		if (joined.status !== "ok") return joined;
		if (joined.interview.status === "scheduled") {
			if (isLive(joined.interview) && !(await this.takeSlot(joined.interview, now))) return joined;
			// The link may have been replaced while the slot was asked for: this token joins nothing.
			if (!this.state || !constantTimeEqual(token, this.state.joinToken)) {
				return { status: "rejected", error: { code: "NOT_FOUND" }, interview: null };
			}
			const started = await this.run({ type: "start" }, now, { flush: false });
			if (started.status !== "ok") return started;
		}
		await this.advance(now);
		return this.current();
	}

	/**
	 * Asks the account's object for a concurrent slot: true if this interview holds one now. If it
	 * is queued instead, the account's object starts it when a slot frees. If the request itself
	 * fails, the account never heard of it, so the candidate waits and this object asks again from
	 * its alarm (`SLOT_RETRY_TIMER`) until the account answers.
	 */
	private async takeSlot(interview: InterviewState, now: number): Promise<boolean> {
		const { accountId, id } = interview;
		const slot = await accountStub(this.env, accountId)
			.acquireSlot(accountId, id)
			.catch((error: unknown) => {
				console.error(
					JSON.stringify({ message: "slot request failed", interview_id: id, error: String(error) }),
				);
				return { status: "unavailable" } as const;
			});
		if (slot.status === "unavailable") {
			this.setTimer(SLOT_RETRY_TIMER, now + SLOT_RETRY_MS);
			await this.armAlarm();
			return false;
		}
		this.setTimer(SLOT_RETRY_TIMER, null);
		return slot.status === "acquired";
	}

	/** The alarm's second request for a slot, for a candidate still waiting after a failed one. */
	private async retrySlot(now: number): Promise<void> {
		const state = this.state;
		if (state?.status !== "scheduled" || state.joinedAt === null || !isLive(state)) return;
		if (!(await this.takeSlot(state, now))) return;
		const started = await this.run({ type: "start" }, now);
		if (started.status === "ok") await this.advance(now);
	}

	/** Called by the account object when this joined interview is given a concurrent slot. */
	async startFromWaitingRoom(now: number): Promise<{ status: "started" | "not_waiting" }> {
		await this.ensure();
		const state = this.state;
		if (state?.status === "in_progress") return { status: "started" };
		if (state?.status !== "scheduled" || state.joinedAt === null) return { status: "not_waiting" };
		const result = await this.run({ type: "start" }, now);
		if (result.status === "ok") await this.advance(now);
		return { status: result.status === "ok" ? "started" : "not_waiting" };
	}

	/**
	 * The test helper: takes a test-mode interview to `to` through the same transitions as the
	 * real path, so the same events are recorded. Results are generated, and analysed at once.
	 */
	async testAdvance(to: AdvanceTarget, now: number, owner: Owner): Promise<CommandResult> {
		await this.ensure();
		if (!this.state || !this.ownedBy(owner)) {
			return { status: "rejected", error: { code: "NOT_FOUND" }, interview: null };
		}
		const plan = advanceSteps(this.state, to);
		if (!plan.ok) return { status: "rejected", error: plan.error, interview: this.state };
		let last: CommandResult = {
			status: "ok",
			interview: this.state,
			notificationQueued: false,
			creditsRefunded: 0,
		};
		for (const step of plan.steps) {
			last = await this.run(advanceCommand(step, this.state), now);
			if (last.status !== "ok") return last;
		}
		return last;
	}

	/** Deletes everything this object stores (the dev-data purge): state, outbox, timers, alarm. */
	async purge(): Promise<void> {
		const id = this.state?.id ?? this.ctx.id.name;
		this.seedChecked = true;
		this.armedFor = undefined;
		this.earliest = undefined;
		await this.ctx.storage.deleteAlarm();
		await this.ctx.storage.deleteAll();
		this.seq.reset();
		this.state = null;
		if (id) {
			const db = getDb(this.env.DB);
			await runOne(forgetSeed(db, id));
		}
	}

	/** The candidate's answer to the current question: scored, recorded, then the next question. */
	async answer(questionId: string, response: string, now: number): Promise<CommandResult> {
		await this.ensure();
		const state = this.state;
		const entry = state?.transcript.at(-1);
		if (state?.status !== "in_progress" || state.currentQuestion?.id !== questionId || !entry?.planned) {
			return this.run({ type: "answer", questionId, response, score: null, assessment: null }, now);
		}
		const seconds = Math.max(0, (now - entry.asked_at) / 1000);
		const score = await this.interviewer.scoreAnswer(entry.planned as never, response, seconds);
		const command: Command = {
			type: "answer",
			questionId,
			response,
			score: score.score,
			assessment: asJson(score),
		};
		if (await this.answerAndAsk(command, now)) return this.current();
		// The answer's outbox goes to D1 with the next question's, after that question is sent: the
		// candidate does not wait for D1, and one batch carries both.
		const result = await this.run(command, now, { flush: false });
		if (result.status !== "ok") return result;
		try {
			await this.advance(now);
		} finally {
			await this.flushOutbox();
		}
		return this.current();
	}

	/**
	 * The usual answer in one commit: the answer and the next question are committed together and
	 * the room gets one update and the question. False (nothing done) when the answer is refused,
	 * ends the interview, or the state moved while the next question was chosen: the caller then
	 * goes step by step.
	 */
	private async answerAndAsk(command: Command, now: number): Promise<boolean> {
		const before = this.state;
		const answered = transition(before, command, now);
		if (!answered.ok || this.advancing || answered.state.status !== "in_progress") return false;
		const ask = await this.nextAsk(answered.state);
		if (!ask || this.state !== before) return false;
		const asked = transition(answered.state, ask, now);
		if (!asked.ok) return false;
		const effects = [...answered.effects, ...asked.effects];
		this.commit(asked.state, effects, now);
		this.broadcast(
			{ type: "interview_update", interview: roomView(asked.state, false) },
			{ type: "question", question: ask.question },
		);
		// Timers change only through effects; without one, the alarm stays where it is.
		if (effects.some((e) => e.kind === "timer")) await this.armAlarm();
		await this.flushOutbox();
		return true;
	}

	/** Ends an in-progress interview: results are computed now and published by the analysis timer. */
	async finish(reason: CompletionReason, now: number): Promise<CommandResult> {
		await this.ensure();
		if (!this.state) return { status: "rejected", error: { code: "NOT_FOUND" }, interview: null };
		const { results, analytics } = await assessmentOf(this.state, this.interviewer);
		return this.run({ type: "finish", reason, results, analytics }, now);
	}

	/** WebSocket upgrade for the real-time channel; the Worker has already checked observers' keys. */
	override async fetch(request: Request): Promise<Response> {
		// Adopting the seed, the join, the start and the first question reach D1 in one batch.
		return this.opened(() => this.upgrade(request));
	}

	private async upgrade(request: Request): Promise<Response> {
		const now = this.clock();
		const requestId = request.headers.get("X-Request-Id") ?? "unknown";
		const state = this.state;
		if (!state) return upgradeRefusal("INTERVIEW_NOT_FOUND", "No such interview.", requestId, now);
		const role: Role = request.headers.get("X-Room-Role") === "observer" ? "observer" : "candidate";
		if (role === "observer") {
			// The Worker checked the key; this object checks that its account owns the interview.
			if (
				request.headers.get("X-Room-Account") !== state.accountId ||
				request.headers.get("X-Room-Environment") !== state.environment
			) {
				return upgradeRefusal("INTERVIEW_NOT_FOUND", "No such interview.", requestId, now);
			}
		} else {
			const token = new URL(request.url).searchParams.get("token");
			if (!token || !constantTimeEqual(token, state.joinToken)) {
				return upgradeRefusal("INVALID_TOKEN", "The join link's token is missing or wrong.", requestId, now);
			}
			const joined = await this.joinAndStart(token, now);
			// Checked again: the link may have been replaced while the join waited for a slot.
			if (!constantTimeEqual(token, (this.state as InterviewState).joinToken)) {
				return upgradeRefusal("INVALID_TOKEN", "The join link's token is missing or wrong.", requestId, now);
			}
			if (joined.status !== "ok") return joinRefusal(joined.error, requestId, now);
		}
		const pair = new WebSocketPair();
		const [client, server] = [pair[0], pair[1]];
		server.accept();
		this.sockets.set(server, role);
		const keyId = request.headers.get("X-Room-Key");
		if (role === "observer" && keyId) {
			const expires = request.headers.get("X-Room-Key-Expires");
			this.observerKeys.set(server, { id: keyId, expiresAt: expires ? Number(expires) : null });
		}
		server.addEventListener("message", (event) => {
			this.message(server, event.data).catch((error: unknown) => {
				console.error(
					JSON.stringify({
						message: "room message failed",
						interview_id: this.state?.id,
						error: String(error),
					}),
				);
			});
		});
		server.addEventListener("close", (event) => this.closed(server, event.code, event.reason));
		server.addEventListener("error", () => this.forget(server));
		const current = this.state as InterviewState;
		this.send(server, { type: "interview_update", interview: roomView(current, this.waiting(current)) });
		if (current.currentQuestion) this.send(server, { type: "question", question: current.currentQuestion });
		// Its headers cannot change once returned, so the request id the Worker passed goes on here.
		return new Response(null, { status: 101, webSocket: client, headers: { "X-Request-Id": requestId } });
	}

	private async message(ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
		// Keepalive: answered as is, outside the protocol's numbering.
		if (raw === "ping") return ws.send("pong");
		const now = this.clock();
		const frame = parseClientFrame(raw);
		if (!frame.ok) return this.send(ws, frame.error);
		const msg = frame.message;
		if (msg.type === "resync") {
			// An observer's key is checked first when its check is due: history is not replayed to a
			// revoked key.
			if (this.observerKeys.has(ws)) await this.checkObserverKeys(now);
			if (!this.sockets.has(ws)) return;
			for (const payload of messagesAfter(this.ctx.storage.sql, msg.after_seq)) ws.send(payload);
			return;
		}
		if (this.sockets.get(ws) !== "candidate") {
			return this.send(ws, { type: "error", code: "FORBIDDEN", message: "Observers can only watch." });
		}
		const state = this.state;
		if (!state) return;
		if (msg.type === "end_interview") {
			const result = await this.inTurn(() => this.finish("candidate_ended", now));
			if (result.status !== "ok") this.sendRefusal(ws, result);
			return;
		}
		if (msg.session_id !== state.id) {
			return this.send(ws, {
				type: "error",
				code: "WRONG_SESSION",
				message: "session_id is not this interview.",
			});
		}
		const result = await this.inTurn(() => this.answer(msg.question_id, msg.response, now));
		if (result.status !== "ok") this.sendRefusal(ws, result);
	}

	/**
	 * Runs the candidate's steps one after another, in the order they arrived: an answer still
	 * being scored (a model call is real I/O) is recorded before a later `end_interview`, or the
	 * end of the duration, closes the interview.
	 */
	private inTurn<T>(work: () => Promise<T>): Promise<T> {
		const turn = this.candidateTurn.then(work);
		this.candidateTurn = turn.catch(() => undefined);
		return turn;
	}

	/**
	 * The join link was replaced (a new candidate address): connections opened with the old one
	 * may no longer act as the candidate. Their page reconnects, is refused and says so.
	 */
	private closeCandidates(): void {
		for (const [ws, role] of this.sockets) {
			if (role === "candidate") this.drop(ws, LINK_REPLACED_CLOSE, "The join link was replaced.");
		}
	}

	/**
	 * Observers' keys, checked again while their connections last: an expired key's connection
	 * is closed at once; revocation is looked up in D1 at most every `OBSERVER_KEY_CHECK_MS`, when
	 * something is about to reach observers. Resolves when a lookup due now has finished.
	 */
	private checkObserverKeys(now: number): Promise<void> {
		for (const [ws, key] of this.observerKeys) {
			if (key.expiresAt !== null && key.expiresAt <= now)
				this.drop(ws, OBSERVER_KEY_CLOSE, "The API key expired.");
		}
		if (this.observerKeysCheck) return this.observerKeysCheck;
		if (this.observerKeys.size === 0 || now - this.observerKeysCheckedAt < OBSERVER_KEY_CHECK_MS) {
			return Promise.resolve();
		}
		this.observerKeysCheckedAt = now;
		const ids = [...new Set([...this.observerKeys.values()].map((key) => key.id))];
		this.observerKeysCheck = usableKeyIds(getDb(this.env.DB), ids, now)
			.then((usable) => {
				for (const [ws, key] of this.observerKeys) {
					if (!usable.has(key.id)) this.drop(ws, OBSERVER_KEY_CLOSE, "The API key is no longer valid.");
				}
			})
			.catch((error: unknown) => {
				// Looked up again at the next chance rather than after a whole period.
				this.observerKeysCheckedAt = 0;
				console.error(
					JSON.stringify({
						message: "observer key check failed",
						interview_id: this.state?.id,
						error: String(error),
					}),
				);
			})
			.finally(() => {
				this.observerKeysCheck = null;
			});
		return this.observerKeysCheck;
	}

	/** Closes a connection this object ends, and forgets it. */
	private drop(ws: WebSocket, code: number, reason: string): void {
		this.forget(ws);
		try {
			ws.close(code, reason);
		} catch {
			// already closed
		}
	}

	private forget(ws: WebSocket): void {
		this.sockets.delete(ws);
		this.observerKeys.delete(ws);
	}

	private closed(ws: WebSocket, code: number, reason: string): void {
		this.forget(ws);
		try {
			ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
		} catch {
			// already closed
		}
	}

	override async alarm(): Promise<void> {
		// The alarm that fired is spent.
		this.armedFor = undefined;
		this.earliest = undefined;
		await this.ensure();
		const sql = this.ctx.storage.sql;
		const now = this.clock();
		for (const timer of dueTimers(sql, now)) {
			switch (timer.kind) {
				case "no_show":
					await this.run({ type: "no_show_timer" }, now);
					break;
				case "completion":
					// After an answer already in flight, which counts: it came within the duration.
					await this.inTurn(async () => {
						if (this.state?.status === "in_progress") await this.finish("duration_elapsed", now);
					});
					break;
				case "analysis":
					await this.run({ type: "analysis_timer" }, now);
					break;
				case SLOT_RETRY_TIMER:
					await this.retrySlot(now);
					break;
				case ROOM_HISTORY_TIMER:
					deleteMessages(sql);
					break;
			}
			// Cleared only after its command ran, and only if that command did not re-arm it.
			this.clearTimer(timer.kind, timer.dueAt);
		}
		// The guard itself may have fired and been cleared above.
		this.guarded = hasTimer(sql, OUTBOX_RETRY_TIMER);
		await this.flushOutbox();
		await this.armAlarm();
	}

	/**
	 * Runs `body` on the opened interview. What adopting its seed owes D1 is written with what
	 * `body` owes, in one batch (the commands' own flushes carry it), before this returns.
	 */
	private async opened<T>(body: () => Promise<T>): Promise<T> {
		await this.ensure({ flush: false });
		try {
			return await body();
		} finally {
			// The adoption's retry timer is gone once the outbox is written: the alarm moves on.
			if (await this.flushOutbox()) await this.armAlarm();
		}
	}

	/**
	 * Opens the object's state: adopts its seed on first use. The seed's outbox is flushed at once
	 * unless the caller flushes it with what it owes itself (`opened`); the adoption's retry timer
	 * covers a caller that fails before that.
	 */
	private async ensure(options: { flush?: boolean } = {}): Promise<void> {
		if (this.state || this.seedChecked) return;
		let adopted = false;
		await this.ctx.blockConcurrencyWhile(async () => {
			if (this.state || this.seedChecked) return;
			const id = this.ctx.id.name;
			const seed = id && hasIdShape(id, "int") ? await claimSeed(getDb(this.env.DB), id, Date.now()) : null;
			this.seedChecked = true;
			if (!seed || seed.state.id !== id) return;
			this.adopt(seed);
			adopted = true;
			await this.armAlarm();
		});
		if (adopted && options.flush !== false && (await this.flushOutbox())) await this.armAlarm();
	}

	/**
	 * Deferred creation (docs/architecture.md): an interview is created as a seed row in D1 and its
	 * object is opened on first use. Before anything else reads or changes the state, the object
	 * adopts its seed: the seed's state, timers and outbox are committed here in one transaction
	 * (with a row that deletes the seed), and the outbox is replayed; everything in it is
	 * idempotent, so what creation already wrote is not written twice. Other calls wait meanwhile.
	 */
	private adopt(seed: Seed): void {
		const sql = this.ctx.storage.sql;
		const now = Date.now();
		this.ctx.storage.transactionSync(() => {
			saveState(sql, null, seed.state);
			for (const item of seed.outbox) this.owe(item, now);
			this.owe({ kind: "forget_seed" }, now);
			for (const timer of seed.timers) this.setTimer(timer.name, timer.dueAt);
			// Should the replay below not happen (the object is evicted first), the alarm does it.
			this.setTimer(OUTBOX_RETRY_TIMER, now + (OUTBOX_RETRY_MS[0] ?? 1_000));
			this.guarded = true;
		});
		this.state = seed.state;
	}

	/** Asks the next question when none is open, or completes the interview when none is left. */
	private async advance(now: number): Promise<void> {
		while (this.advancing) await this.advancing;
		const state = this.state;
		if (state?.status !== "in_progress" || state.currentQuestion) return;
		this.advancing = (async () => {
			const ask = await this.nextAsk(state);
			if (ask) await this.run(ask, now);
			else await this.finish("questions_answered", now);
		})().finally(() => {
			this.advancing = null;
		});
		await this.advancing;
	}

	/** The command that asks the interviewer's next question after `state`, or null when none is left. */
	private async nextAsk(state: InterviewState): Promise<Extract<Command, { type: "ask" }> | null> {
		const plan = await planOf(state, this.interviewer);
		const next = await this.interviewer.nextQuestion(plan, historyOf(state));
		return next && { type: "ask", question: publicQuestion(next), planned: asJson(next), plan: asJson(plan) };
	}

	private current(): CommandResult {
		const state = this.state as InterviewState;
		return { status: "ok", interview: state, notificationQueued: false, creditsRefunded: 0 };
	}

	/** A joined candidate waiting for the account's concurrent slot. */
	private waiting(state: InterviewState): boolean {
		return state.status === "scheduled" && state.joinedAt !== null;
	}

	private send(ws: WebSocket, message: OutgoingMessage): void {
		const seq = this.seq.take();
		try {
			ws.send(JSON.stringify({ ...message, seq }));
		} catch {
			// The socket closed; the client resyncs when it reconnects.
		}
	}

	/** Numbers, stores (one statement) and sends messages to every connection, in order. */
	private broadcast(...messages: OutgoingMessage[]): void {
		const numbered = messages.map((message) => {
			const seq = this.seq.take();
			return { seq, payload: JSON.stringify({ ...message, seq }) };
		});
		saveMessages(this.ctx.storage.sql, numbered);
		if (this.observerKeys.size > 0) void this.checkObserverKeys(this.clock());
		for (const ws of this.sockets.keys()) {
			for (const { payload } of numbered) {
				try {
					ws.send(payload);
				} catch {
					// closed meanwhile
				}
			}
		}
	}

	private sendRefusal(ws: WebSocket, result: Extract<CommandResult, { status: "rejected" }>): void {
		const e = result.error;
		const message = "message" in e ? e.message : `Not possible now (${e.code}).`;
		this.send(ws, { type: "error", code: e.code, message });
	}

	private ownedBy(owner: Owner): boolean {
		return this.state?.accountId === owner.accountId && this.state.environment === owner.environment;
	}

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
			if (linkReplaced) this.closeCandidates();
			this.broadcast(
				{ type: "interview_update", interview: roomView(result.state, this.waiting(result.state)) },
				...(command.type === "ask" ? [{ type: "question", question: command.question } as const] : []),
			);
		}
		await this.armAlarm();
		if (options.flush !== false) await this.flushOutbox();
		return {
			status: "ok",
			interview: result.state,
			notificationQueued: result.effects.some((e) => e.kind === "notify"),
			creditsRefunded: result.effects.reduce((n, e) => n + (e.kind === "refund" ? e.credits : 0), 0),
		};
	}

	private commit(next: InterviewState, effects: Effect[], now: number): void {
		const sql = this.ctx.storage.sql;
		this.ctx.storage.transactionSync(() => {
			saveState(sql, this.state, next);
			let owed = false;
			if (projectionChanged(this.state, next)) {
				this.owe({ kind: "projection" }, now);
				owed = true;
			}
			for (const effect of effects) {
				const item = outboxItem(next, effect, now);
				if (item) {
					this.owe(item, now);
					owed = true;
				}
				if (effect.kind === "timer") this.setTimer(effect.name, effect.dueAt);
			}
			if (ended(next) && !(this.state && ended(this.state))) {
				this.setTimer(ROOM_HISTORY_TIMER, now + retentionMs(this.env, "ROOM_HISTORY_RETENTION_DAYS"));
			}
			if (owed && !this.guarded) {
				this.setTimer(OUTBOX_RETRY_TIMER, Date.now() + OUTBOX_GUARD_MS);
				this.guarded = true;
			}
		});
		this.state = next;
	}

	/** Appends an outbox row (inside a commit's transaction); the next flush will look for it. */
	private owe(item: OutboxItem, now: number): void {
		appendOutbox(this.ctx.storage.sql, item, now);
		this.outboxPending = true;
	}

	/**
	 * Applies the outbox until it is empty. Concurrent callers share the attempt in flight and
	 * then look again, so rows committed while a batch was being written are never left behind.
	 */
	private async flushOutbox(): Promise<boolean> {
		for (let round = 0; round < 10; round++) {
			if (this.flushing) {
				await this.flushing;
				continue;
			}
			if (!this.outboxPending) return true;
			if (!hasOutbox(this.ctx.storage.sql)) {
				this.outboxPending = false;
				return true;
			}
			this.flushing = this.applyOutbox().finally(() => {
				this.flushing = null;
			});
			if (!(await this.flushing)) return false;
		}
		return !hasOutbox(this.ctx.storage.sql);
	}

	private async applyOutbox(): Promise<boolean> {
		const sql = this.ctx.storage.sql;
		const rows = readOutbox(sql);
		const state = this.state;
		const last = rows.at(-1);
		if (!last || !state) return true;
		try {
			await applyOutboxRows(this.env, state, rows);
			deleteOutboxThrough(sql, last.seq);
			// Rows appended while the batch was in flight keep the outbox pending for the next round.
			if (!hasOutbox(sql)) {
				if (this.guarded) {
					this.setTimer(OUTBOX_RETRY_TIMER, null);
					this.guarded = false;
					await this.armAlarm();
				}
				this.outboxPending = false;
			}
			this.flushFailures = 0;
			return true;
		} catch (error) {
			const delay = OUTBOX_RETRY_MS[Math.min(this.flushFailures, OUTBOX_RETRY_MS.length - 1)] ?? 1_000;
			this.flushFailures++;
			console.error(
				JSON.stringify({ message: "outbox flush failed", interview_id: state.id, error: String(error) }),
			);
			this.setTimer(OUTBOX_RETRY_TIMER, Date.now() + delay);
			this.guarded = true;
			await this.armAlarm();
			return false;
		}
	}

	/** Sets (or with null clears) a timer; every timer write goes through here or `clearTimer`. */
	private setTimer(kind: string, dueAt: number | null): void {
		setTimer(this.ctx.storage.sql, kind, dueAt);
		this.earliest = undefined;
	}

	private clearTimer(kind: string, dueAt: number): void {
		clearTimer(this.ctx.storage.sql, kind, dueAt);
		this.earliest = undefined;
	}

	/**
	 * Sets the storage alarm to the earliest timer. The alarm last set is remembered so that the
	 * many commits that leave the earliest timer where it was (each answer) do not set it again;
	 * a new instance, the alarm firing and a purge forget it.
	 */
	private async armAlarm(): Promise<void> {
		// Read again only after a timer write: most commits (an answer) touch no timer.
		this.earliest ??= earliestTimer(this.ctx.storage.sql);
		const next = this.earliest;
		if (next === this.armedFor && (next === null || next > Date.now())) return;
		this.armedFor = undefined;
		if (next === null) await this.ctx.storage.deleteAlarm();
		else await this.ctx.storage.setAlarm(Math.max(next, Date.now() + 1));
		this.armedFor = next;
	}
}

/** Completed or cancelled: the room is over, its history is kept only for its retention. */
function ended(state: InterviewState): boolean {
	return state.status === "completed" || state.status === "cancelled";
}
