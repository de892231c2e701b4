import { describe, expect, it } from "vitest";
import { sha256Hex, toHex } from "../../src/platform/lib/crypto";

describe("sha256Hex", () => {
	it("gives the standard SHA-256 digests, as lower-case hex, of UTF-8 text", async () => {
		// FIPS 180-2 test vectors.
		expect(await sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
		expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
		// "é" is two bytes in UTF-8 (c3 a9).
		expect(await sha256Hex("é")).toBe("4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c");
		expect(toHex(new Uint8Array([0, 9, 10, 255]).buffer)).toBe("00090aff");
	});
});

describe("toHex", () => {
	it("writes every byte as two lower-case hex digits, in order", () => {
		const all = Uint8Array.from({ length: 256 }, (_, b) => b);
		const hex = toHex(all.buffer);
		expect(hex).toHaveLength(512);
		for (let b = 0; b < 256; b++) expect(hex.slice(2 * b, 2 * b + 2)).toBe(b.toString(16).padStart(2, "0"));
		expect(toHex(new ArrayBuffer(0))).toBe("");
	});
});
