const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniform random base62 string (rejection sampling, so no character is favoured). */
export function randomBase62(length: number): string {
	let out = "";
	while (out.length < length) {
		const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
		for (const byte of bytes) {
			if (byte < 248) out += BASE62[byte % 62];
			if (out.length === length) break;
		}
	}
	return out;
}

export type IdPrefix = "int" | "acc" | "key" | "wh" | "evt" | "dlv" | "req" | "msg";

export function newId(prefix: IdPrefix, length = 24): string {
	return `${prefix}_${randomBase62(length)}`;
}

export function hasIdShape(value: string, prefix: IdPrefix, length = 24): boolean {
	return new RegExp(`^${prefix}_[0-9A-Za-z]{${length}}$`).test(value);
}
