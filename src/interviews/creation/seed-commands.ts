import { unrecordedEmails } from "../../email/email-repo";
import { noticeIsSent } from "../../email/queue-email";
import type { EventRecord } from "../../events/events-repo";
import { type Db, getDb } from "../../platform/db/client";
import { type Bound, runOne } from "../../platform/db/templates";
import { errorText } from "../../platform/lib/error-text";
import { type PendingDelivery, runRecordingEvents } from "../../webhooks/deliveries-repo";
import { type CancelCommand, transition, type UpdateCommand } from "../core/state-machine";
import { readSeed, SEED_CHANGED_ERROR, type Seed, seedChangeStatements, setSeedWake } from "../db/seeds-repo";
import type { CommandResult, Owner } from "../object/command-result";
import { outboxEvents, outboxItem, outboxStatements, settleOutbox } from "../object/outbox";
import type { OutboxItem } from "../object/storage";
import { sendWakeMessages } from "./wake";

declare module "../../accounts/account-stub" {
	interface ChangePayloads {
		request: SeedCommandRequest;
		read: SeedRead;
		write: SeedWrite;
		written: SeedWritten;
		decided: SeedDecision | null;
	}
}

/**
 * Cancel and update of an interview whose object was never opened, decided against its seed row
 * in D1 instead of opening (and paying for the adoption of) the object (docs/architecture.md,
 * "Changes to a seed"). The same pure transition the object runs decides; what it owes is
 * written in one D1 batch guarded by the seed's version (`seedChangeStatements`), and the rest
 * (notices, fan-out) settled as the object settles its outbox.
 */
export type SeedCommand = CancelCommand | UpdateCommand;

/** The wake time of a seed with no timer left and nothing more to do: never. */
export const NEVER = 8_640_000_000_000_000;
/**
 * A seed whose interview is over (cancelled before its object was ever opened) is woken this long
 * after the change, once its settling is long done: its object adopts it (a replay that finds
 * everything recorded), the seed row goes, and its events and e-mails then age out like every
 * other interview's (docs/retention.md). Without it nothing would ever open it, and they would be
 * kept for good.
 */
export const FINAL_SEED_WAKE_MS = 60 * 60_000;
/**
 * A change that owes more than D1 (a notice) leaves its seed due this long after it, so that if
 * the Worker stops before settling, the housekeeping sweep opens the object, which replays the
 * seed's outbox (idempotently); settling puts the wake time back.
 */
export const SEED_SETTLE_MS = 10 * 60_000;
/** Attempts against a seed that keeps changing under us before the object decides instead. */
const ATTEMPTS = 3;

/**
 * Interviews this isolate found without an unclaimed seed: their objects hold them (adoption is
 * never undone, and a new interview's id is new), so their next change goes straight to the
 * object without reading D1 first. Bounded: forgotten all at once when full.
 */
const objectHeld = new Set<string>();
const OBJECT_HELD_MAX = 10_000;

function rememberObjectHeld(id: string): void {
	if (objectHeld.size >= OBJECT_HELD_MAX) objectHeld.clear();
	objectHeld.add(id);
}

/**
 * The seeds this isolate last read or wrote (unclaimed), each at its version. A change decided
 * against one skips the seed's read: its batch's guard (`seedChangeStatements`) commits only if
 * the row is still at that version and unclaimed, in which case the copy was the row and the
 * decision is exactly the one a read would have given; otherwise the change is decided again on
 * a read. A change the copy would refuse, or find nothing to change, is decided on a read too,
 * so that no answer rests on a copy no batch confirmed. Bounded: forgotten all at once when full.
 */
const knownSeeds = new Map<string, Seed & { claimed: false }>();
const KNOWN_SEEDS_MAX = 1_000;

function rememberSeed(seed: Seed): void {
	if (knownSeeds.size >= KNOWN_SEEDS_MAX) knownSeeds.clear();
	knownSeeds.set(seed.state.id, { ...seed, claimed: false });
}

/** A seed as read, with whether its object has claimed it. */
export type SeedRead = (Seed & { claimed: boolean }) | null;

/**
 * How a decision reads seeds and writes changes: D1 directly (`directSeedIo`), or through the
 * account object, which reads and writes the seeds of concurrent changes together.
 */
export interface SeedIo {
	read(id: string): Promise<SeedRead>;
	commit: SeedCommit;
}

export function directSeedIo(env: Env): SeedIo {
	const db = getDb(env.DB);
	return { read: (id) => readSeed(db, id), commit: (write) => writeSeedChange(db, write) };
}

/** A change to decide against a seed, as the Worker sends it to the account object. */
export interface SeedCommandRequest {
	id: string;
	command: SeedCommand;
	now: number;
	owner: Owner;
}

/** What a decided change still owes beyond D1, settled after the answer is known (`settleSeedChange`). */
export interface SeedSettlement extends SeedWritten {
	change: SeedChange;
	now: number;
}

/** A decision against the seed: its result, and what is left to settle when it wrote a change. */
export interface SeedDecision {
	result: CommandResult;
	settlement: SeedSettlement | null;
}

/**
 * Runs `command` against the interview's seed. Null when there is no seed (its object holds the
 * interview, or it never existed) or the seed is claimed by its object, or kept changing: the
 * caller asks the object, as it always did.
 */
export async function commandSeed(
	env: Env,
	id: string,
	command: SeedCommand,
	now: number,
	owner: Owner,
): Promise<CommandResult | null> {
	const decided = await decideSeedCommand(directSeedIo(env), { id, command, now, owner });
	if (!decided) return null;
	if (decided.settlement) await settleSeedChange(env, decided.settlement);
	return decided.result;
}

/** `commandSeed` without its settling: the decision and its write (see `commandSeed`). */
export async function decideSeedCommand(
	io: SeedIo,
	request: SeedCommandRequest,
): Promise<SeedDecision | null> {
	const { id, command, now, owner } = request;
	if (objectHeld.has(id)) return null;
	const copy = knownSeeds.get(id);
	// Pass 0 decides against this isolate's copy of the seed, if it has one; each later pass reads it.
	for (let pass = copy ? 0 : 1; pass <= ATTEMPTS; pass++) {
		const seed = pass === 0 ? copy : await io.read(id);
		if (!seed || seed.claimed || seed.state.id !== id) {
			knownSeeds.delete(id);
			rememberObjectHeld(id);
			return null;
		}
		if (pass > 0) rememberSeed(seed);
		const outcome = decide(seed, command, now, owner);
		if (outcome.status !== "ok" || outcome.change === null) {
			if (pass === 0) continue;
			return { result: outcome.result, settlement: null };
		}
		const { change, result } = outcome;
		let written: SeedWritten;
		try {
			written = await io.commit({
				seed: change.seed,
				expectedVersion: seed.state.version,
				items: change.items,
			});
		} catch (error) {
			if (!String(error).includes(SEED_CHANGED_ERROR)) throw error;
			knownSeeds.delete(id);
			continue;
		}
		rememberSeed(change.seed);
		return { result, settlement: { change, ...written, now } };
	}
	return null;
}

/**
 * What `command` does to `seed` (pure): a refusal, nothing to change, or the change to write.
 * The owner's checks come first, as the object makes them.
 */
function decide(
	seed: Seed,
	command: SeedCommand,
	now: number,
	owner: Owner,
): { status: "refused" | "ok"; result: CommandResult; change: SeedChange | null } {
	const refused = (result: CommandResult) => ({ status: "refused" as const, result, change: null });
	if (seed.state.accountId !== owner.accountId || seed.state.environment !== owner.environment) {
		return refused({ status: "rejected", error: { code: "NOT_FOUND" }, interview: null });
	}
	// A svc_test_ key reads live interviews but changes only test-mode ones (decisions.md).
	if (owner.testKey && !seed.state.testMode) {
		return refused({ status: "rejected", error: { code: "NOT_TEST_MODE" }, interview: seed.state });
	}
	const next = transition(seed.state, command, now);
	if (!next.ok) return refused({ status: "rejected", error: next.error, interview: seed.state });
	const result: CommandResult = {
		status: "ok",
		interview: next.state,
		notificationQueued: next.effects.some((e) => e.kind === "notify"),
		creditsRefunded: next.effects.reduce((n, e) => n + (e.kind === "refund" ? e.credits : 0), 0),
	};
	const change = next.state === seed.state ? null : changedSeed(seed, next.state, next.effects, now);
	return { status: "ok", result, change };
}

/** A change's write: the seed as it becomes, guarded by the version it was decided against, and what it owes D1. */
export interface SeedWrite {
	seed: Seed;
	expectedVersion: number;
	items: OutboxItem[];
}

/**
 * What a committed change found to settle: its events' unsent deliveries, and the notices that
 * earlier changes (the creation among them) left in the seed's outbox with no e-mail recorded
 * (their Worker stopped before queueing them), by message id.
 */
export interface SeedWritten {
	pending: PendingDelivery[];
	unsentNotices: string[];
}

/**
 * Commits a seed's change and returns what it found to settle; throws when it did not commit,
 * with `SEED_CHANGED_ERROR` in the message when the seed was no longer the one decided against
 * (then nothing of it was written).
 */
export type SeedCommit = (write: SeedWrite) => Promise<SeedWritten>;

/** The message ids of the sent notices a seed's outbox carries from before this change. */
function earlierNotices(write: SeedWrite): string[] {
	const own = new Set(write.items.map((item) => (item.kind === "notify" ? item.request.messageId : null)));
	return write.seed.outbox.flatMap((item) =>
		item.kind === "notify" && noticeIsSent(item.request) && !own.has(item.request.messageId)
			? [item.request.messageId]
			: [],
	);
}

/**
 * Writes changes to seeds in one D1 batch (one transaction): each its guard, its row and what it
 * owes (projection, events, ledger), a read of which earlier notices have no e-mail (only for a
 * seed that carries any), and one read of the events' unsent deliveries; what each change found
 * is returned in order. One guard that fails fails them all (the account object's group commit
 * then writes each alone).
 */
export async function writeSeedChanges(db: Db, writes: readonly SeedWrite[]): Promise<SeedWritten[]> {
	const statements: Bound[] = [];
	const events: EventRecord[] = [];
	const eventIds: Set<string>[] = [];
	const unsent: string[][] = writes.map(() => []);
	writes.forEach((write, i) => {
		const owed = outboxStatements(db, write.seed.state, write.items);
		statements.push(...seedChangeStatements(db, write.seed, write.expectedVersion), ...owed.statements);
		const earlier = earlierNotices(write);
		if (earlier.length > 0) {
			const check = unrecordedEmails(db, earlier);
			statements.push({
				statement: check.statement,
				read: (result) => {
					unsent[i] = check.read(result);
				},
			});
		}
		events.push(...owed.events);
		eventIds.push(new Set(owed.events.map((event) => event.id)));
	});
	const pending = await runRecordingEvents(db, statements, events);
	return eventIds.map((ids, i) => ({
		pending: pending.filter((delivery) => ids.has(delivery.eventId)),
		unsentNotices: unsent[i] ?? [],
	}));
}

export async function writeSeedChange(db: Db, write: SeedWrite): Promise<SeedWritten> {
	const [written] = await writeSeedChanges(db, [write]);
	return written ?? { pending: [], unsentNotices: [] };
}

export interface SeedChange {
	seed: Seed;
	/** What the change owes, also appended to the seed's outbox (replayed if it is ever adopted). */
	items: OutboxItem[];
	/** The seed's wake time once the change is settled (its earliest timer, or never). */
	settledWakeAt: number;
	/** Whether the change moved a timer (then a wake message may be owed). */
	timersMoved: boolean;
}

/**
 * Whether an outbox item owes anything beyond D1: a notice that is sent (not test mode, not the
 * dev sandbox), a slot release. Everything else an item owes (the projection, its events with
 * their deliveries, a refund, the month's count) was written in the batch that wrote the seed row
 * holding it; an event's fan-out, should it fail, is the pending deliveries' resend sweep's.
 */
function owesBeyondD1(item: OutboxItem): boolean {
	return (item.kind === "notify" && noticeIsSent(item.request)) || item.kind === "release_slot";
}

/**
 * The seed after a change (pure): the new state, its outbox, its timers. The outbox keeps the
 * change's items and, of the items before it, only those that may still owe something beyond D1
 * (`owesBeyondD1`, kept until the object adopts the seed, whose replay is idempotent): the rest
 * were written with the seed row that held them, so a seed changed many times before it is
 * opened does not read, parse and rewrite every earlier change's events on each change.
 */
export function changedSeed(
	seed: Seed,
	next: Seed["state"],
	effects: Parameters<typeof outboxItem>[1][],
	now: number,
): SeedChange {
	const items: OutboxItem[] = [];
	const timers = new Map(seed.timers.map((t) => [t.name, t.dueAt]));
	let timersMoved = false;
	for (const effect of effects) {
		if (effect.kind === "timer") {
			timersMoved ||= timers.get(effect.name) !== (effect.dueAt ?? undefined);
			if (effect.dueAt === null) timers.delete(effect.name);
			else timers.set(effect.name, effect.dueAt);
			continue;
		}
		const item = outboxItem(next, effect, now);
		if (item) items.push(item);
	}
	const timerList = [...timers].map(([name, dueAt]) => ({ name, dueAt }));
	const final = next.status === "cancelled" || next.status === "completed";
	const settledWakeAt = timerList.reduce(
		(earliest, t) => Math.min(earliest, t.dueAt),
		final ? now + FINAL_SEED_WAKE_MS : NEVER,
	);
	return {
		seed: {
			state: next,
			outbox: [...seed.outbox.filter(owesBeyondD1), ...items],
			timers: timerList,
			wakeAt: items.some(owesBeyondD1) ? Math.min(settledWakeAt, now + SEED_SETTLE_MS) : settledWakeAt,
		},
		items,
		settledWakeAt,
		timersMoved,
	};
}

/**
 * What the change owes beyond D1, as the object's outbox settles it: first the notices earlier
 * changes owed and never queued (the creation's invitation, say, its Worker stopped after its
 * batch), so that the candidate receives them in order, then the change's own notices, fan-out,
 * and a wake message when the seed now wakes within the horizon (a reschedule to soon). A failure
 * here does not fail the request (the change is committed): the seed stays due and the sweep
 * finishes it.
 */
export async function settleSeedChange(env: Env, settlement: SeedSettlement): Promise<void> {
	const { change, pending, unsentNotices, now } = settlement;
	const { state } = change.seed;
	const events = outboxEvents(state, change.items);
	const owedBefore = change.seed.outbox.filter(
		(item) => item.kind === "notify" && unsentNotices.includes(item.request.messageId),
	);
	try {
		await settleOutbox(env, state, [...owedBefore, ...change.items], events, pending);
		if (change.seed.wakeAt !== change.settledWakeAt) {
			await runOne(setSeedWake(getDb(env.DB), state.id, state.version, change.settledWakeAt));
		}
		// An interview that is over is woken by the overdue sweep, not by a message of its own.
		const over = state.status === "cancelled" || state.status === "completed";
		if (change.timersMoved && change.settledWakeAt !== NEVER && !over) {
			await sendWakeMessages(env, [{ id: state.id, wakeAt: change.settledWakeAt }], now);
		}
	} catch (error) {
		console.error(
			JSON.stringify({
				message: "seed change settling failed",
				interview_id: state.id,
				error: errorText(error),
			}),
		);
	}
}
