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
function byRecordingOrder(a: RecordingLink, b: RecordingLink): number {
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

/** Time-limited, signed links to each stored chunk of an interview's audio, in order. */
export async function recordingLinks(
	env: Env,
	interviewId: string,
	baseUrl: string,
	nowMs: number,
): Promise<RecordingLink[]> {
	const secret = env.RECORDING_URL_SECRET;
	if (!secret) return [];
	const expires = Math.floor(nowMs / 1000) + RECORDING_URL_TTL_SECONDS;
	const links: RecordingLink[] = [];
	let cursor: string | undefined;
	for (let page = 0; page < 20; page++) {
		const listed = await env.RECORDINGS.list({ prefix: `recordings/${interviewId}/`, cursor, limit: 1000 });
		for (const object of listed.objects) {
			const file = object.key.split("/").pop() as string;
			const parsed = parseRecordingFile(file);
			if (!parsed) continue;
			const path = `/recordings/${interviewId}/${file}`;
			const sig = await signPath(secret, path, expires);
			links.push({
				segment: parsed.segment,
				chunk: parsed.chunk,
				url: `${baseUrl}${path}?expires=${expires}&sig=${sig}`,
				size_bytes: object.size,
				uploaded_at: object.uploaded.toISOString(),
				expires_at: new Date(expires * 1000).toISOString(),
			});
		}
		if (!listed.truncated) break;
		cursor = listed.cursor;
	}
	return links.sort(byRecordingOrder);
}

/** Deletes every stored chunk of an interview's recording (the dev-data purge). */
export async function deleteRecordings(env: Env, interviewId: string): Promise<void> {
	for (let page = 0; page < 20; page++) {
		const listed = await env.RECORDINGS.list({ prefix: `recordings/${interviewId}/`, limit: 1000 });
		if (listed.objects.length > 0) await env.RECORDINGS.delete(listed.objects.map((o) => o.key));
		if (!listed.truncated) return;
	}
}
