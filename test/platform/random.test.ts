import { describe, expect, it } from "vitest";
import { hasIdShape, newId, randomBase62 } from "../../src/platform/lib/random";

describe("random ids", () => {
	it("are base62 of the asked length, and differ from one another", () => {
		const seen = new Set<string>();
		for (let i = 0; i < 2_000; i++) {
			const value = randomBase62(24);
			expect(value).toMatch(/^[0-9A-Za-z]{24}$/);
			seen.add(value);
		}
		expect(seen.size).toBe(2_000);
	});

	it("use every character about equally (the byte pool is drawn uniformly)", () => {
		const counts = new Map<string, number>();
		const text = Array.from({ length: 2_000 }, () => randomBase62(31)).join("");
		for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
		expect(counts.size).toBe(62);
		const expected = text.length / 62;
		let chi = 0;
		for (const n of counts.values()) chi += (n - expected) ** 2 / expected;
		// 61 degrees of freedom: above 120 happens by chance far less than once in a million runs.
		expect(chi).toBeLessThan(120);
	});

	it("hasIdShape accepts its own ids and nothing near them", () => {
		const id = newId("int");
		expect(hasIdShape(id, "int")).toBe(true);
		expect(hasIdShape(newId("evt"), "int")).toBe(false);
		expect(hasIdShape(`${id}A`, "int")).toBe(false);
		expect(hasIdShape(id.slice(0, -1), "int")).toBe(false);
		expect(hasIdShape(`${id.slice(0, -1)}-`, "int")).toBe(false);
		expect(hasIdShape(`${id.slice(0, -1)}é`, "int")).toBe(false);
		expect(hasIdShape(`int-${id.slice(4)}`, "int")).toBe(false);
		expect(hasIdShape(`xint_${id.slice(5)}`, "int")).toBe(false);
		expect(hasIdShape(newId("req", 24), "req")).toBe(true);
		expect(hasIdShape(`key_${randomBase62(10)}`, "key", 10)).toBe(true);
		expect(hasIdShape(`key_${randomBase62(10)}`, "key")).toBe(false);
	});
});
