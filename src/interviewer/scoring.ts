import { analyseClaims, type ClaimAnalysis } from "./claims";
import { STORY_EXPLAINS } from "./story";
import { clamp, countPhrases, excerpt, MAX_SCORED_CHARS, round, sentences, wordList } from "./text";
import type { AnswerScore, ConceptMatch, PlannedQuestion, ReviewFlag } from "./types";

/** Share of concepts at which an answer counts as fully on topic. */
const RELEVANCE_AT = 0.4;

/** Phrases that show reasoning: explaining why, comparing, giving an example. */
export const REASONING_PHRASES = [
	"because",
	"since",
	"therefore",
	"so that",
	"which means",
	"this means",
	"trade-off",
	"for example",
	"for instance",
	"e.g.",
	"such as",
	"however",
	"on the other hand",
	"it depends",
	"depends on",
	"instead",
	"whereas",
	"unless",
	"in contrast",
	"in practice",
	"in my experience",
	"the reason",
	"otherwise",
	"as a result",
] as const;

/** Phrases that organise an answer into steps or points. */
export const ORGANISING_PHRASES = [
	"first",
	"second",
	"third",
	"then",
	"next",
	"finally",
	"lastly",
	"also",
	"in addition",
	"moreover",
	"overall",
	"in short",
	"to summarise",
	"to summarize",
	"for example",
	"on the other hand",
	"step",
] as const;

export { matchConcepts } from "./claims";

/**
 * Words, as a multiple of the level's expected words, at which length earns full depth: an answer
 * of the expected length earns half, so an expert's fuller answer still counts for more than a
 * good one's (docs/interviewer.md).
 */
export const LENGTH_FOR_FULL_DEPTH = 2;

/** Length against the level's expectation, plus reasoning phrases (0-1). */
export function depthOf(text: string, expectedWords: number): number {
	const words = wordList(text).length;
	if (words === 0) return 0;
	const length = Math.min(1, words / (LENGTH_FOR_FULL_DEPTH * expectedWords));
	const reasoning = Math.min(1, countPhrases(text, REASONING_PHRASES) / 3);
	return 0.6 * length + 0.4 * reasoning;
}

/** Several sentences of readable length, organised with connectives, without repetition (0-1). */
export function structureOf(text: string): number {
	const words = wordList(text);
	if (words.length === 0) return 0;
	const parts = sentences(text);
	const count = Math.min(1, parts.length / 3);
	const average = words.length / Math.max(1, parts.length);
	const readable = words.length >= 6 && average >= 6 && average <= 35 ? 1 : 0;
	const organised = Math.min(
		1,
		(countPhrases(text, ORGANISING_PHRASES) + (/^\s*([-*•]|\d+[.)])\s/m.test(text) ? 1 : 0)) / 2,
	);
	const unique = new Set(words.map((w) => w.toLowerCase())).size / words.length;
	const variety = words.length >= 10 ? Math.min(1, unique / 0.4) : 0;
	return (count + readable + organised + variety) / 4;
}

/** Within the question's time budget earns full marks; slower answers lose up to 70%. */
export function timingOf(seconds: number, budgetSeconds: number): number {
	if (!Number.isFinite(seconds) || seconds <= budgetSeconds) return 1;
	return Math.max(0.3, 1 - (0.7 * (seconds - budgetSeconds)) / budgetSeconds);
}

export interface Judgement {
	matched: ConceptMatch[];
	missed: string[];
	depth: number;
	structure: number;
}

/** Content caps (docs/interviewer.md): a bare list of terms scores as weak ... */
export const KEYWORD_LIST_CAP = 0.12;
/** ... and a stated misconception keeps the answer below a partial one. */
export const MISCONCEPTION_CAP = 0.25;
/** ... and one concept named without any explained link stays under 10. */
export const SINGLE_MENTION_CAP = 0.09;
/**
 * ... and an answer that makes none of the question's expected links stays at partial: 0.35, rising
 * by a quarter of the coverage above 0.6 (0.45 when it shows every concept), so an answer that names
 * the whole subject in words the link patterns do not read is not held at the level of one naming two.
 */
export const UNSUPPORTED_CAP = 0.35;
export function unsupportedCap(coverage: number): number {
	return UNSUPPORTED_CAP + 0.25 * Math.max(0, coverage - 0.6);
}
/**
 * ... and an answer most of whose sentences (3 or more) make sweeping claims or deny something
 * ("always", "never", "no cost", "is not needed") keeps half of its content: how confident
 * wrong answers read, and not how explanations do.
 */
export const OVERCLAIM_AT = 0.6;
export const OVERCLAIM_FACTOR = 0.5;
/**
 * ... and short of that, an answer of 3 or more sentences of which 40% or more are sweeping keeps
 * 0.9 of its content: a milder doubt, since correct answers also say what does not happen.
 */
export const SWEEPING_AT = 0.4;
export const SWEEPING_FACTOR = 0.9;

/** An answer that makes none of its question's expected links (and shows at least two concepts). */
export function unsupported(question: PlannedQuestion, claims: ClaimAnalysis): boolean {
	return (
		(question.links?.length ?? 0) > 0 &&
		claims.links.length === 0 &&
		claims.matched.length >= 2 &&
		claims.story < STORY_EXPLAINS
	);
}

/**
 * Most of the answer's sentences make sweeping claims or deny something (see OVERCLAIM_AT), and
 * it does not make every expected link that would explain them.
 */
export function overclaims(question: PlannedQuestion, claims: ClaimAnalysis): boolean {
	return (
		claims.sentences >= 3 &&
		claims.sweeping / claims.sentences >= OVERCLAIM_AT &&
		claims.links.length < Math.max(LINKS_FOR_FULL_EXPLANATION, question.links?.length ?? 0)
	);
}

/** Share of the score that style and timing can take away from what content earned. */
export const STYLE_SHARE = 0.4;

/** Expected links that make a full explanation: two made links explain the answer's subject. */
export const LINKS_FOR_FULL_EXPLANATION = 2;

/**
 * An answer that makes at least one expected link gets, for each further sentence that explains the
 * subject (a verb, a causal word, a rubric word) without a sweeping claim, beyond one per link made,
 * this much of a link times coverage squared: more reasons about more of the subject are a fuller
 * explanation, and reasons given about little of it are weak evidence. Two made links still make a
 * full explanation; the sentences let an answer whose reasons the link patterns do not read reach it.
 */
export const EXPLAINING_CREDIT = 0.5;

/**
 * Content kept by an answer of almost no words; it rises linearly to all of it at 1.5 times the
 * level's expected words (junior 60 ... expert 150). Short answers that make the expected links in a few
 * words are partial answers far more often than complete ones.
 */
export const SHORT_ANSWER_SHARE = 0.6;
/**
 * ... reaching all of it at this multiple of the level's expected words: a partial answer that makes
 * a link or two in about the expected words is not yet the fuller answer a good one gives.
 */
export const SHORT_ANSWER_UNTIL = 1.5;

/** Content (0-1): the concepts shown and the links explained, discounted by what is wrong. */
export function contentOf(
	question: PlannedQuestion,
	judgement: Judgement,
	claims: ClaimAnalysis,
): { coverage: number; explanation: number; content: number } {
	const total = question.concepts.length || 1;
	const coverage = judgement.matched.length / total;
	const expected = question.links?.length ?? 0;
	let explanation =
		expected > 0
			? (claims.links.length +
					EXPLAINING_CREDIT *
						coverage ** 2 *
						(claims.links.length > 0 ? Math.max(0, claims.measured - claims.links.length) : 0)) /
				Math.min(expected, LINKS_FOR_FULL_EXPLANATION)
			: Math.min(1, claims.explaining / Math.max(2, Math.ceil(total / 2)));
	// A behavioural answer explains by the story it tells (story.ts), whatever links it makes.
	if (claims.story >= STORY_EXPLAINS) explanation = Math.max(explanation, claims.story);
	if (coverage === 0 || claims.keywordList) explanation = 0;
	let content = 0.5 * coverage + 0.5 * Math.min(1, explanation);
	// Rubric words used in another sense earn nothing (docs/interviewer.md).
	if (!claims.onTopic) content = 0;
	// One rubric word and no explained link is not evidence of knowledge.
	if (judgement.matched.length <= 1 && claims.links.length === 0 && claims.story < STORY_EXPLAINS)
		content = Math.min(content, SINGLE_MENTION_CAP);
	if (claims.ignorance) content /= 2;
	if (claims.keywordList) content = Math.min(content, KEYWORD_LIST_CAP);
	if (unsupported(question, claims)) content = Math.min(content, unsupportedCap(coverage));
	if (overclaims(question, claims)) content *= OVERCLAIM_FACTOR;
	else if (claims.sentences >= 3 && claims.sweeping / claims.sentences >= SWEEPING_AT)
		content *= SWEEPING_FACTOR;
	const wrong = claims.misconceptions.length;
	if (wrong > 0) content = Math.min(content * 0.5, MISCONCEPTION_CAP) * 0.8 ** (wrong - 1);
	// An answer shorter than the level expects shows less of what it knows (see SHORT_ANSWER_SHARE).
	content *= Math.min(
		1,
		SHORT_ANSWER_SHARE +
			((1 - SHORT_ANSWER_SHARE) * claims.words) / (SHORT_ANSWER_UNTIL * question.expected_words),
	);
	return { coverage, explanation: Math.min(1, explanation), content };
}

/** Why this answer needs a person's look, and how sure the scorer is (docs/interviewer.md). */
export function reviewOf(
	question: PlannedQuestion,
	matched: number,
	claims: ClaimAnalysis,
	fallback: string | null,
): { flags: ReviewFlag[]; confidence: number } {
	const flags: ReviewFlag[] = [];
	let confidence = 0.9;
	if (claims.words === 0 || claims.ignorance) flags.push("no_answer");
	else if (matched === 0 || !claims.onTopic) flags.push("off_topic");
	if (claims.keywordList) {
		flags.push("keyword_list");
		confidence -= 0.2;
	}
	if (claims.misconceptions.length > 0) {
		flags.push("misconception");
		confidence -= 0.1;
	}
	if (claims.misconceptions.some((m) => m.contradicted)) {
		flags.push("contradiction");
		confidence -= 0.2;
	}
	if (claims.words > 0 && !claims.keywordList && unsupported(question, claims)) {
		flags.push("unsupported");
		confidence -= 0.1;
	}
	if (overclaims(question, claims)) {
		flags.push("overclaim");
		confidence -= 0.15;
	}
	if (claims.paraphrased.length > 0) {
		flags.push("paraphrase_uncertain");
		confidence -= 0.15;
	}
	if (claims.words > 0 && claims.words < 15 && !claims.ignorance) {
		flags.push("low_evidence");
		confidence -= 0.2;
	}
	if (fallback) {
		flags.push("scorer_fallback");
		confidence -= 0.1;
	}
	// A rubric without misconceptions or links cannot check correctness, only coverage.
	if (!question.misconceptions?.length && !question.links?.length) confidence -= 0.15;
	return { flags, confidence: round(clamp(confidence, 0.1, 1), 2) };
}

/** The one formula both implementations use to turn a judgement into an AnswerScore. */
export function composeScore(
	question: PlannedQuestion,
	text: string,
	responseSeconds: number,
	judgement: Judgement,
	source: AnswerScore["source"],
	feedback: string | null,
	claims: ClaimAnalysis = analyseClaims(question, text),
	fallback: string | null = null,
): AnswerScore {
	const words = wordList(text).length;
	const { coverage, explanation, content } = contentOf(question, judgement, claims);
	const relevance = Math.min(1, coverage / RELEVANCE_AT);
	const depth = clamp(judgement.depth, 0, 1);
	const structure = clamp(judgement.structure, 0, 1);
	const timing = words === 0 ? 0 : timingOf(responseSeconds, question.time_budget_seconds);
	const style = 0.45 * depth + 0.35 * structure + 0.2 * timing;
	const score = 100 * content * (1 - STYLE_SHARE + STYLE_SHARE * style);
	const communication = (0.6 * structure + 0.4 * depth) * (0.5 + 0.5 * relevance);
	const firstMissed = judgement.missed[0];
	const review = reviewOf(question, judgement.matched.length, claims, fallback);
	return {
		question_id: question.id,
		skill: question.skill,
		difficulty: question.difficulty,
		score: clamp(Math.round(score), 0, 100),
		components: {
			coverage: round(coverage, 2),
			explanation: round(explanation, 2),
			content: round(content, 2),
			depth: round(depth, 2),
			structure: round(structure, 2),
			timing: round(timing, 2),
			relevance: round(relevance, 2),
			communication: round(communication, 2),
		},
		matched: judgement.matched,
		missed: judgement.missed,
		word_count: words,
		response_seconds: round(Math.max(0, Number.isFinite(responseSeconds) ? responseSeconds : 0), 1),
		follow_up:
			firstMissed === undefined
				? (question.follow_ups[0] ?? null)
				: `Could you say more about ${firstMissed}?`,
		excerpt: excerpt(text),
		source,
		feedback,
		misconceptions: claims.misconceptions.map((m) => ({ claim: m.claim, quote: m.quote })),
		explained: claims.links.map((l) => l.concept),
		review_flags: review.flags,
		confidence: review.confidence,
		fallback,
	};
}

/** Offline, deterministic scoring of one answer. */
export function scoreAnswerOffline(
	question: PlannedQuestion,
	answerText: string,
	responseSeconds: number,
	fallback: string | null = null,
): AnswerScore {
	const text = answerText.slice(0, MAX_SCORED_CHARS);
	const claims = analyseClaims(question, text);
	return composeScore(
		question,
		text,
		responseSeconds,
		{
			matched: claims.matched,
			missed: claims.missed,
			depth: depthOf(text, question.expected_words),
			structure: structureOf(text),
		},
		"offline",
		null,
		claims,
		fallback,
	);
}
