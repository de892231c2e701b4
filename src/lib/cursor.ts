/** Opaque list cursors: base64url of the last row's sort key. Callers must not parse them. */
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

export function encodeCursor(cursor: Cursor): string {
	return toBase64Url(JSON.stringify({ v: 1, t: cursor.createdAt, i: cursor.id }));
}

export function decodeCursor(value: string): Cursor | null {
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
			parsed.i.length <= 64
		) {
			return { createdAt: parsed.t as number, id: parsed.i };
		}
		return null;
	} catch {
		return null;
	}
}
