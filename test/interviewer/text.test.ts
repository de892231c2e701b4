import { describe, expect, it } from "vitest";
import { BANKS } from "../../src/interviewer/bank";
import { findKeyword, keywordPattern, sentences, wordList } from "../../src/interviewer/text";

/** The match the keyword's pattern alone finds: what `findKeyword` must answer, fast path or not. */
function byPattern(text: string, keyword: string) {
	const m = keywordPattern(keyword).exec(text);
	return m ? { keyword, index: m.index, length: m[0].length } : null;
}

const KEYWORDS = [
	...new Set(BANKS.flatMap((b) => b.questions.flatMap((q) => q.concepts.flatMap((c) => c.keywords)))),
	"responsib*",
	"-flag",
	"café",
	"σύστημα",
	"c++",
	"e.g.",
	"ts",
];

/** Each keyword in forms its pattern accepts and forms it must not: cases, suffixes, joins, edges. */
function textsFor(keyword: string): string[] {
	const plain = keyword.replace(/\*$/, "");
	return [
		`We used ${plain} daily.`,
		`WE USED ${plain.toUpperCase()} DAILY.`,
		`We used ${plain.replace(/ /g, "-")}s and ${plain.replace(/[ -]/g, "")}ing.`,
		`Mostly ${plain.slice(0, -1)}ies, ${plain.slice(0, -1)}ing and ${plain.slice(0, 2)}.`,
		`x${plain}x ${plain.slice(1)} ${plain.toUpperCase().replace(/I/g, "İ")} ${plain.replace(/s/g, "ſ")}`,
		`Nothing relevant here at all.`,
	];
}

describe("keyword matching", () => {
	it("finds exactly what the keyword's pattern finds, for every bank keyword in many spellings", () => {
		let matched = 0;
		let checked = 0;
		for (const keyword of KEYWORDS) {
			for (const text of textsFor(keyword)) {
				const expected = byPattern(text, keyword);
				expect(findKeyword(text, keyword), `${keyword} in ${text}`).toEqual(expected);
				if (expected) matched++;
				checked++;
			}
		}
		// Both outcomes are exercised, many times over.
		expect(matched).toBeGreaterThan(KEYWORDS.length);
		expect(checked - matched).toBeGreaterThan(KEYWORDS.length);
	});

	it("keeps a word's suffixed forms within reach of the fast path", () => {
		expect(findKeyword("We were coding all day", "code")?.length).toBe(6);
		expect(findKeyword("Both QUERIES were slow", "query")?.length).toBe(7);
		expect(findKeyword("Some Tradeoffs exist", "trade-off")?.length).toBe(9);
		expect(findKeyword("Responsibility matters", "responsib*")?.length).toBe(9);
		expect(findKeyword("tests pass", "ts")).toBeNull();
	});

	it("counts words and sentences: only text with a letter or digit counts", () => {
		expect(wordList("  one, two -- 3 ...  ")).toEqual(["one,", "two", "3"]);
		expect(wordList("")).toEqual([]);
		expect(sentences("First one. -- ... Second one!\n\n?? Third")).toEqual([
			"First one.",
			"Second one!",
			"Third",
		]);
	});
});
