/**
 * Opaque list cursors: base64url of the last row's sort key and the list it belongs to, so a
 * cursor passed to another list (whose key means something else) is refused, not misread.
 * Callers must not parse them.
 */
export type CursorList =
	| "interviews"
	| "events"
	| "webhooks"
	| "deliveries"
	| "accounts"
	| "api-keys"
	| "users";

export interface Cursor {
	createdAt: number;
	id: string;
}

function toBase64Url(text: string): string {
	return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(value: string): string {
	const padded = value.replace(/-/g, "+").replace(/_/g, "/");
	return atob(padded + "=".repeat((4 - (padded.length % 4)) % 4));
}

export function encodeCursor(list: CursorList, cursor: Cursor): string {
	return toBase64Url(JSON.stringify({ v: 1, l: list, t: cursor.createdAt, i: cursor.id }));
}

/** The cursor, or null when it is malformed or another list's (one without a list is accepted). */
export function decodeCursor(list: CursorList, value: string): Cursor | null {
	if (!/^[A-Za-z0-9_-]{1,512}$/.test(value)) return null;
	try {
		const parsed: unknown = JSON.parse(fromBase64Url(value));
		if (
			typeof parsed === "object" &&
			parsed !== null &&
			"v" in parsed &&
			parsed.v === 1 &&
			"t" in parsed &&
			Number.isSafeInteger(parsed.t) &&
			"i" in parsed &&
			typeof parsed.i === "string" &&
			parsed.i.length <= 64 &&
			(!("l" in parsed) || parsed.l === list)
		) {
			return { createdAt: parsed.t as number, id: parsed.i };
		}
		return null;
	} catch {
		return null;
	}
}
