import { constantTimeEqual, toHex } from "../platform/lib/crypto";

/**
 * PBKDF2-SHA256 through WebCrypto at OWASP's current count, 600,000 iterations, with a random
 * 16-byte salt per password and no pepper (docs/dashboard.md). Some workerd builds refuse PBKDF2
 * above 100,000 iterations ("iteration counts above 100000 are not supported"); where the runtime
 * refuses the full count, the hash is made at that maximum instead. The count is stored with each
 * hash, so verification always uses the hash's own count, and a sign-in re-hashes a password
 * stored at fewer iterations than the runtime allows.
 */
export const PBKDF2_ITERATIONS = 600_000;
export const PBKDF2_FALLBACK_ITERATIONS = 100_000;

/** The count this runtime accepts, learnt from the first hash. */
let supported: number | undefined;

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
export async function hashPassword(password: string): Promise<string> {
	const salt = crypto.getRandomValues(new Uint8Array(16));
	let iterations = supported ?? PBKDF2_ITERATIONS;
	let hash: string;
	try {
		hash = await derive(password, salt, iterations);
	} catch (error) {
		if (iterations === PBKDF2_FALLBACK_ITERATIONS) throw error;
		iterations = PBKDF2_FALLBACK_ITERATIONS;
		hash = await derive(password, salt, iterations);
	}
	supported = iterations;
	return `pbkdf2-sha256$${iterations}$${toHex(salt.buffer as ArrayBuffer)}$${hash}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
	const [scheme, count, salt, hash] = stored.split("$");
	if (scheme !== "pbkdf2-sha256" || !count || !salt || !hash) return false;
	const iterations = Number(count);
	if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_ITERATIONS) return false;
	return constantTimeEqual(await derive(password, fromHex(salt), iterations), hash);
}

/** A stored hash made with fewer iterations than the runtime now allows. */
export function needsRehash(stored: string): boolean {
	return Number(stored.split("$")[1]) < (supported ?? PBKDF2_ITERATIONS);
}

/** Hashing a fixed password costs as much as a real check: unknown e-mails take as long. */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
	dummy ??= hashPassword("not a password of anyone");
	return dummy;
}

/** A one-time password for a new user: 20 base62 characters (about 119 bits). */
export { randomBase62 as randomSecret } from "../platform/lib/random";
