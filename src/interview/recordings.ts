import type { Env } from "../env";
import { signPath } from "../lib/signing";

export const RECORDING_URL_TTL_SECONDS = 3600;

export interface RecordingLink {
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
			const path = `/recordings/${interviewId}/${file}`;
			const sig = await signPath(secret, path, expires);
			links.push({
				chunk: Number.parseInt(file, 10),
				url: `${baseUrl}${path}?expires=${expires}&sig=${sig}`,
				size_bytes: object.size,
				uploaded_at: object.uploaded.toISOString(),
				expires_at: new Date(expires * 1000).toISOString(),
			});
		}
		if (!listed.truncated) break;
		cursor = listed.cursor;
	}
	return links.sort((a, b) => a.chunk - b.chunk);
}

/** Deletes every stored chunk of an interview's recording (the dev-data purge). */
export async function deleteRecordings(env: Env, interviewId: string): Promise<void> {
	for (let page = 0; page < 20; page++) {
		const listed = await env.RECORDINGS.list({ prefix: `recordings/${interviewId}/`, limit: 1000 });
		if (listed.objects.length > 0) await env.RECORDINGS.delete(listed.objects.map((o) => o.key));
		if (!listed.truncated) return;
	}
}
