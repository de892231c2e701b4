import { clearTimer, dueTimers, earliestTimer, hasTimer, setTimer } from "./storage";

/**
 * The interview's timers: rows (`kind`, `due_at`) in the object's SQLite, and one storage alarm
 * armed at the earliest of them. Every timer write goes through here, so the earliest is read
 * again only after one; the alarm last set is remembered, so the many commits that leave the
 * earliest timer where it was (each answer) do not set it again.
 */
export class Timers {
	/** The earliest timer the storage alarm was last set for (null: deleted); undefined: unknown. */
	private armedFor: number | null | undefined = undefined;
	/** The earliest timer as last read (null: none); undefined until read again after a write. */
	private earliest: number | null | undefined = undefined;

	constructor(
		private readonly storage: DurableObjectStorage,
		/** Whether the object's tables exist: an object that holds no interview has none to read. */
		private readonly ready: () => boolean = () => true,
	) {}

	/** Sets (or with null clears) the timer `kind`. Inside a commit's transaction when there is one. */
	set(kind: string, dueAt: number | null): void {
		setTimer(this.storage.sql, kind, dueAt);
		this.earliest = undefined;
	}

	/** Removes a timer that fired, only if it is still the one that fired (a command may have re-armed it). */
	clear(kind: string, dueAt: number): void {
		clearTimer(this.storage.sql, kind, dueAt);
		this.earliest = undefined;
	}

	has(kind: string): boolean {
		return hasTimer(this.storage.sql, kind);
	}

	due(now: number): { kind: string; dueAt: number }[] {
		return dueTimers(this.storage.sql, now);
	}

	/** Forgets what was armed and read: the alarm fired (it is spent), or the storage was deleted. */
	forget(): void {
		this.armedFor = undefined;
		this.earliest = undefined;
	}

	/**
	 * Sets the storage alarm to the earliest timer, at `Math.max(next, Date.now() + 1)` (a timer
	 * already due fires at once), or deletes it when there is none.
	 */
	async arm(): Promise<void> {
		if (!this.ready()) return;
		// Read again only after a timer write: most commits (an answer) touch no timer.
		this.earliest ??= earliestTimer(this.storage.sql);
		const next = this.earliest;
		if (next === this.armedFor && (next === null || next > Date.now())) return;
		this.armedFor = undefined;
		if (next === null) await this.storage.deleteAlarm();
		else await this.storage.setAlarm(Math.max(next, Date.now() + 1));
		this.armedFor = next;
	}
}
