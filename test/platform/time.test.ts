import { describe, expect, it } from "vitest";
import { iso } from "../../src/platform/lib/time";

const native = (ms: number) => new Date(ms).toISOString();

describe("iso", () => {
	it("writes what toISOString writes at the edges of days, years and the four-digit range", () => {
		const edges = [
			0,
			1,
			999,
			1_000,
			59_999,
			3_599_999,
			86_399_999,
			86_400_000,
			Date.UTC(2000, 1, 29, 12, 30, 45, 7),
			Date.UTC(2026, 11, 31, 23, 59, 59, 999),
			Date.UTC(2027, 0, 1),
			Date.UTC(2100, 1, 28, 23, 59, 59, 990),
			Date.UTC(2100, 2, 1),
			253_402_300_799_999,
		];
		for (const ms of edges) expect(iso(ms), String(ms)).toBe(native(ms));
	});

	it("writes what toISOString writes for many values, each day met again from its cache", () => {
		let seed = 12_345;
		const next = () => {
			seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
			return seed / 2_147_483_648;
		};
		const base = Date.UTC(2026, 10, 27);
		for (let i = 0; i < 20_000; i++) {
			// Mostly within a few weeks (as a page's times are), some anywhere in 1970–9999.
			const ms =
				i % 4 === 0
					? Math.floor(next() * 253_402_300_800_000)
					: base + Math.floor((next() - 0.5) * 40 * 86_400_000);
			expect(iso(ms)).toBe(native(ms));
		}
	});

	it("passes what it does not format itself to toISOString, errors included", () => {
		for (const ms of [-1, -86_400_001, 253_402_300_800_000, 8.64e15, 1.5, 1_700_000_000_000.25]) {
			expect(iso(ms), String(ms)).toBe(native(ms));
		}
		expect(() => iso(Number.NaN)).toThrow(RangeError);
		expect(() => iso(8.64e15 + 1)).toThrow(RangeError);
	});
});
