const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * Random bytes are drawn from the runtime's CSPRNG a block at a time and each is used once: a
 * `getRandomValues` call and its buffer per id cost more than the id itself.
 */
const POOL_BYTES = 1024;
let pool = new Uint8Array(0);
let poolAt = 0;

function randomByte(): number {
	if (poolAt === pool.length) {
		pool = crypto.getRandomValues(new Uint8Array(POOL_BYTES));
		poolAt = 0;
	}
	return pool[poolAt++] as number;
}

/** Uniform random base62 string (rejection sampling, so no character is favoured). */
export function randomBase62(length: number): string {
	let out = "";
	while (out.length < length) {
		const byte = randomByte();
		if (byte < 248) out += BASE62[byte % 62];
	}
	return out;
}

export type IdPrefix = "int" | "acc" | "key" | "wh" | "evt" | "dlv" | "req" | "msg" | "usr";

export function newId(prefix: IdPrefix, length = 24): string {
	return `${prefix}_${randomBase62(length)}`;
}

const BASE62_ONLY = /^[0-9A-Za-z]*$/;

export function hasIdShape(value: string, prefix: IdPrefix, length = 24): boolean {
	return (
		value.length === prefix.length + 1 + length &&
		value.startsWith(`${prefix}_`) &&
		BASE62_ONLY.test(value.slice(prefix.length + 1))
	);
}
