import { signPath } from "../../platform/lib/signing";

export const RECORDING_URL_TTL_SECONDS = 3600;

/**
 * What one interview may store of its recording: at most 5,000 chunks (about 7 hours of the
 * page's 5-second chunks, so a fetch always lists them all) and 500 MiB (the page's audio is
 * about 0.25 MiB a minute).
 */
export const RECORDING_LIMITS = { chunks: 5_000, bytes: 500 * 1024 * 1024 };

/** A page's recording segment: base 36, as the candidate page names it (the time it began). */
export const RECORDING_SEGMENT = /^[0-9a-z]{1,12}$/;

/** A chunk's object name: `{segment}-{chunk}.webm`, or `{chunk}.webm` without a segment; six digits. */
export function recordingFile(segment: string | null, chunk: number): string {
	const n = String(chunk).padStart(6, "0");
	return segment === null ? `${n}.webm` : `${segment}-${n}.webm`;
}

const RECORDING_FILE = new RegExp(`^(?:(${RECORDING_SEGMENT.source.slice(1, -1)})-)?(\\d{6})\\.webm$`);

function parseRecordingFile(file: string): { segment: string | null; chunk: number } | null {
	const match = RECORDING_FILE.exec(file);
	if (!match) return null;
	return { segment: match[1] ?? null, chunk: Number(match[2]) };
}

/** Segments in the order they began (no segment first), then chunks in order. */
function byRecordingOrder(
	a: { segment: string | null; chunk: number },
	b: { segment: string | null; chunk: number },
): number {
	const sa = a.segment === null ? -1 : Number.parseInt(a.segment, 36);
	const sb = b.segment === null ? -1 : Number.parseInt(b.segment, 36);
	return sa - sb || a.chunk - b.chunk;
}

export interface RecordingLink {
	/** The page that recorded it (null for chunks sent without one). */
	segment: string | null;
	chunk: number;
	url: string;
	size_bytes: number;
	uploaded_at: string;
	expires_at: string;
}

/**
 * One page's recording as one file: its chunks joined in order, which is the stream the page's
 * recorder made (a chunk after the first has no header of its own and does not play alone).
 */
export interface RecordingSegment {
	segment: string | null;
	/** Signed like a chunk's link; the Worker joins the chunks as it streams them. */
	url: string;
	chunks: number;
	size_bytes: number;
	/** When its first chunk was stored. */
	started_at: string;
	expires_at: string;
}

export interface RecordingLinks {
	/** Every stored chunk, in segment then chunk order. */
	chunks: RecordingLink[];
	/** Each segment as one playable file, in the order they began. */
	segments: RecordingSegment[];
}

/** A segment's joined file: `segment-{segment}.webm`, or `segment.webm` for chunks without one. */
export function segmentFile(segment: string | null): string {
	return segment === null ? "segment.webm" : `segment-${segment}.webm`;
}

const SEGMENT_FILE = new RegExp(`^segment(?:-(${RECORDING_SEGMENT.source.slice(1, -1)}))?\\.webm$`);

/** The segment a joined file names (null: chunks without one), or undefined if it names none. */
export function parseSegmentFile(file: string): { segment: string | null } | undefined {
	const match = SEGMENT_FILE.exec(file);
	return match ? { segment: match[1] ?? null } : undefined;
}

/** The stored chunks of an interview's recording under `prefix`, listed page by page (bounded). */
async function listChunks(
	env: Env,
	interviewId: string,
	prefix = "",
): Promise<{ key: string; segment: string | null; chunk: number; size: number; uploaded: Date }[]> {
	const out: { key: string; segment: string | null; chunk: number; size: number; uploaded: Date }[] = [];
	let cursor: string | undefined;
	// 5,000 chunks at most (RECORDING_LIMITS), 1,000 a page.
	for (let page = 0; page < 20; page++) {
		const listed = await env.RECORDINGS.list({
			prefix: `recordings/${interviewId}/${prefix}`,
			cursor,
			limit: 1000,
		});
		for (const object of listed.objects) {
			const parsed = parseRecordingFile(object.key.split("/").pop() as string);
			if (parsed) out.push({ key: object.key, ...parsed, size: object.size, uploaded: object.uploaded });
		}
		if (!listed.truncated) break;
		cursor = listed.cursor;
	}
	return out.sort(byRecordingOrder);
}

/** Time-limited, signed links to each stored chunk of an interview's audio and to each segment joined. */
export async function recordingLinks(
	env: Env,
	interviewId: string,
	baseUrl: string,
	nowMs: number,
): Promise<RecordingLinks> {
	const secret = env.RECORDING_URL_SECRET;
	if (!secret) return { chunks: [], segments: [] };
	const expires = Math.floor(nowMs / 1000) + RECORDING_URL_TTL_SECONDS;
	const expiresAt = new Date(expires * 1000).toISOString();
	const link = async (file: string) => {
		const path = `/recordings/${interviewId}/${file}`;
		return `${baseUrl}${path}?expires=${expires}&sig=${await signPath(secret, path, expires)}`;
	};
	const chunks: RecordingLink[] = [];
	const segments: RecordingSegment[] = [];
	for (const stored of await listChunks(env, interviewId)) {
		const file = stored.key.split("/").pop() as string;
		chunks.push({
			segment: stored.segment,
			chunk: stored.chunk,
			url: await link(file),
			size_bytes: stored.size,
			uploaded_at: stored.uploaded.toISOString(),
			expires_at: expiresAt,
		});
		const last = segments.at(-1);
		if (last && last.segment === stored.segment) {
			last.chunks++;
			last.size_bytes += stored.size;
		} else {
			segments.push({
				segment: stored.segment,
				url: await link(segmentFile(stored.segment)),
				chunks: 1,
				size_bytes: stored.size,
				started_at: stored.uploaded.toISOString(),
				expires_at: expiresAt,
			});
		}
	}
	return { chunks, segments };
}

/**
 * One segment's chunks joined into one stream, in chunk order, with its length and the first
 * chunk's media type; null when the segment holds none. Each chunk after the first is read from R2
 * only once the reader has taken the one before it; `done` settles when the last has been written.
 */
export async function joinedSegment(
	env: Env,
	interviewId: string,
	segment: string | null,
): Promise<{
	body: ReadableStream<Uint8Array>;
	size: number;
	contentType: string;
	done: Promise<void>;
} | null> {
	const stored = (await listChunks(env, interviewId, segment === null ? "" : `${segment}-`)).filter(
		(c) => c.segment === segment,
	);
	const firstKey = stored[0]?.key;
	const first = firstKey === undefined ? null : await env.RECORDINGS.get(firstKey);
	if (!first) return null;
	const size = stored.reduce((sum, c) => sum + c.size, 0);
	const { readable, writable } = new FixedLengthStream(size);
	const write = async () => {
		for (const [i, chunk] of stored.entries()) {
			const object = i === 0 ? first : await env.RECORDINGS.get(chunk.key);
			// A chunk gone or changed since the list: the stream ends short, as an error, never as
			// a file that looks whole.
			if (!object || object.size !== chunk.size)
				throw new Error("a recording chunk changed while it was read");
			await object.body.pipeTo(writable, { preventClose: true });
		}
		await writable.close();
	};
	const done = write().catch(async (error: unknown) => {
		await writable.abort(error).catch(() => {});
	});
	return { body: readable, size, contentType: first.httpMetadata?.contentType ?? "", done };
}

/** Deletes every stored chunk of an interview's recording (the dev-data purge). */
export async function deleteRecordings(env: Env, interviewId: string): Promise<void> {
	for (let page = 0; page < 20; page++) {
		const listed = await env.RECORDINGS.list({ prefix: `recordings/${interviewId}/`, limit: 1000 });
		if (listed.objects.length > 0) await env.RECORDINGS.delete(listed.objects.map((o) => o.key));
		if (!listed.truncated) return;
	}
}
