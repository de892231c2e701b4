import { RECORDING_LIMITS } from "../recordings/recordings";
import { recordingsUncounted } from "./storage";

const RECORDING_USAGE_KEY = "recording_usage";

interface RecordingUsage {
	chunks: number;
	bytes: number;
}

/**
 * The interview's recording totals, counted before each chunk is stored (docs/live-room.md). The
 * object is their only writer, so they are read from storage once and then kept in memory.
 */
export class RecordingUsageCounter {
	private used: RecordingUsage | null = null;
	/** Whether the object is older than the count (fixed once its storage is brought up to date). */
	private uncounted: boolean | null = null;

	constructor(private readonly storage: DurableObjectStorage) {}

	/**
	 * Counts a chunk of `bytes` against the totals (`RECORDING_LIMITS`); false once either total
	 * would be passed. A chunk counted and then not stored still counts: the totals only ever
	 * over-count.
	 */
	async reserve(bytes: number): Promise<boolean> {
		const used = await this.usage();
		if (used.chunks + 1 > RECORDING_LIMITS.chunks || used.bytes + bytes > RECORDING_LIMITS.bytes) {
			return false;
		}
		// In memory first, before anything awaits: a second upload counts on top of this one.
		this.used = { chunks: used.chunks + 1, bytes: used.bytes + bytes };
		await this.storage.put(RECORDING_USAGE_KEY, this.used);
		return true;
	}

	/**
	 * Whether the interview's recording may have chunks in R2: one was counted, or the object is
	 * older than the count. Every upload is counted before it is stored (`reserve`), so false means
	 * there is nothing to list. Call only on an object whose tables exist (it holds an interview).
	 */
	async mayHoldChunks(): Promise<boolean> {
		this.uncounted ??= recordingsUncounted(this.storage.sql);
		return this.uncounted || (await this.usage()).chunks > 0;
	}

	/** After the storage was deleted (the purge). */
	reset(): void {
		this.used = null;
		this.uncounted = null;
	}

	private async usage(): Promise<RecordingUsage> {
		if (this.used === null) {
			const stored = (await this.storage.get<RecordingUsage>(RECORDING_USAGE_KEY)) ?? { chunks: 0, bytes: 0 };
			// A count made while this read waited is newer than what it read.
			this.used ??= stored;
		}
		return this.used;
	}
}
