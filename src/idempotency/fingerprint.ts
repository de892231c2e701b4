import { sha256Hex } from "../platform/lib/crypto";

/** Like Stripe: up to 255 characters; printable ASCII without spaces, so keys survive every proxy. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;

/**
 * How long a first attempt holds its key. A retry after that may run again: the lease only
 * matters if the Worker running the first attempt died without answering.
 */
export const IDEMPOTENCY_LOCK_MS = 5 * 60_000;

/** JSON with object keys sorted at every level: the same parameters give the same text. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
	if (value !== null && typeof value === "object") {
		const entries = Object.keys(value)
			.sort()
			.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
		return `{${entries.join(",")}}`;
	}
	return JSON.stringify(value) ?? "null";
}

function canonicalBody(text: string): string {
	if (text.trim() === "") return "{}";
	try {
		return canonicalJson(JSON.parse(text));
	} catch {
		return text;
	}
}

export interface FingerprintInput {
	method: string;
	/** The request path; a trailing slash does not make it another request. */
	path: string;
	query: URLSearchParams;
	body: string;
}

/** What must match for a retry to be the same request: method, path, query and body. */
export function requestFingerprint(input: FingerprintInput): Promise<string> {
	const path = input.path.length > 1 ? input.path.replace(/\/+$/, "") : input.path;
	const query = [...input.query.entries()]
		.sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1))
		.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
		.join("&");
	return sha256Hex([input.method.toUpperCase(), path, query, canonicalBody(input.body)].join("\n"));
}
