import type { AttemptResult } from "./classify";

/** Receivers' answers are read only this far: enough to show an error, never a memory risk. */
export const RESPONSE_BODY_CAP_BYTES = 1024;

export interface SendOutcome {
	result: AttemptResult;
	durationMs: number;
	/** The first RESPONSE_BODY_CAP_BYTES of the answer, or null when there was none. */
	responseBody: string | null;
}

export interface SendRequest {
	url: string;
	headers: Record<string, string>;
	body: string;
	timeoutMs: number;
}

/**
 * One POST: redirects are returned, never followed; the timeout covers connecting, the answer's
 * status line and the capped read of its body.
 */
export async function sendWebhook(
	request: SendRequest,
	clock: () => number = Date.now,
): Promise<SendOutcome> {
	const started = clock();
	const controller = new AbortController();
	const timer = setTimeout(() => controller.abort(), request.timeoutMs);
	try {
		const response = await fetch(request.url, {
			method: "POST",
			headers: request.headers,
			body: request.body,
			redirect: "manual",
			signal: controller.signal,
		});
		const responseBody = await readCapped(response, RESPONSE_BODY_CAP_BYTES);
		// The timer ran out while the body was being read: a timeout, whatever the status said.
		if (controller.signal.aborted) return timedOut(request, clock() - started);
		return {
			result: { kind: "response", status: response.status },
			durationMs: clock() - started,
			responseBody,
		};
	} catch (error) {
		const durationMs = clock() - started;
		if (controller.signal.aborted) return timedOut(request, durationMs);
		return { result: { kind: "network", message: describeError(error) }, durationMs, responseBody: null };
	} finally {
		clearTimeout(timer);
	}
}

function timedOut(request: SendRequest, durationMs: number): SendOutcome {
	return { result: { kind: "timeout", afterMs: request.timeoutMs }, durationMs, responseBody: null };
}

/** Never throws: a body cut short ends the read; the caller tells a timeout by its signal. */
async function readCapped(response: Response, cap: number): Promise<string | null> {
	if (!response.body) return null;
	const reader = response.body.getReader();
	const chunks: Uint8Array[] = [];
	let size = 0;
	try {
		while (size < cap) {
			const { done, value } = await reader.read();
			if (done) break;
			chunks.push(value);
			size += value.byteLength;
		}
	} catch {
		// A body cut short by a reset still leaves the status; one cut short by the timer is a
		// timeout, which sendWebhook tells by its aborted signal.
	} finally {
		reader.cancel().catch(() => {});
	}
	const bytes = new Uint8Array(Math.min(size, cap));
	let offset = 0;
	for (const chunk of chunks) {
		const part = chunk.subarray(0, bytes.byteLength - offset);
		bytes.set(part, offset);
		offset += part.byteLength;
		if (offset >= bytes.byteLength) break;
	}
	return new TextDecoder().decode(bytes);
}

function describeError(error: unknown): string {
	const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
	return text || "Connection failed";
}
