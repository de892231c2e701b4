/** Text helpers for matching answers against concepts. Pure and deterministic. */

/** Longest answer text considered for scoring; the rest is ignored (bounds regex work). */
export const MAX_SCORED_CHARS = 20_000;

const ALNUM = /[a-z0-9]/i;

/** FNV-1a 32-bit hash: a stable seed from any string. */
export function hash32(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		h ^= text.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

export function collapseSpaces(text: string): string {
	return text.replace(/\s+/g, " ").trim();
}

/**
 * The words of a text (whitespace-separated, each with a letter or digit). Scoring asks up to
 * three times per answer, so the last text's list is kept; callers do not change it.
 */
export function wordList(text: string): readonly string[] {
	if (text !== lastWords.text) lastWords = { text, words: text.split(/\s+/).filter((w) => ALNUM.test(w)) };
	return lastWords.words;
}
let lastWords: { text: string; words: readonly string[] } = { text: "", words: [] };

export function sentences(text: string): string[] {
	return (
		text
			.split(/(?<=[.!?])\s+|\n+/)
			.map((s) => s.trim())
			// A sentence has a word: some letter or digit.
			.filter((s) => ALNUM.test(s))
	);
}

/** The text in lower case; the last one is kept (an answer is matched against many keywords). */
function lowered(text: string): string {
	if (text !== lastLowered.text) lastLowered = { text, lower: text.toLowerCase() };
	return lastLowered.lower;
}
let lastLowered = { text: "", lower: "" };

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const SUFFIXES = "s|es|ed|d|ing|ings|er|ers|ion|ions|ation|ations|ment|ments|ly|al|ity|ities";
const E_SUFFIXES = "e|es|ed|ing|ings|er|ers|ion|ions|ation|ations|ment|ments|ity|ities";

/**
 * A keyword as a case-insensitive pattern: spaces and hyphens are interchangeable or optional
 * ("trade-off" = "trade off" = "tradeoff"), common English suffixes are allowed ("index" matches
 * "indexes", "indexing"), a trailing `*` marks a stem ("responsib*"), and alphanumeric edges must
 * sit on a word boundary (so "ts" does not match inside "tests").
 */
export function keywordPattern(keyword: string): RegExp {
	return compiled(keyword).pattern;
}

interface CompiledKeyword {
	pattern: RegExp;
	/**
	 * Characters every match contains, in lower case: the start of the keyword's first word (at
	 * most three characters, which no suffix rule touches), when they are ASCII; else null. A
	 * case-insensitive match of ASCII characters is found in the lower-cased text, so a text
	 * without them cannot match and the pattern need not run.
	 */
	lead: string | null;
}

function compiled(keyword: string): CompiledKeyword {
	let entry = patterns.get(keyword);
	if (!entry) {
		// Neither global nor sticky, so a shared RegExp keeps no state between uses.
		if (patterns.size >= MAX_CACHED_PATTERNS) patterns.clear();
		const first =
			keyword
				.toLowerCase()
				.trim()
				.replace(/\*$/, "")
				.split(/[\s-]+/)[0] ?? "";
		const lead = first.slice(0, 3);
		entry = { pattern: buildKeywordPattern(keyword), lead: /^[\x21-\x7e]+$/.test(lead) ? lead : null };
		patterns.set(keyword, entry);
	}
	return entry;
}

/** Scoring matches the same keywords answer after answer: each is compiled once per isolate. */
const patterns = new Map<string, CompiledKeyword>();
const MAX_CACHED_PATTERNS = 5_000;

function buildKeywordPattern(keyword: string): RegExp {
	let kw = keyword.toLowerCase().trim();
	const stem = kw.endsWith("*");
	if (stem) kw = kw.slice(0, -1);
	const joined = kw
		.split(/[\s-]+/)
		.filter(Boolean)
		.map(escapeRegExp)
		.join("[\\s\\-_]*");
	const last = kw.at(-1) ?? "";
	let body = joined;
	if (!stem && /[a-z]/.test(last)) {
		if (kw.length < 4) body = `${joined}(?:s)?`;
		else if (last === "e") body = `${joined.slice(0, -1)}(?:${E_SUFFIXES})`;
		else if (last === "y") body = `${joined.slice(0, -1)}(?:y|ies|ied)`;
		else body = `${joined}(?:${SUFFIXES})?`;
	}
	const before = ALNUM.test(kw.at(0) ?? "") ? "(?<![a-z0-9])" : "";
	const after = !stem && ALNUM.test(last) ? "(?![a-z0-9])" : "";
	return new RegExp(`${before}${body}${after}`, "i");
}

export interface KeywordHit {
	keyword: string;
	index: number;
	length: number;
}

/** First occurrence of the keyword in the text, or null. */
export function findKeyword(text: string, keyword: string): KeywordHit | null {
	const { pattern, lead } = compiled(keyword);
	if (lead !== null && !lowered(text).includes(lead)) return null;
	const m = pattern.exec(text);
	return m ? { keyword, index: m.index, length: m[0].length } : null;
}

const SNIPPET_MAX = 160;

/** The sentence around a match, cut to a readable length, whitespace collapsed. */
export function snippetAround(text: string, index: number, length: number): string {
	const boundary = /[.!?\n]/;
	let start = index;
	while (start > 0 && !boundary.test(text[start - 1] ?? "")) start--;
	let end = index + length;
	while (end < text.length && !boundary.test(text[end] ?? "")) end++;
	if (end < text.length) end++;
	let sentence = collapseSpaces(text.slice(start, end));
	if (sentence.length <= SNIPPET_MAX) return sentence;
	const from = Math.max(start, index - 70);
	const to = Math.min(text.length, index + length + 70);
	sentence = collapseSpaces(text.slice(from, to));
	return `${from > start ? "…" : ""}${sentence}${to < end ? "…" : ""}`;
}

/** The opening of an answer, for citing it. */
export function excerpt(text: string, max = 80): string {
	const flat = collapseSpaces(text);
	if (flat.length <= max) return flat;
	const cut = flat.slice(0, max);
	const space = cut.lastIndexOf(" ");
	return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/** Distinct phrases of the list found in the text. */
export function countPhrases(text: string, phrases: readonly string[]): number {
	let n = 0;
	for (const phrase of phrases) if (findKeyword(text, phrase)) n++;
	return n;
}

export function round(value: number, decimals = 0): number {
	const f = 10 ** decimals;
	return Math.round(value * f) / f;
}

export function clamp(value: number, min: number, max: number): number {
	return Math.min(max, Math.max(min, value));
}

/** Lowercase, no spaces, dots, hyphens or underscores: "Node.js" -> "nodejs", "C#" -> "c#". */
export function compact(text: string): string {
	return text.toLowerCase().replace(/[\s._-]+/g, "");
}
