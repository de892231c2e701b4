import {
	clamp,
	countPhrases,
	excerpt,
	findKeyword,
	type KeywordHit,
	MAX_SCORED_CHARS,
	round,
	sentences,
	snippetAround,
	wordList,
} from "./text";
import type { AnswerScore, ConceptMatch, PlannedQuestion } from "./types";

/** Weights of the answer score (docs/interviewer.md). */
export const WEIGHTS = { coverage: 0.55, depth: 0.2, structure: 0.15, timing: 0.1 } as const;

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

const IGNORANCE_PHRASES = [
	"i don't know",
	"i do not know",
	"no idea",
	"not sure",
	"never used",
	"not familiar",
	"no experience",
];

/** Keywords that already appear in the question earn nothing: restating the question is not an answer. */
function usableKeywords(question: PlannedQuestion, keywords: string[]): string[] {
	return keywords.filter((k) => findKeyword(question.text, k) === null);
}

export function matchConcepts(
	question: PlannedQuestion,
	text: string,
): { matched: ConceptMatch[]; missed: string[] } {
	const matched: ConceptMatch[] = [];
	const missed: string[] = [];
	for (const concept of question.concepts) {
		const hits = usableKeywords(question, concept.keywords)
			.map((k) => findKeyword(text, k))
			.filter((h): h is KeywordHit => h !== null)
			.sort((a, b) => a.index - b.index);
		const first = hits[0];
		if (!first) {
			missed.push(concept.name);
			continue;
		}
		const keywords = [...new Set(hits.map((h) => text.slice(h.index, h.index + h.length).toLowerCase()))];
		matched.push({
			concept: concept.name,
			keywords: keywords.slice(0, 3),
			snippet: snippetAround(text, first.index, first.length),
		});
	}
	return { matched, missed };
}

/** Length against the level's expectation, plus reasoning phrases (0-1). */
export function depthOf(text: string, expectedWords: number): number {
	const words = wordList(text).length;
	if (words === 0) return 0;
	const length = Math.min(1, words / expectedWords);
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

/** The one formula both implementations use to turn a judgement into an AnswerScore. */
export function composeScore(
	question: PlannedQuestion,
	text: string,
	responseSeconds: number,
	judgement: Judgement,
	source: AnswerScore["source"],
	feedback: string | null,
): AnswerScore {
	const words = wordList(text).length;
	const total = question.concepts.length || 1;
	let coverage = judgement.matched.length / total;
	if (words < 30 && countPhrases(text, IGNORANCE_PHRASES) > 0) coverage /= 2;
	const relevance = Math.min(1, coverage / RELEVANCE_AT);
	const depth = clamp(judgement.depth, 0, 1);
	const structure = clamp(judgement.structure, 0, 1);
	const timing = words === 0 ? 0 : timingOf(responseSeconds, question.time_budget_seconds);
	const score =
		100 *
		(WEIGHTS.coverage * coverage +
			relevance * (WEIGHTS.depth * depth + WEIGHTS.structure * structure + WEIGHTS.timing * timing));
	const communication = (0.6 * structure + 0.4 * depth) * (0.5 + 0.5 * relevance);
	const firstMissed = judgement.missed[0];
	return {
		question_id: question.id,
		skill: question.skill,
		difficulty: question.difficulty,
		score: clamp(Math.round(score), 0, 100),
		components: {
			coverage: round(coverage, 2),
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
	};
}

/** Offline, deterministic scoring of one answer. */
export function scoreAnswerOffline(
	question: PlannedQuestion,
	answerText: string,
	responseSeconds: number,
): AnswerScore {
	const text = answerText.slice(0, MAX_SCORED_CHARS);
	const { matched, missed } = matchConcepts(question, text);
	return composeScore(
		question,
		text,
		responseSeconds,
		{ matched, missed, depth: depthOf(text, question.expected_words), structure: structureOf(text) },
		"offline",
		null,
	);
}
