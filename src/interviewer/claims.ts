/**
 * What an answer claims, judged against the rubric of its question: which concepts it shows,
 * which causes and effects it links, which misconceptions it states, whether it contradicts
 * itself and whether it is a bare list of terms. Pure and deterministic (docs/interviewer.md).
 */
import { ABSOLUTES, ANTONYMS, CAUSAL, CONTRAST, IGNORANCE_PHRASES, REPORTED } from "./claim-words";
import { analyse, findAny, type Sentence, type Token } from "./language";
import { STORY_EXPLAINS, storyShape, storyShows } from "./story";
import { collapseSpaces, countPhrases, findKeyword, type KeywordHit, snippetAround, wordList } from "./text";
import type { ConceptMatch, ExpectedLink, FoundMisconception, Misconception, PlannedQuestion } from "./types";

interface Clause {
	sentence: number;
	from: number;
	to: number;
}

/**
 * A participial phrase set off by a comma ("..., usually replacing the database with fakes") says
 * something of its own: its words are not claims of the clause before it.
 */
/** ", and" or ", or" joining two clauses ("... runs before any pending timer, and an endless chain ..."). */
function coordinated(tokens: Token[], j: number): boolean {
	const t = tokens[j] as Token;
	return t.afterComma === true && (t.word === "and" || t.word === "or");
}

function participial(tokens: Token[], j: number): boolean {
	const t = tokens[j] as Token;
	if (!t.afterComma) return false;
	const gerund = (x: Token | undefined) =>
		x !== undefined && !x.verb && x.word.length > 5 && x.word.endsWith("ing");
	return gerund(t) || (t.word.endsWith("ly") && gerund(tokens[j + 1]));
}

/**
 * The clauses of each sentence: split at a contrast ("but", "whereas" ...), and with `fine` also at
 * ", and" / ", or" between clauses; with `participles` also before a participial phrase.
 */
function clausesOf(sentences: Sentence[], fine = false, participles = false): Clause[] {
	const out: Clause[] = [];
	sentences.forEach((s, i) => {
		let from = 0;
		s.tokens.forEach((t, j) => {
			const split =
				CONTRAST.has(t.word) ||
				(fine && coordinated(s.tokens, j)) ||
				(participles && participial(s.tokens, j));
			if (split && j > from) {
				out.push({ sentence: i, from, to: j });
				from = j;
			}
		});
		out.push({ sentence: i, from, to: s.tokens.length });
	});
	return out;
}

const groupCache = new Map<string, string[][]>();

function groupsOf(pattern: string): string[][] {
	let groups = groupCache.get(pattern);
	if (!groups) {
		if (groupCache.size >= 5_000) groupCache.clear();
		groups = parseGroups(pattern);
		groupCache.set(pattern, groups);
	}
	return groups;
}

function parseGroups(pattern: string): string[][] {
	return pattern
		.split("&")
		.map((g) =>
			g
				.split("|")
				.map((a) => a.trim())
				.filter(Boolean),
		)
		.filter((g) => g.length > 0);
}

/** Where every group of the pattern occurs in the clause: the span, or null. */
function spanOf(
	tokens: Token[],
	clause: Clause,
	pattern: string,
	synonyms = true,
	ordered = false,
): { from: number; to: number } | null {
	let from = Number.POSITIVE_INFINITY;
	let to = -1;
	for (const group of groupsOf(pattern)) {
		const hit = findAny(
			tokens,
			group,
			ordered ? Math.max(clause.from, to) : clause.from,
			clause.to,
			synonyms,
		);
		if (!hit) return null;
		from = Math.min(from, hit.at);
		to = Math.max(to, hit.at + hit.length);
	}
	return to < 0 ? null : { from, to };
}

function negated(tokens: Token[], clause: Clause, span: { from: number; to: number }): boolean {
	for (let i = clause.from; i < span.to; i++) if (tokens[i]?.negative) return true;
	return false;
}

/** Most words a directional effect's groups may spread over ("before the next setTimeout"). */
const DIRECTION_SPAN = 6;

/** How far before a directional effect a negation still denies it ("do not make writes faster"). */
const NEGATION_REACH = 4;

/** A negation right before or inside the span (a directional effect's own denial, not the clause's). */
function negatedNear(tokens: Token[], clause: Clause, span: { from: number; to: number }): boolean {
	for (let i = Math.max(clause.from, span.from - NEGATION_REACH); i < span.to; i++)
		if (tokens[i]?.negative) return true;
	return false;
}

/**
 * A negation just before an effect ("can't cause leaks", "is never needed"); one inside the
 * matched words belongs to the rubric's own phrase ("rather than keys", "no long-lived keys").
 */
function deniedBefore(tokens: Token[], clause: Clause, span: { from: number; to: number }): boolean {
	for (let i = Math.max(clause.from, span.from - NEGATION_REACH); i < span.from; i++)
		if (tokens[i]?.negative) return true;
	return false;
}

/** Verbs after which "like" introduces a likeness ("behaves like the transactions ran one at a time"). */
const LIKENESS_VERBS = new Set(["behave", "act", "look", "seem", "appear", "feel", "pretend"]);

/**
 * The claim follows "as if" or "as though" in its clause, or "like" after a verb of seeming: a
 * likeness, not a statement of fact ("behaves as if transactions ran one at a time", "behaves
 * like they ran one at a time" say they do not).
 */
function hypothetical(tokens: Token[], clause: Clause, span: { from: number; to: number }): boolean {
	for (let i = clause.from; i + 1 < span.to; i++) {
		const next = tokens[i + 1]?.word;
		if (tokens[i]?.word === "as" && (next === "if" || next === "though")) return true;
		const before = tokens[i - 1];
		if (tokens[i]?.word === "like" && i > clause.from && before && LIKENESS_VERBS.has(before.root))
			return true;
	}
	return false;
}

function reported(sentence: Sentence): boolean {
	return countPhrases(sentence.text, REPORTED) > 0;
}

export interface MisconceptionFinding extends FoundMisconception {
	/** The answer also denies it somewhere: it contradicts itself. */
	contradicted: boolean;
}

/** Misconceptions the answer asserts (not negated, not reported as a mistake), with their sentence. */
export function findMisconceptions(
	text: string,
	misconceptions: readonly Misconception[],
): MisconceptionFinding[] {
	if (misconceptions.length === 0) return [];
	const sentences = analyse(text);
	const clauses = clausesOf(sentences, true, true);
	const out: MisconceptionFinding[] = [];
	for (const m of misconceptions) {
		let asserted: string | null = null;
		let denied = false;
		for (const clause of clauses) {
			const sentence = sentences[clause.sentence] as Sentence;
			for (const raw of m.patterns) {
				// A leading `~` marks a claim that is itself a denial ("S3 cannot serve files").
				const denial = raw.startsWith("~");
				const body = denial ? raw.slice(1) : raw;
				// A leading `>`: the groups in the order written, the subject before what is said of
				// it ("secondaries take writes", not "the primary takes writes ... to secondaries").
				const ordered = body.startsWith(">");
				const span = spanOf(sentence.tokens, clause, ordered ? body.slice(1) : body, false, ordered);
				if (!span) continue;
				if (hypothetical(sentence.tokens, clause, span)) continue;
				const isNegated =
					negated(sentence.tokens, clause, span) || sentence.tokens[span.from - 1]?.word === "without";
				if (isNegated !== denial || reported(sentence)) denied = true;
				else asserted ??= collapseSpaces(sentence.text).slice(0, 200);
			}
		}
		if (asserted !== null) out.push({ claim: m.claim, quote: asserted, contradicted: denied });
	}
	return out;
}

export interface LinkFinding {
	concept: string;
	snippet: string;
}

/** Verbs whose purpose follows as "to" and a verb: "you use a generator to stream a huge file". */
const PURPOSE_VERBS = new Set(["use"]);
/** Words between the verb and its "to" at most: "use a TLA+ model of the protocol to". */
const PURPOSE_REACH = 8;

/** A purpose before the "to" at `at`: "in order to", "so as to", or a purpose verb within reach. */
function purposeBefore(tokens: Token[], from: number, at: number): boolean {
	const before = tokens[at - 1]?.word;
	if (before === "order" || (before === "as" && tokens[at - 2]?.word === "so")) return true;
	for (let j = Math.max(from, at - PURPOSE_REACH); j < at; j++)
		if (PURPOSE_VERBS.has(tokens[j]?.root ?? "")) return true;
	return false;
}

/**
 * A causal word in the span (claim-words.ts CAUSAL), a purpose ("to" and a verb after "use ...",
 * "in order", "so as"), or "by" with what it names after it in its clause ("by caching",
 * "triggered by a state change"): stranded at a clause's end ("the generator my uncle swore by,
 * ...") it names nothing.
 */
function hasCausal(tokens: Token[], from = 0, to = tokens.length): boolean {
	if (findAny(tokens, CAUSAL, from, to) !== null) return true;
	for (let i = from; i + 1 < to; i++) {
		const word = tokens[i]?.word;
		const next = tokens[i + 1] as Token;
		if (word === "by" && !next.afterComma) return true;
		if (word === "to" && next.verb && purposeBefore(tokens, from, i)) return true;
	}
	return false;
}

let opposites: Map<string, readonly string[]> | null = null;

/** The other side of a polar word or phrase (claim-words.ts ANTONYMS), or null. */
function oppositeOf(alternative: string): readonly string[] | null {
	if (!opposites) {
		opposites = new Map();
		for (const [a, b] of ANTONYMS) {
			for (const w of a) opposites.set(w, [...(opposites.get(w) ?? []), ...b]);
			for (const w of b) opposites.set(w, [...(opposites.get(w) ?? []), ...a]);
		}
	}
	return opposites.get(alternative.toLowerCase()) ?? null;
}

interface EffectPattern {
	/** The pattern as matched (markers removed). */
	pattern: string;
	/** Its direction group's alternatives (the group marked `^`), or null when the effect has no direction. */
	direction: string[] | null;
	/** The pattern with its direction turned round ("^slow & write" -> "fast|quick ... & write"), or null. */
	inverted: string | null;
	invertedDirection: string[] | null;
	/** A leading `>`: the cause must come before the direction word ("promises run before timers"). */
	ordered: boolean;
}

const effectCache = new Map<string, EffectPattern>();

/**
 * An effect pattern names a direction when one of its groups is marked `^` ("^slow|expensive &
 * write"): its opposite is that group's antonyms (claim-words.ts ANTONYMS).
 */
function effectPattern(raw: string): EffectPattern {
	let entry = effectCache.get(raw);
	if (!entry) {
		const ordered = raw.trimStart().startsWith(">");
		const body = ordered ? raw.trimStart().slice(1) : raw;
		let direction: string[] | null = null;
		let invertedDirection: string[] | null = null;
		const plain: string[] = [];
		const turned: string[] = [];
		for (const group of groupsOf(body)) {
			if (direction === null && group[0]?.startsWith("^")) {
				direction = group.map((a) => a.replace(/^\^/, ""));
				invertedDirection = [...new Set(direction.flatMap((a) => oppositeOf(a) ?? []))];
				plain.push(direction.join("|"));
				turned.push(invertedDirection.join("|"));
			} else {
				plain.push(group.join("|"));
				turned.push(group.join("|"));
			}
		}
		entry = {
			pattern: plain.join(" & "),
			direction,
			inverted: invertedDirection?.length ? turned.join(" & ") : null,
			invertedDirection: invertedDirection?.length ? invertedDirection : null,
			ordered,
		};
		if (effectCache.size >= 5_000) effectCache.clear();
		effectCache.set(raw, entry);
	}
	return entry;
}

function sentenceClause(sentence: number, s: Sentence): Clause {
	return { sentence, from: 0, to: s.tokens.length };
}

/** A rubric pattern in words, for a model's prompt: "^slow|costly & write" -> "slow or costly + write". */
export function describePattern(pattern: string): string {
	return groupsOf(pattern.replace(/^\s*>/, ""))
		.map((g) => g.map((a) => a.replace(/^\^/, "").replace(/\*$/, "")).join(" or "))
		.join(" + ");
}

/** First span of any of the patterns in the clause. */
function spanOfAny(
	tokens: Token[],
	clause: Clause,
	patterns: readonly string[],
): { from: number; to: number } | null {
	let best: { from: number; to: number } | null = null;
	for (const p of patterns) {
		const span = spanOf(tokens, clause, p);
		if (span && (best === null || span.from < best.from)) best = span;
	}
	return best;
}

export interface LinkJudgement {
	/** Links made: cause and effect joined, in the expected direction. */
	made: LinkFinding[];
	/** Links stated the wrong way round ("indexes make writes faster"): claims, as misconceptions. */
	inverted: MisconceptionFinding[];
}

type Reading = "made" | "inverted" | null;

/**
 * How a clause states a directional effect: in the expected direction, inverted (the opposite
 * direction, the expected one denied, or, for an ordered link, the cause after the direction
 * word: "timers run before promises"), or not at all.
 */
function directionIn(
	tokens: Token[],
	clause: Clause,
	e: EffectPattern,
	cause: { from: number; to: number } | null,
): Reading {
	let reading: Reading = null;
	for (const [pattern, words, expected] of [
		[e.pattern, e.direction, true],
		[e.inverted, e.invertedDirection, false],
	] as const) {
		if (!pattern || !words) continue;
		const span = spanOf(tokens, clause, pattern);
		if (!span || (cause && span.from === cause.from && span.to === cause.to)) continue;
		// The direction word and what it is about, close together ("run before timers"), not across the clause.
		if (span.to - span.from > DIRECTION_SPAN) continue;
		let straight = expected !== negatedNear(tokens, clause, span);
		if (e.ordered && cause) {
			const at = findAny(tokens, words, clause.from, clause.to)?.at ?? -1;
			if (at >= 0 && cause.from > at) straight = !straight;
		}
		if (!straight) return "inverted";
		reading = "made";
	}
	return reading;
}

/**
 * Expected links the answer makes: a cause and an effect pattern in one sentence with a causal
 * word, or a cause in one sentence and the effect in the next when the next opens with one
 * ("So ...", "This means ..."). Negation does not undo a link ("does not block, because"
 * explains), except for a link whose effect names a direction (`^`): there, cause and effect in
 * one clause make the link without a causal word, and the opposite direction, or the expected
 * one denied, states it inverted, which is judged a misconception. Cause and effect entries are
 * patterns: groups joined by `&` (alternatives by `|`), by lemma.
 */
export function judgeLinks(text: string, links: readonly ExpectedLink[]): LinkJudgement {
	const made: LinkFinding[] = [];
	const inverted: MisconceptionFinding[] = [];
	if (links.length === 0) return { made, inverted };
	const sentences = analyse(text);
	const clauses = clausesOf(sentences);
	// A directional effect is read in the finer clauses that misconceptions use (see participial).
	const fine = clausesOf(sentences, true);
	for (const link of links) {
		const effects = link.effect.map(effectPattern);
		let madeAt: string | null = null;
		let invertedAt: string | null = null;
		for (const [i, s] of sentences.entries()) {
			const cause = spanOfAny(s.tokens, sentenceClause(i, s), link.cause);
			if (!cause) continue;
			const quote = collapseSpaces(s.text).slice(0, 200);
			const isReported = reported(s);
			const causal = hasCausal(s.tokens);
			for (const clause of clauses) {
				if (clause.sentence !== i) continue;
				for (const e of effects) {
					if (e.direction !== null) continue;
					// A denied effect ("closures can't cause leaks", "retries aren't needed") is not an explanation of it.
					const span = spanOf(s.tokens, clause, e.pattern);
					if (span && span.from !== cause.from && causal && !deniedBefore(s.tokens, clause, span))
						madeAt ??= quote;
				}
			}
			for (const clause of fine) {
				if (clause.sentence !== i || isReported) continue;
				for (const e of effects) {
					if (e.direction === null) continue;
					const here = spanOfAny(s.tokens, clause, link.cause);
					const reading = here ? directionIn(s.tokens, clause, e, here) : null;
					if (reading === "inverted") invertedAt ??= quote;
					else if (reading === "made") madeAt ??= quote;
				}
			}
			const next = sentences[i + 1];
			if (madeAt === null && next && hasCausal(next.tokens, 0, Math.min(3, next.tokens.length))) {
				const whole = sentenceClause(i + 1, next);
				if (
					effects.some((e) => {
						if (e.direction !== null) return false;
						const span = spanOf(next.tokens, whole, e.pattern);
						return span !== null && !deniedBefore(next.tokens, whole, span);
					})
				)
					madeAt = collapseSpaces(`${s.text} ${next.text}`).slice(0, 200);
			}
		}
		if (madeAt !== null && invertedAt === null) made.push({ concept: link.concept, snippet: madeAt });
		if (invertedAt !== null)
			inverted.push({
				claim: link.wrong ?? `${link.concept}: stated the wrong way round`,
				quote: invertedAt,
				contradicted: madeAt !== null,
			});
	}
	return { made, inverted };
}

/** Expected links the answer makes (see judgeLinks). */
export function findLinks(text: string, links: readonly ExpectedLink[]): LinkFinding[] {
	return judgeLinks(text, links).made;
}

/**
 * Sentences that make a sweeping claim or deny one: "always", "never", "no cost", "the best" ...
 * (claim-words.ts ABSOLUTES) or a negation. Confident wrong answers are mostly made of them
 * ("X is always faster", "Y is not needed"); explanations qualify and link instead.
 */
export function sweepingSentences(text: string): number {
	return analyse(text).filter(
		(s) =>
			findAny(s.tokens, ABSOLUTES) !== null || (s.tokens.some((t) => t.negative) && !hasCausal(s.tokens)),
	).length;
}

/** Sentences that explain the question's subject: a verb, a causal word and one of the rubric's words. */
export function explainingSentences(text: string, rubricWords: readonly string[]): number {
	return explainingOf(text, rubricWords).all;
}

/**
 * Explaining sentences (see explainingSentences), all of them and those that make no sweeping claim
 * ("always", "never", "no cost" ...): a measured explanation qualifies its reasons.
 */
export function explainingOf(
	text: string,
	rubricWords: readonly string[],
): { all: number; measured: number } {
	let all = 0;
	let measured = 0;
	for (const s of analyse(text)) {
		if (!(s.tokens.some((t) => t.verb) && hasCausal(s.tokens) && findAny(s.tokens, rubricWords) !== null))
			continue;
		all++;
		if (findAny(s.tokens, ABSOLUTES) === null) measured++;
	}
	return { all, measured };
}

/**
 * A list of terms rather than an explanation: most of its words sit in fragments without a verb,
 * or in comma-separated runs of short items.
 */
export function isKeywordList(text: string): boolean {
	const sentences = analyse(text);
	const words = sentences.reduce((n, s) => n + s.tokens.length, 0);
	if (words < 3) return false;
	let prose = 0;
	for (const s of sentences) {
		// A run of three or more "and"/"or" joins items as commas do ("call stack and task queue and ...").
		const joined = (s.text.match(/\s(?:and|or|&|plus)\s/gi) ?? []).length >= 3;
		const raw = s.text
			.split(joined ? /[,;:\n•]|\s-\s|\s(?:and|or|&|plus)\s/i : /[,;:\n•]|\s-\s/)
			.filter((p) => /[a-z0-9]/i.test(p));
		const shortItems = raw.filter((p) => p.trim().split(/\s+/).length <= 4).length;
		const listy = raw.length >= 3 && shortItems / raw.length >= 0.6;
		const verbs = s.tokens.filter((t) => t.verb).length;
		if (!listy && verbs >= 1 && s.tokens.length >= 5) prose += s.tokens.length;
	}
	return prose / words < 0.5;
}

/** Keywords that already appear in the question earn nothing: restating the question is not an answer. */
function usableKeywords(question: PlannedQuestion, keywords: string[]): string[] {
	const key = `${question.text}\u0000${keywords.join("\u0000")}`;
	let usable = usableCache.get(key);
	if (!usable) {
		if (usableCache.size >= 5_000) usableCache.clear();
		usable = keywords.filter((k) => findKeyword(question.text, k) === null);
		usableCache.set(key, usable);
	}
	return usable;
}
const usableCache = new Map<string, string[]>();

/** The sentence holding the character offset states ignorance ("I have never used B-trees"). */
function ignorantAround(text: string, hit: KeywordHit): boolean {
	const sentence = snippetAround(text, hit.index, hit.length);
	return countPhrases(sentence, IGNORANCE_PHRASES) > 0;
}

/**
 * Concepts the answer shows: a keyword as a word (spelling variants and suffixes allowed), or the
 * same words by lemma ("committed" for "commit"), outside a sentence that admits not knowing.
 */
export function matchConcepts(
	question: PlannedQuestion,
	text: string,
): { matched: ConceptMatch[]; missed: string[] } {
	const matched: ConceptMatch[] = [];
	const missed: string[] = [];
	const sentences = analyse(text);
	for (const concept of question.concepts) {
		const usable = usableKeywords(question, concept.keywords);
		const hits = usable
			.map((k) => findKeyword(text, k))
			.filter((h): h is KeywordHit => h !== null && !ignorantAround(text, h))
			.sort((a, b) => a.index - b.index);
		const first = hits[0];
		if (first) {
			const keywords = [...new Set(hits.map((h) => text.slice(h.index, h.index + h.length).toLowerCase()))];
			matched.push({
				concept: concept.name,
				keywords: keywords.slice(0, 3),
				snippet: snippetAround(text, first.index, first.length),
			});
			continue;
		}
		const lemma = sentences.find(
			(s) => countPhrases(s.text, IGNORANCE_PHRASES) === 0 && findAny(s.tokens, usable),
		);
		if (lemma) {
			const hit = findAny(lemma.tokens, usable);
			const found = hit
				? lemma.tokens
						.slice(hit.at, hit.at + hit.length)
						.map((t) => t.word)
						.join(" ")
				: "";
			matched.push({
				concept: concept.name,
				keywords: found ? [found] : [],
				snippet: collapseSpaces(lemma.text).slice(0, 160),
			});
			continue;
		}
		missed.push(concept.name);
	}
	return { matched, missed };
}

/** Nouns of the question too general to show the answer is about it. */
const GENERIC_NOUNS = new Set([
	"example",
	"difference",
	"way",
	"thing",
	"time",
	"case",
	"use",
	"kind",
	"type",
	"team",
	"project",
	"situation",
	"approach",
	"work",
	"people",
]);

/** Verbs of a question that say nothing about its subject ("tell me", "how do you make ..."). */
const GENERIC_VERBS = new Set([
	"be",
	"have",
	"do",
	"does",
	"tell",
	"take",
	"make",
	"give",
	"get",
	"go",
	"say",
	"know",
	"think",
	"explain",
	"describe",
	"walk",
	"use",
	"would",
	"could",
	"should",
	"can",
	"will",
	"want",
	"need",
	"keep",
	"set",
	"come",
	"see",
	"look",
]);

interface QuestionWords {
	nouns: Set<string>;
	verbs: Set<string>;
}

/**
 * The answer talks about the question's subject: it shares a noun with the question (by lemma),
 * or shows at least half of the rubric's concepts, or shows two concepts and either explains one
 * of the question's expected links or shares one of the question's own verbs ("asked", "improved").
 * A story that merely reuses a rubric word in another sense ("a table of contents") is not.
 * Behavioural questions name few nouns of their own ("a time you took the initiative"), and an
 * honest story answers them in its own nouns: the concepts and links it shows are the evidence.
 */
const questionWords = new Map<string, QuestionWords>();

function wordsOfQuestion(text: string): QuestionWords {
	let words = questionWords.get(text);
	if (!words) {
		if (questionWords.size >= 5_000) questionWords.clear();
		const tokens = analyse(text).flatMap((s) => s.tokens);
		// The question's first word is its instruction ("Design a URL shortener"), not its subject.
		const instruction = tokens[0];
		words = {
			nouns: new Set(
				tokens
					.filter((t) => t !== instruction && t.noun && t.word.length > 2 && !GENERIC_NOUNS.has(t.root))
					.map((t) => t.root),
			),
			verbs: new Set(
				tokens
					.filter(
						(t) => t !== instruction && t.verb && !t.noun && t.word.length > 2 && !GENERIC_VERBS.has(t.root),
					)
					.map((t) => t.root),
			),
		};
		questionWords.set(text, words);
	}
	return words;
}

export function onTopic(
	question: PlannedQuestion,
	text: string,
	matched: number,
	linked = 0,
	story = 0,
	workWords = Number.POSITIVE_INFINITY,
): boolean {
	if (matched >= Math.max(3, Math.ceil(question.concepts.length * 0.6))) return true;
	if (matched >= 2 && linked >= 1) return true;
	// A story told at work, of the candidate's own actions and their outcome, that shows a concept.
	if (matched >= 1 && story >= STORY_EXPLAINS) return true;
	// A behavioural answer not set at work (a hobby, a holiday) is off topic whatever words of the
	// question it reuses: "a sourdough culture" is not engineering culture.
	if (question.category === "interpersonal" && workWords < 2) return false;
	const { nouns, verbs } = wordsOfQuestion(question.text);
	const tokens = analyse(text).flatMap((s) => s.tokens);
	if (tokens.some((t) => nouns.has(t.root) || nouns.has(t.word))) return true;
	return matched >= 2 && tokens.some((t) => t.verb && verbs.has(t.root));
}

export interface ClaimAnalysis {
	matched: ConceptMatch[];
	missed: string[];
	/** Concepts credited only through a link in the answer's own words. */
	paraphrased: string[];
	links: LinkFinding[];
	misconceptions: MisconceptionFinding[];
	keywordList: boolean;
	ignorance: boolean;
	/** Shares the question's subject (see onTopic). */
	onTopic: boolean;
	/** Sentences with a verb, a causal word and a rubric word. */
	explaining: number;
	/** Those of them without a sweeping word (always, never, no cost ...). */
	measured: number;
	/** Sentences with a sweeping word (always, never, no cost ...) or a negation. */
	sweeping: number;
	sentences: number;
	words: number;
	/** For questions of interpersonal skills, the shape of the first-person story told (story.ts), else 0. */
	story: number;
}

/** Everything the rubric judges in one answer. */
export function analyseClaims(question: PlannedQuestion, text: string): ClaimAnalysis {
	const words = wordList(text).length;
	const { matched, missed } = matchConcepts(question, text);
	const rubric = question.concepts.flatMap((c) => usableKeywords(question, c.keywords));
	const judged = judgeLinks(text, question.links ?? []);
	const links = judged.made;
	const paraphrased: string[] = [];
	for (const link of links) {
		if (matched.some((m) => m.concept === link.concept)) continue;
		if (!missed.includes(link.concept)) continue;
		matched.push({ concept: link.concept, keywords: [], snippet: link.snippet });
		missed.splice(missed.indexOf(link.concept), 1);
		paraphrased.push(link.concept);
	}
	const explained = words > 0 ? explainingOf(text, rubric) : { all: 0, measured: 0 };
	const explaining = explained.all;
	const sentenceCount = analyse(text).length;
	const shape = words > 0 && question.category === "interpersonal" ? storyShape(text) : null;
	const story = shape?.score ?? 0;
	// A story that explains (set at work, with two of its three parts) shows the story-part concepts
	// it has in the candidate's own words: "I rewrote the guide" is an own action without "I decided".
	if (shape && story >= STORY_EXPLAINS) {
		for (const concept of question.concepts) {
			if (!concept.story || !missed.includes(concept.name) || !storyShows(shape, concept.story)) continue;
			matched.push({ concept: concept.name, keywords: [], snippet: collapseSpaces(text).slice(0, 160) });
			missed.splice(missed.indexOf(concept.name), 1);
		}
	}
	const order = question.concepts.map((c) => c.name);
	matched.sort((a, b) => order.indexOf(a.concept) - order.indexOf(b.concept));
	return {
		matched,
		missed,
		paraphrased,
		links,
		misconceptions: [
			...findMisconceptions(text, question.misconceptions ?? []),
			...judged.inverted.filter((m) => !(question.misconceptions ?? []).some((x) => x.claim === m.claim)),
		],
		// Several sentences of which two explain the subject are an explanation, however densely
		// written (colons, comma runs of named tools): a list of terms explains nothing.
		keywordList: words > 0 && isKeywordList(text) && !(explaining >= 2 && sentenceCount >= 3),
		onTopic: words > 0 && onTopic(question, text, matched.length, links.length, story, shape?.work),
		ignorance: words < 40 && countPhrases(text, IGNORANCE_PHRASES) > 0,
		explaining,
		measured: explained.measured,
		sweeping: words > 0 ? sweepingSentences(text) : 0,
		sentences: sentenceCount,
		words,
		story,
	};
}
