/**
 * Sentences, lemmas and negation of an answer. Word knowledge (root form, part of speech,
 * negation) comes from compromise (a maintained, pure-JavaScript English NLP library that runs
 * unchanged in Workers; its `two` build tags parts of speech and gives each word's root form),
 * asked once per distinct word and kept per isolate: an answer is split into sentences and words
 * here, and each word is looked up, so a new answer made of known words costs no tagging at all.
 * Pure and deterministic: the same text always gives the same analysis, whatever the caches hold.
 */
import nlp from "compromise/two";
import { SYNONYMS } from "./claim-words";

{
	const world = (nlp as unknown as { world(): { hooks: string[] } }).world();
	world.hooks = world.hooks.filter((h) => h !== "postTagger");
}

export interface Token {
	/** The word in lower case, as written ("committed"). */
	word: string;
	/** Its root form when the library knows one ("commit"), else the word. */
	root: string;
	negative: boolean;
	verb: boolean;
	noun: boolean;
	/** A comma stands right before the word. */
	afterComma?: boolean;
}

export interface Sentence {
	text: string;
	tokens: Token[];
}

interface JsonTerm {
	normal?: string;
	root?: string;
	tags?: string[];
}

/** Characters that only separate words for matching ("setTimeout(0)" -> "setTimeout 0"). */
const SEPARATORS = /[()[\]{}<>=+*/\\|"`~^_]+|(?<=[a-z0-9])-(?=[a-z0-9])/gi;

const NEGATIONS = new Set([
	"not",
	"no",
	"never",
	"none",
	"neither",
	"nor",
	"without",
	"cannot",
	"n't",
	"nothing",
]);

/** Contracted negations whose stem is not the verb's spelling ("won't" -> "will"). */
const CONTRACTED: Record<string, string> = { ca: "can", wo: "will", sha: "shall", ai: "is" };

/** What the library says of one word, out of context. */
interface WordInfo {
	root: string;
	verb: boolean;
	noun: boolean;
	negative: boolean;
}

const words = new Map<string, WordInfo>();
const MAX_WORDS = 50_000;

function infoOf(word: string): WordInfo {
	let info = words.get(word);
	if (info) return info;
	if (/^[0-9.,%#+]+$/.test(word)) info = { root: word, verb: false, noun: false, negative: false };
	else {
		const doc = nlp(word);
		doc.compute("root");
		const terms = (doc.json({ terms: { normal: true } }) as Array<{ terms: JsonTerm[] }>)[0]?.terms ?? [];
		const t = terms[0] ?? {};
		const tags = t.tags ?? [];
		info = {
			root: (t.root ?? word).toLowerCase(),
			verb: tags.includes("Verb") && !tags.includes("Gerund"),
			noun: tags.includes("Noun") && !tags.includes("Pronoun"),
			negative: tags.includes("Negative") || NEGATIONS.has(word),
		};
	}
	if (words.size >= MAX_WORDS) words.clear();
	words.set(word, info);
	return info;
}

/** Words as the matcher reads them: letters and digits, with #, %, +, ' and inner dots ("node.js"). */
const WORD = /[a-z0-9][a-z0-9#%.'+]*/g;

function tokensOfText(text: string): Token[] {
	const out: Token[] = [];
	// Typographic apostrophes ("don’t", as phones and word processors write it) read as plain ones.
	const lowered = text.toLowerCase().replace(/[\u2018\u2019\u02bc]/g, "'");
	for (const m of lowered.matchAll(WORD)) {
		let word = m[0].replace(/[.']+$/, "");
		if (word.endsWith("'s")) word = word.slice(0, -2);
		if (!word) continue;
		if (word.endsWith("n't")) {
			const stem = word.slice(0, -3);
			const verb = CONTRACTED[stem] ?? stem;
			if (verb) {
				const info = infoOf(verb);
				out.push({ word: verb, root: info.root, negative: false, verb: true, noun: false });
			}
			out.push({ word: "not", root: "not", negative: true, verb: false, noun: false });
			continue;
		}
		const info = infoOf(word);
		const token: Token = { word, root: info.root, negative: info.negative, verb: info.verb, noun: info.noun };
		if (/,\s*$/.test(lowered.slice(Math.max(0, (m.index ?? 0) - 3), m.index))) token.afterComma = true;
		out.push(token);
	}
	// "rather than X" and "instead of X" deny X as "not X" does.
	for (let i = 0; i + 1 < out.length; i++) {
		const t = out[i] as Token;
		const next = out[i + 1]?.word;
		if ((t.word === "rather" && next === "than") || (t.word === "instead" && next === "of"))
			t.negative = true;
	}
	return out;
}

/** Abbreviations whose dot does not end a sentence. */
const ABBREVIATIONS = /(?:^|\s)(?:e\.g|i\.e|etc|vs|cf|approx|mr|mrs|ms|dr)\.$/i;

function splitSentences(text: string): string[] {
	const out: string[] = [];
	let start = 0;
	const boundary = /[.!?;]+(?=\s|$)|\n+/g;
	for (const m of text.matchAll(boundary)) {
		const end = (m.index ?? 0) + m[0].length;
		if (m[0][0] === "." && ABBREVIATIONS.test(text.slice(Math.max(start, end - 8), end))) continue;
		out.push(text.slice(start, end));
		start = end;
	}
	if (start < text.length) out.push(text.slice(start));
	return out;
}

/**
 * The text's sentences, each with its tokens. One judgement reads the same answer and its
 * question several times: the latest texts are kept, a bounded few per isolate.
 */
export function analyse(text: string): Sentence[] {
	const cached = analysed.get(text);
	if (cached) return cached;
	const sentences = splitSentences(text)
		.map((s) => ({ text: s.trim(), tokens: tokensOfText(s.replace(SEPARATORS, " ")) }))
		.filter((s) => s.tokens.length > 0);
	if (analysed.size >= MAX_ANALYSED) analysed.delete(analysed.keys().next().value as string);
	analysed.set(text, sentences);
	return sentences;
}
const analysed = new Map<string, Sentence[]>();
const MAX_ANALYSED = 64;

/** One word of a phrase to find: as written, its root, and whether it is a stem (`responsib*`). */
export interface PhraseWord {
	word: string;
	root: string;
	stem: boolean;
	/** The forms a token may have to match it (see keysOf). */
	keys: string[];
}

const phrases = new Map<string, PhraseWord[]>();
const MAX_CACHED_PHRASES = 5_000;

/**
 * A rubric phrase as words with their roots (compiled once per isolate); with `synonyms`, each
 * word also matches its synonyms (claim-words.ts SYNONYMS). Misconception patterns are matched
 * without them: a wrong claim is named precisely, and a synonym there finds it where it is not.
 */
export function phrase(text: string, synonyms = true): PhraseWord[] {
	const key = synonyms ? text : `\u0000${text}`;
	let out = phrases.get(key);
	if (!out) {
		if (phrases.size >= MAX_CACHED_PHRASES) phrases.clear();
		const stem = text.trim().endsWith("*");
		const tokens = tokensOfText(text.replace(/\*$/, "").replace(SEPARATORS, " "));
		out = tokens.map((t, i) => {
			const keys = new Set([t.word, t.root]);
			if (t.word.endsWith("s") && t.word.length > 3) keys.add(t.word.slice(0, -1));
			if (synonyms) for (const k of [...keys]) for (const synonym of synonymsOf(k)) keys.add(synonym);
			return { word: t.word, root: t.root, stem: stem && i === tokens.length - 1, keys: [...keys] };
		});
		phrases.set(key, out);
	}
	return out;
}

let synonymIndex: Map<string, string[]> | null = null;

/** Words and roots that mean the same as a rubric word (claim-words.ts SYNONYMS), built once. */
function synonymsOf(key: string): readonly string[] {
	if (!synonymIndex) {
		synonymIndex = new Map();
		for (const group of SYNONYMS) {
			const single = group.filter((w) => !w.includes(" "));
			const forms = [...new Set(single.flatMap((w) => [w, infoOf(w).root]))];
			for (const f of forms) synonymIndex.set(f, [...(synonymIndex.get(f) ?? []), ...forms]);
		}
	}
	return synonymIndex.get(key) ?? [];
}

/** The forms under which a token is indexed: as written, its root, without a plural ending. */
function keysOf(t: Token): string[] {
	const keys = [t.word];
	if (t.root !== t.word) keys.push(t.root);
	if (t.word.endsWith("es")) keys.push(t.word.slice(0, -2));
	if (t.word.endsWith("s")) keys.push(t.word.slice(0, -1));
	return keys;
}

/** Positions of each form in a sentence's tokens, built once per token list. */
const indexes = new WeakMap<Token[], Map<string, number[]>>();

function indexOf(tokens: Token[]): Map<string, number[]> {
	let index = indexes.get(tokens);
	if (!index) {
		index = new Map();
		for (const [i, t] of tokens.entries())
			for (const k of keysOf(t)) {
				const list = index.get(k);
				if (!list) index.set(k, [i]);
				else if (list.at(-1) !== i) list.push(i);
			}
		indexes.set(tokens, index);
	}
	return index;
}

function same(w: PhraseWord, t: Token): boolean {
	if (w.stem) return t.word.startsWith(w.word);
	for (const k of keysOf(t)) if (w.keys.includes(k)) return true;
	return false;
}

function restMatches(tokens: Token[], words: PhraseWord[], i: number): boolean {
	for (let j = 1; j < words.length; j++)
		if (!same(words[j] as PhraseWord, tokens[i + j] as Token)) return false;
	return true;
}

/** Start of the first occurrence of the phrase among tokens[from, to), or -1. */
export function findPhrase(tokens: Token[], words: PhraseWord[], from = 0, to = tokens.length): number {
	const first = words[0];
	if (!first) return -1;
	const last = to - words.length;
	if (last < from) return -1;
	if (first.stem) {
		for (let i = from; i <= last; i++)
			if (same(first, tokens[i] as Token) && restMatches(tokens, words, i)) return i;
		return -1;
	}
	const index = indexOf(tokens);
	let best = -1;
	for (const k of first.keys) {
		const at = index.get(k);
		if (!at) continue;
		for (const i of at) {
			if (i > last || (best >= 0 && i >= best)) break;
			if (i >= from && restMatches(tokens, words, i)) {
				best = i;
				break;
			}
		}
	}
	return best;
}

/** First position of any of the phrases in tokens[from, to), with its length; null when none. */
export function findAny(
	tokens: Token[],
	alternatives: readonly string[],
	from = 0,
	to = tokens.length,
	synonyms = true,
): { at: number; length: number } | null {
	let best: { at: number; length: number } | null = null;
	for (const alt of alternatives) {
		const words = phrase(alt, synonyms);
		const at = findPhrase(tokens, words, from, to);
		if (at >= 0 && (best === null || at < best.at)) best = { at, length: words.length };
	}
	return best;
}
