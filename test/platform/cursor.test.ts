import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "../../src/platform/lib/cursor";

describe("list cursors", () => {
	it("round-trips the sort key through an opaque URL-safe string", () => {
		const cursor = { createdAt: 1_790_000_000_123, id: "int_abcDEF0123456789abcdefGH" };
		const encoded = encodeCursor("interviews", cursor);
		expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
		expect(encoded).not.toContain(cursor.id);
		expect(decodeCursor("interviews", encoded)).toEqual(cursor);
	});

	it("rejects tampered, foreign and malformed cursors", () => {
		const valid = encodeCursor("interviews", { createdAt: 1, id: "int_x" });
		const foreign = btoa(JSON.stringify({ v: 2, t: 1, i: "x" })).replace(/=+$/, "");
		for (const value of ["", "!!!", "abc", foreign, `${valid}$`, btoa("not json"), "a".repeat(600)]) {
			expect(decodeCursor("interviews", value)).toBeNull();
		}
	});

	it("refuses another list's cursor, whose key means something else", () => {
		const events = encodeCursor("events", { createdAt: 42, id: "evt_x" });
		expect(decodeCursor("events", events)).toEqual({ createdAt: 42, id: "evt_x" });
		for (const list of ["interviews", "webhooks", "accounts"] as const) {
			expect(decodeCursor(list, events)).toBeNull();
		}
		// One issued before cursors named their list is still read.
		const older = btoa(JSON.stringify({ v: 1, t: 7, i: "int_y" })).replace(/=+$/, "");
		expect(decodeCursor("interviews", older)).toEqual({ createdAt: 7, id: "int_y" });
	});
});
