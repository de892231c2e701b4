import type { Analytics, InterviewState, Results, TranscriptEntry } from "./model";
import { recommendationFor } from "./recommendation";

/** FNV-1a: a small stable hash, so the same interview always gets the same mock results. */
function hash(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		h ^= text.charCodeAt(i);
		h = Math.imul(h, 0x01000193) >>> 0;
	}
	return h;
}

function level(score: number): string {
	return score >= 85 ? "expert" : score >= 70 ? "proficient" : score >= 50 ? "developing" : "novice";
}

/**
 * Generated results for test mode (the test helper's completion): plausible, complete and
 * deterministic per interview id and skill, so callers' tests can assert on them.
 */
export function mockResults(state: Pick<InterviewState, "id" | "skills" | "difficulty">): {
	results: Results;
	analytics: Analytics;
} {
	const seed = hash(state.id);
	const assessments = state.skills.map((skill) => {
		const score = 45 + (hash(`${state.id}:${skill}`) % 51);
		return { skill, score, level: level(score) };
	});
	const overall = Math.round(
		assessments.reduce((sum, a) => sum + a.score, 0) / Math.max(1, assessments.length),
	);
	const communication = 50 + (seed % 46);
	return {
		results: {
			overall_score: overall,
			technical_score: overall,
			communication_score: communication,
			skill_assessments: assessments,
			strengths: assessments.filter((a) => a.score >= 70).map((a) => `Strong answers on ${a.skill}`),
			areas_for_improvement: assessments
				.filter((a) => a.score < 70)
				.map((a) => `Answers on ${a.skill} could go deeper`),
			// The interviewer's bands (70 and 50); every generated skill scores 45 or more and every
			// question counts as answered, so its other hire conditions always hold here.
			recommendation: recommendationFor(overall),
		},
		analytics: {
			engagement_level: overall >= 75 ? "high" : overall >= 55 ? "medium" : "low",
			response_times: {
				average_seconds: 30 + (seed % 60),
				fastest_seconds: 5 + (seed % 20),
				slowest_seconds: 120 + (seed % 180),
			},
			question_difficulty_progression: assessments.map((a, i) => ({
				question_index: i,
				question_id: `mock_${i}`,
				skill: a.skill,
				difficulty: state.difficulty,
				score: a.score,
				change: i === 0 ? ("start" as const) : ("same" as const),
			})),
		},
	};
}

/**
 * The transcript of a test-mode interview the test helper completed before any answer: one
 * question and answer per skill, matching the mock results (the same scores, and the ids
 * `mock_<i>` of their difficulty progression), a minute apart and ending at `now`, so callers can
 * exercise their handling of a transcript in test mode. Marked as samples in their text.
 */
export function mockTranscript(
	state: Pick<InterviewState, "difficulty">,
	results: Results,
	now: number,
): TranscriptEntry[] {
	const total = results.skill_assessments.length;
	return results.skill_assessments.map((a, index) => {
		const askedAt = now - (total - index) * 60_000;
		return {
			question: {
				id: `mock_${index}`,
				text: `(Test mode) A sample question on ${a.skill}.`,
				skill: a.skill,
				difficulty: state.difficulty,
				index,
				total,
			},
			asked_at: askedAt,
			answer: `(Test mode) A sample answer on ${a.skill}.`,
			answered_at: askedAt + 45_000,
			score: a.score,
			planned: null,
			assessment: null,
		};
	});
}
