import { describe, expect, it } from "vitest";
import { cutText } from "../../src/platform/lib/text";

describe("cutText", () => {
	it("cuts to at most the limit in code units, never through a surrogate pair", () => {
		expect(cutText("abc", 5)).toBe("abc");
		expect(cutText("abcdef", 3)).toBe("abc");
		// The emoji is two code units: a cut between them ends before it.
		const text = `${"a".repeat(999)}😀 more`;
		const cut = cutText(text, 1000);
		expect(cut).toBe("a".repeat(999));
		expect(cut.isWellFormed()).toBe(true);
		expect(cutText(text, 1001)).toBe(`${"a".repeat(999)}😀`);
		expect(cutText("😀😀", 1)).toBe("");
		expect(cutText("é工😀x", 4)).toBe("é工😀");
		expect(cutText("abc", 0)).toBe("");
	});
});
