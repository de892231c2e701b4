import { RECORDING_LIMITS } from "../recordings/recordings";

const RECORDING_USAGE_KEY = "recording_usage";

interface RecordingUsage {
	chunks: number;
	bytes: number;
}

/** The interview's recording totals, counted before each chunk is stored (docs/live-room.md). */
export class RecordingUsageCounter {
	constructor(private readonly storage: DurableObjectStorage) {}

	/**
	 * Counts a chunk of `bytes` against the totals (`RECORDING_LIMITS`); false once either total
	 * would be passed. A chunk counted and then not stored still counts: the totals only ever
	 * over-count.
	 */
	async reserve(bytes: number): Promise<boolean> {
		const used = (await this.storage.get<RecordingUsage>(RECORDING_USAGE_KEY)) ?? { chunks: 0, bytes: 0 };
		if (used.chunks + 1 > RECORDING_LIMITS.chunks || used.bytes + bytes > RECORDING_LIMITS.bytes) {
			return false;
		}
		await this.storage.put(RECORDING_USAGE_KEY, { chunks: used.chunks + 1, bytes: used.bytes + bytes });
		return true;
	}
}
