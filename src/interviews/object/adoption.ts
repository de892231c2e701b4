import { getDb } from "../../platform/db/client";
import { hasIdShape } from "../../platform/lib/random";
import type { InterviewState } from "../core/model";
import { claimSeed, type Seed } from "../db/seeds-repo";
import type { OutboxEngine } from "./outbox-engine";
import { saveState } from "./storage";
import type { Timers } from "./timers";

export interface AdoptionDeps {
	env: Env;
	/** The object's name: the interview id its seed is read by. */
	name: string | undefined;
	blockConcurrencyWhile<T>(callback: () => Promise<T>): Promise<T>;
	timers: Timers;
	outbox: OutboxEngine;
	state(): InterviewState | null;
	/** Makes the object's tables before the adoption's first write (an object that held nothing has none). */
	prepareStorage(): void;
	/** Takes the adopted state as the object's own. */
	adopted(state: InterviewState): void;
}

/**
 * Deferred creation (docs/architecture.md): an interview is created as a seed row in D1 and its
 * object is opened on first use. Before anything else reads or changes the state, the object
 * adopts its seed: the seed's state, timers and outbox are committed in one transaction (with a
 * row that deletes the seed), and the outbox is replayed; everything in it is idempotent, so what
 * creation already wrote is not written twice. Other calls wait meanwhile
 * (`blockConcurrencyWhile`).
 */
export class Adoption {
	/** Whether this instance has looked for a seed in D1. */
	private checked = false;

	constructor(
		private readonly storage: DurableObjectStorage,
		private readonly deps: AdoptionDeps,
	) {}

	/**
	 * Opens the object's state: adopts its seed on first use. The seed's outbox is flushed at once
	 * unless the caller flushes it with what it owes itself (`flush: false`); the adoption's retry
	 * timer covers a caller that fails before that.
	 */
	async ensure(options: { flush?: boolean } = {}): Promise<void> {
		const { deps } = this;
		if (deps.state() || this.checked) return;
		let adopted = false;
		await deps.blockConcurrencyWhile(async () => {
			if (deps.state() || this.checked) return;
			const id = deps.name;
			const seed = id && hasIdShape(id, "int") ? await claimSeed(getDb(deps.env.DB), id, Date.now()) : null;
			this.checked = true;
			if (!seed || seed.state.id !== id) return;
			this.adopt(seed);
			adopted = true;
			await deps.timers.arm();
		});
		if (adopted && options.flush !== false && (await deps.outbox.flush())) await deps.timers.arm();
	}

	/** The purge: a purged object never adopts again. */
	close(): void {
		this.checked = true;
	}

	private adopt(seed: Seed): void {
		const { outbox, timers } = this.deps;
		this.deps.prepareStorage();
		const sql = this.storage.sql;
		const now = Date.now();
		this.storage.transactionSync(() => {
			saveState(sql, null, seed.state);
			for (const item of seed.outbox) outbox.owe(item, now);
			outbox.owe({ kind: "forget_seed" }, now);
			for (const timer of seed.timers) timers.set(timer.name, timer.dueAt);
			// Should the replay below not happen (the object is evicted first), the alarm does it.
			outbox.retrySoon(now);
		});
		this.deps.adopted(seed.state);
	}
}
