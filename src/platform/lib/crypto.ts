const encoder = new TextEncoder();

/** "00" to "ff", by byte. */
const HEX_BYTES = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** Lower-case hex of the bytes (every authenticated request hashes its key or session with it). */
export function toHex(buffer: ArrayBuffer): string {
	const bytes = new Uint8Array(buffer);
	let hex = "";
	for (const byte of bytes) hex += HEX_BYTES[byte];
	return hex;
}

export async function sha256Hex(text: string): Promise<string> {
	return toHex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

export async function hmacSha256Hex(secret: string, message: string): Promise<string> {
	const key = await crypto.subtle.importKey(
		"raw",
		encoder.encode(secret),
		{ name: "HMAC", hash: "SHA-256" },
		false,
		["sign"],
	);
	return toHex(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

/** HMAC-SHA256 of `message` keyed with the UTF-8 bytes of `secret`, in standard base64. */
export async function hmacSha256Base64(secret: string, message: string): Promise<string> {
	const key = await crypto.subtle.importKey(
		"raw",
		encoder.encode(secret),
		{ name: "HMAC", hash: "SHA-256" },
		false,
		["sign"],
	);
	const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
	return btoa(String.fromCharCode(...mac));
}

/** Compares two strings in time that depends only on their lengths. */
export function constantTimeEqual(a: string, b: string): boolean {
	const left = encoder.encode(a);
	const right = encoder.encode(b);
	if (left.byteLength !== right.byteLength) {
		// Still spend comparable time so a length mismatch is not an early exit.
		crypto.subtle.timingSafeEqual(left, left);
		return false;
	}
	return crypto.subtle.timingSafeEqual(left, right);
}
