import { CREDITS_PER_INTERVIEW } from "../../accounts/admission";
import type { AuthContext } from "../../accounts/auth-context";
import { type EventRecord, insertEvents } from "../../events/events-repo";
import { type Db, getDb } from "../../platform/db/client";
import { AppError, OutcomeUnknownError } from "../../platform/http/errors";
import { errorText } from "../../platform/lib/error-text";
import { limiter } from "../../platform/lib/limit";
import { randomBase62 } from "../../platform/lib/random";
import { retrying } from "../../platform/lib/retry";
import { type PendingDelivery, runRecordingEvents } from "../../webhooks/deliveries-repo";
import { publishEvents } from "../../webhooks/publish";
import type { CreateInterviewBody } from "../api/schemas";
import type { InterviewState } from "../core/model";
import { type CreateCommand, transition } from "../core/state-machine";
import { interviewExists, upsertProjections } from "../db/interviews-repo";
import { insertSeeds, markSeedsDue, type Seed } from "../db/seeds-repo";
import { eventRecord, outboxItem, settleOutbox } from "../object/outbox";
import type { OutboxItem } from "../object/storage";
import { interviewStub } from "../stub";
import { sendWakeMessages } from "./wake";

/**
 * Deferred creation (docs/architecture.md): creating an interview does not open its Durable
 * Object. The Worker computes the first state with the same pure transition the object runs,
 * and writes it as a seed in one D1 batch with the projection and the `interview.scheduled`
 * event, so lists and the event log see it at once; the object adopts the seed on first use.
 * A wake message, delayed until just before the interview's first timer, opens the object in
 * time if nothing else has.
 */

declare module "../../accounts/account-stub" {
	/** A single create's write goes through its account's object (`createAtOnce`). */
	interface CreatePayloads {
		write: CreationWrite;
		written: PendingDelivery[];
	}
}

export interface CreateOptions {
	scheduledAt: number;
	now: number;
	appUrl: string;
	/** The job's description and requirements (setup-guide create), kept for the interviewer. */
	job?: { description: string | null; requirements: string | null };
}

/**
 * What creation holds before the interview exists: its id, whether it is live (admitted to the
 * monthly quota and debited, src/accounts/admission.ts) and the id of that debit.
 */
export interface NewInterview {
	id: string;
	testMode: boolean;
	live: boolean;
	debitId: string;
}

/** One interview to create: its validated body, the new interview's id and admission, its options. */
export interface Planting {
	body: CreateInterviewBody;
	interview: NewInterview;
	options: CreateOptions;
}

/** Notices sent at once while settling a creation (each is a D1 write and a queue message). */
const NOTICE_CONCURRENCY = 10;

export function createCommand(auth: AuthContext, planting: Planting): CreateCommand {
	const { body, interview, options } = planting;
	return {
		type: "create",
		id: interview.id,
		accountId: auth.accountId,
		environment: auth.dataEnvironment,
		testMode: interview.testMode,
		candidateEmail: body.candidate_email,
		candidateName: body.candidate_name ?? null,
		position: body.position,
		skills: body.skills,
		difficulty: body.difficulty,
		durationMinutes: body.duration_minutes,
		companyName: body.company_name ?? auth.companyName,
		instructions: body.instructions ?? null,
		...(options.job
			? { jobDescription: options.job.description, jobRequirements: options.job.requirements }
			: {}),
		scheduledAt: options.scheduledAt,
		joinToken: randomBase62(32),
		appUrl: options.appUrl,
		sendInvitation: body.send_invitation,
		creditsCharged: interview.live ? CREDITS_PER_INTERVIEW : 0,
	};
}

/** The seed a creation leaves: the first state, its outbox and timers (pure). */
export function seedOf(command: CreateCommand, now: number): Seed {
	const result = transition(null, command, now);
	if (!result.ok) throw new Error(`create refused: ${result.error.code}`);
	const outbox: OutboxItem[] = [{ kind: "projection" }];
	const timers: Seed["timers"] = [];
	for (const effect of result.effects) {
		if (effect.kind === "timer") {
			if (effect.dueAt !== null) timers.push({ name: effect.name, dueAt: effect.dueAt });
			continue;
		}
		const item = outboxItem(result.state, effect, now);
		if (item) outbox.push(item);
	}
	const wakeAt = timers.reduce(
		(earliest, timer) => Math.min(earliest, timer.dueAt),
		Number.POSITIVE_INFINITY,
	);
	return { state: result.state, outbox, timers, wakeAt: Number.isFinite(wakeAt) ? wakeAt : now };
}

/**
 * Creates the interviews of one account (one or a bulk's items) in one D1 batch, written by
 * `commit` (directly by default; a single create's goes through its account's object, which
 * counts the request, admits it and commits it with others: `createAtOnce`). If the batch
 * fails, nothing was created and every admission is given back before the error propagates.
 * After it, the interviews exist: e-mail, webhooks and wake messages follow, and if any of those
 * fails the seeds are made due at once, so their objects replay what is owed (a direct wake now,
 * the housekeeping sweep otherwise). Returns the states in the order given.
 */
export async function plantInterviews(
	env: Env,
	auth: AuthContext,
	plantings: Planting[],
	now: number,
	release: (interview: NewInterview) => Promise<void>,
	commit: CommitCreation = (write) => writeCreation(getDb(env.DB), write),
): Promise<InterviewState[]> {
	if (plantings.length === 0) return [];
	const db = getDb(env.DB);
	const giveBack = () => Promise.allSettled(plantings.map((planting) => release(planting.interview)));
	let seeds: Seed[];
	try {
		seeds = plantings.map((planting) => seedOf(createCommand(auth, planting), now));
	} catch (error) {
		await giveBack();
		throw error;
	}
	const events = seeds.flatMap(creationEvents);
	let pending: PendingDelivery[] | undefined;
	try {
		pending = await commit({ seeds, events });
	} catch (error) {
		// A refusal (the rate limit, the monthly quota, credits, the key) came before anything was
		// written or taken: nothing to give back.
		if (error instanceof AppError || error instanceof NothingWritten) throw error;
		// A batch can fail after it committed (the answer lost on the way back): then the
		// interviews exist, and they are taken as created, not given back.
		const first = seeds[0]?.state.id as string;
		const created = await whetherCreated(db, first);
		if (created === false) {
			// Not created: give back what was taken (the orphan sweep returns what a failed
			// give-back leaves).
			await giveBack();
			throw error;
		}
		if (created === null) {
			// Nobody can say: nothing is given back and nothing is settled here. If the interviews
			// exist, housekeeping sends what they owe (`sweepUnsettledSeeds`, src/interviews/sweeps.ts); the answer is kept
			// for the Idempotency-Key so that a retry cannot create them twice.
			console.error(
				JSON.stringify({
					message: "creation outcome unknown",
					interviews: seeds.length,
					error: errorText(error),
				}),
			);
			throw new OutcomeUnknownError(
				"The database did not confirm whether this was created: it may exist. List your interviews (candidate_email filter) before creating it again.",
				{ interview_ids: seeds.map((seed) => seed.state.id) },
			);
		}
	}
	await settleCreation(env, seeds, events, pending, now);
	return seeds.map((seed) => seed.state);
}

/** What a creation writes to D1: its seeds (with their projections) and the events they record. */
export interface CreationWrite {
	seeds: Seed[];
	events: EventRecord[];
}

/**
 * Writes a creation and returns the unsent webhook deliveries of its events. It either wrote
 * everything or throws: an `AppError` when it was refused before writing anything, any other
 * error when the write failed (it may still have committed).
 */
export type CommitCreation = (write: CreationWrite) => Promise<PendingDelivery[]>;

/** Thrown by a `CommitCreation` that wrote and took nothing, for a reason that is not a refusal. */
export class NothingWritten extends Error {}

/**
 * Writes creations in one D1 batch (one transaction) and returns each one's unsent deliveries, in
 * order: several single creates committed together (the account object's group commit) or one
 * bulk. Seeds, projections and events are one statement each (their rows as one JSON parameter).
 */
export async function writeCreations(db: Db, writes: readonly CreationWrite[]): Promise<PendingDelivery[][]> {
	const seeds = writes.flatMap((write) => write.seeds);
	const events = writes.flatMap((write) => write.events);
	const statements = [
		...insertSeeds(db, seeds),
		...upsertProjections(
			db,
			seeds.map((seed) => seed.state),
		),
		...insertEvents(db, events),
	];
	// The events' webhook deliveries are recorded with them (a trigger) and read back here.
	const pending = await runRecordingEvents(db, statements, events);
	return writes.map((write) => {
		const ids = new Set(write.events.map((event) => event.id));
		return pending.filter((delivery) => ids.has(delivery.eventId));
	});
}

export async function writeCreation(db: Db, write: CreationWrite): Promise<PendingDelivery[]> {
	const [pending] = await writeCreations(db, [write]);
	return pending ?? [];
}

/** Delays between the tries of `whetherCreated` while D1 cannot answer (tests shorten them). */
export const createdCheck = { retryMs: [250, 1_000, 3_000] };

/** Whether the interview exists, asked again while D1 fails; null when it never answered. */
async function whetherCreated(db: Db, id: string): Promise<boolean | null> {
	let answer: boolean | null = null;
	await retrying(
		async () => {
			answer = await interviewExists(db, id);
		},
		createdCheck.retryMs,
		(error, n) =>
			console.error(
				JSON.stringify({ message: "creation check failed", attempt: n, error: errorText(error) }),
			),
	);
	return answer;
}

/** The events a creation recorded; creation owes nothing else to D1 besides its projection. */
export function creationEvents(seed: Seed): EventRecord[] {
	const { state } = seed;
	return seed.outbox.flatMap((item): EventRecord[] => {
		if (item.kind === "event") return [eventRecord(state, item.event)];
		if (item.kind === "projection" || item.kind === "notify") return [];
		throw new Error(`creation cannot owe ${item.kind}`);
	});
}

async function settleCreation(
	env: Env,
	seeds: Seed[],
	events: EventRecord[],
	pending: PendingDelivery[] | undefined,
	now: number,
): Promise<void> {
	try {
		const run = limiter(NOTICE_CONCURRENCY);
		await Promise.all(seeds.map((seed) => run(() => settleOutbox(env, seed.state, seed.outbox, [], []))));
		await publishEvents(env, events, pending);
		await sendWakeMessages(
			env,
			seeds.map((seed) => ({ id: seed.state.id, wakeAt: seed.wakeAt })),
			now,
		);
	} catch (error) {
		const ids = seeds.map((seed) => seed.state.id);
		console.error(
			JSON.stringify({
				message: "creation settling failed",
				interviews: ids.length,
				error: errorText(error),
			}),
		);
		const db = getDb(env.DB);
		await markSeedsDue(db, ids, now).catch((e: unknown) =>
			console.error(JSON.stringify({ message: "marking seeds due failed", error: errorText(e) })),
		);
		await Promise.allSettled(ids.map((id) => interviewStub(env, id).wake()));
	}
}
