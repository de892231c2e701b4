import { constantTimeEqual, toHex } from "../platform/lib/crypto";

/**
 * PBKDF2-SHA256 through WebCrypto. OWASP asks for 600,000 iterations; workerd refuses PBKDF2
 * above 100,000 iterations ("iteration counts above 100000 are not supported"), so the dashboard
 * uses that maximum with a random 16-byte salt per user and no pepper (docs/dashboard.md). The
 * count is stored with each hash, so a runtime that allows more can raise it: a sign-in with an
 * older count re-hashes the password at the new one.
 */
export const PBKDF2_ITERATIONS = 100_000;

const encoder = new TextEncoder();

function fromHex(hex: string): Uint8Array {
	const out = new Uint8Array(hex.length / 2);
	for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
	return out;
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<string> {
	const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, ["deriveBits"]);
	const bits = await crypto.subtle.deriveBits(
		{ name: "PBKDF2", hash: "SHA-256", salt, iterations },
		key,
		256,
	);
	return toHex(bits);
}

/** `pbkdf2-sha256$<iterations>$<salt hex>$<hash hex>` */
export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
	const salt = crypto.getRandomValues(new Uint8Array(16));
	const hash = await derive(password, salt, iterations);
	return `pbkdf2-sha256$${iterations}$${toHex(salt.buffer as ArrayBuffer)}$${hash}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
	const [scheme, count, salt, hash] = stored.split("$");
	if (scheme !== "pbkdf2-sha256" || !count || !salt || !hash) return false;
	const iterations = Number(count);
	if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_ITERATIONS) return false;
	return constantTimeEqual(await derive(password, fromHex(salt), iterations), hash);
}

/** A stored hash made with fewer iterations than today's count. */
export function needsRehash(stored: string): boolean {
	return Number(stored.split("$")[1]) < PBKDF2_ITERATIONS;
}

/** Hashing a fixed password costs as much as a real check: unknown e-mails take as long. */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
	dummy ??= hashPassword("not a password of anyone");
	return dummy;
}

/** A one-time password for a new user: 20 base62 characters (about 119 bits). */
export { randomBase62 as randomSecret } from "../platform/lib/random";
