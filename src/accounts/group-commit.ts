/**
 * Group commit: writes that arrive while one is being committed wait, and are committed together
 * in the next batch, so concurrent writers share one database round trip (and one transaction)
 * instead of queueing one each. A write never waits for a timer: with nothing in flight it is
 * committed at once.
 *
 * A batch is one transaction, so one bad write would fail its whole group. When a group of
 * several fails, each of its writes is tried again on its own and gets its own outcome; a write
 * that the failed batch did commit after all (the answer lost on the way back) then fails on its
 * own try, and its caller asks the database what happened, as it would after any failed write.
 */

export type CommitOutcome<R> = { status: "committed"; result: R } | { status: "failed"; error: string };

interface Waiting<W, R> {
	write: W;
	resolve: (outcome: CommitOutcome<R>) => void;
}

export interface GroupCommitOptions<W, R> {
	/** Commits the writes in one batch and returns each one's result, in order. */
	run: (writes: W[]) => Promise<R[]>;
	/** How much one write adds to a batch (interviews, say); a group stays within `maxSize`. */
	size: (write: W) => number;
	maxSize: number;
}

export class GroupCommit<W, R> {
	private readonly waiting: Waiting<W, R>[] = [];
	private committing = false;
	/** Batches run and writes committed (for tests and measurement). */
	readonly stats = { batches: 0, writes: 0, largestGroup: 0 };

	constructor(private readonly options: GroupCommitOptions<W, R>) {}

	/** Resolves when the write is committed or known to have failed; never rejects. */
	commit(write: W): Promise<CommitOutcome<R>> {
		return new Promise((resolve) => {
			this.waiting.push({ write, resolve });
			if (!this.committing) void this.drain();
		});
	}

	private async drain(): Promise<void> {
		this.committing = true;
		try {
			while (this.waiting.length > 0) await this.runGroup(this.takeGroup());
		} finally {
			this.committing = false;
		}
	}

	/** The longest run of waiting writes, oldest first, within `maxSize` (always at least one). */
	private takeGroup(): Waiting<W, R>[] {
		let size = 0;
		let count = 0;
		for (const entry of this.waiting) {
			const next = size + this.options.size(entry.write);
			if (count > 0 && next > this.options.maxSize) break;
			size = next;
			count++;
		}
		return this.waiting.splice(0, count);
	}

	private async runGroup(group: Waiting<W, R>[]): Promise<void> {
		const outcomes = await this.attempt(group.map((entry) => entry.write));
		if (outcomes.status === "committed" || group.length === 1) {
			group.forEach((entry, i) => {
				entry.resolve(
					outcomes.status === "committed"
						? { status: "committed", result: outcomes.result[i] as R }
						: outcomes,
				);
			});
			return;
		}
		// Which write failed the group is unknown: each is tried alone, in order.
		for (const entry of group) {
			const alone = await this.attempt([entry.write]);
			entry.resolve(
				alone.status === "committed" ? { status: "committed", result: alone.result[0] as R } : alone,
			);
		}
	}

	private async attempt(writes: W[]): Promise<CommitOutcome<R[]>> {
		this.stats.batches++;
		this.stats.largestGroup = Math.max(this.stats.largestGroup, writes.length);
		try {
			const result = await this.options.run(writes);
			if (result.length !== writes.length) throw new Error("group commit: one result per write expected");
			this.stats.writes += writes.length;
			return { status: "committed", result };
		} catch (error) {
			return { status: "failed", error: error instanceof Error ? error.message : String(error) };
		}
	}
}
