import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "../../src/lib/cursor";

describe("list cursors", () => {
	it("round-trips the sort key through an opaque URL-safe string", () => {
		const cursor = { createdAt: 1_790_000_000_123, id: "int_abcDEF0123456789abcdefGH" };
		const encoded = encodeCursor(cursor);
		expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
		expect(encoded).not.toContain(cursor.id);
		expect(decodeCursor(encoded)).toEqual(cursor);
	});

	it("rejects tampered, foreign and malformed cursors", () => {
		const valid = encodeCursor({ createdAt: 1, id: "int_x" });
		const foreign = btoa(JSON.stringify({ v: 2, t: 1, i: "x" })).replace(/=+$/, "");
		for (const value of ["", "!!!", "abc", foreign, `${valid}$`, btoa("not json"), "a".repeat(600)]) {
			expect(decodeCursor(value)).toBeNull();
		}
	});
});
