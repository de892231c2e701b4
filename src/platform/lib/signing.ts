import { constantTimeEqual, hmacSha256Hex } from "./crypto";

/** Time-limited URLs: `expires` (Unix seconds) and an HMAC of the path and expiry. */
export async function signPath(secret: string, path: string, expires: number): Promise<string> {
	return hmacSha256Hex(secret, `${path}\n${expires}`);
}

export async function verifySignedPath(
	secret: string,
	path: string,
	expires: string | undefined,
	signature: string | undefined,
	nowMs: number,
): Promise<boolean> {
	if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return false;
	if (Number(expires) * 1000 < nowMs) return false;
	return constantTimeEqual(await signPath(secret, path, Number(expires)), signature);
}
