/**
 * Sentences, lemmas and negation of an answer, through compromise (a maintained, pure-JavaScript
 * English NLP library that runs unchanged in Workers; its `two` build tags parts of speech and
 * gives each word's root form). Pure and deterministic: the same text always gives the same
 * analysis.
 */
import nlp from "compromise/two";

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

function tokensOf(terms: JsonTerm[]): Token[] {
	const out: Token[] = [];
	for (const t of terms) {
		const tags = t.tags ?? [];
		const normal = (t.normal ?? "")
			.toLowerCase()
			.replace(/[^a-z0-9#%.'+]/g, "")
			.replace(/\.$/, "");
		const negative = tags.includes("Negative") || NEGATIONS.has(normal);
		if (!normal && !negative) continue;
		const word = normal || "not";
		out.push({
			word,
			root: (t.root ?? word).toLowerCase(),
			negative,
			verb: tags.includes("Verb") && !tags.includes("Gerund"),
			noun: tags.includes("Noun") && !tags.includes("Pronoun"),
		});
	}
	return out;
}

/**
 * The text's sentences, each with its tokens. Tagging is most of the cost of judging an answer
 * (a few milliseconds for a paragraph), and one judgement reads the same answer and its question
 * several times: the latest texts are kept, a bounded few per isolate.
 */
export function analyse(text: string): Sentence[] {
	const cached = analysed.get(text);
	if (cached) {
		// Most recently used last: Map keeps insertion order.
		analysed.delete(text);
		analysed.set(text, cached);
		return cached;
	}
	const doc = nlp(text.replace(SEPARATORS, " "));
	doc.compute("root");
	const json = doc.json({ terms: { normal: true } }) as Array<{ text: string; terms: JsonTerm[] }>;
	const sentences = json
		.map((s) => ({ text: s.text.trim(), tokens: tokensOf(s.terms) }))
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
}

const phrases = new Map<string, PhraseWord[]>();
const MAX_CACHED_PHRASES = 5_000;

/** A rubric phrase as words with their roots (compiled once per isolate). */
export function phrase(text: string): PhraseWord[] {
	let words = phrases.get(text);
	if (!words) {
		if (phrases.size >= MAX_CACHED_PHRASES) phrases.clear();
		const stem = text.trim().endsWith("*");
		const tokens = analyse(text.replace(/\*$/, "")).flatMap((s) => s.tokens);
		words = tokens.map((t, i) => ({ word: t.word, root: t.root, stem: stem && i === tokens.length - 1 }));
		phrases.set(text, words);
	}
	return words;
}

function same(w: PhraseWord, t: Token): boolean {
	if (w.stem) return t.word.startsWith(w.word);
	return (
		t.word === w.word ||
		t.root === w.root ||
		t.root === w.word ||
		t.word === w.root ||
		t.word === `${w.word}s` ||
		t.word === `${w.word}es` ||
		`${t.word}s` === w.word
	);
}

/** Start of the first occurrence of the phrase among tokens[from, to), or -1. */
export function findPhrase(tokens: Token[], words: PhraseWord[], from = 0, to = tokens.length): number {
	if (words.length === 0) return -1;
	for (let i = from; i + words.length <= to; i++) {
		let ok = true;
		for (let j = 0; j < words.length && ok; j++) ok = same(words[j] as PhraseWord, tokens[i + j] as Token);
		if (ok) return i;
	}
	return -1;
}

/** First position of any of the phrases in tokens[from, to), with its length; null when none. */
export function findAny(
	tokens: Token[],
	alternatives: readonly string[],
	from = 0,
	to = tokens.length,
): { at: number; length: number } | null {
	let best: { at: number; length: number } | null = null;
	for (const alt of alternatives) {
		const words = phrase(alt);
		const at = findPhrase(tokens, words, from, to);
		if (at >= 0 && (best === null || at < best.at)) best = { at, length: words.length };
	}
	return best;
}
