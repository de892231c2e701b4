import type { Analytics, InterviewState, Results } from "./model";

/**
 * Results and analytics from the transcript's per-answer scores. Deterministic: the same
 * transcript always gives the same results.
 */
export function computeResults(state: InterviewState): { results: Results; analytics: Analytics } {
	const answered = state.transcript.filter((e) => e.answer !== null && e.answered_at !== null);
	const scores = answered.map((e) => e.score ?? 0);
	const overall = scores.length === 0 ? 0 : Math.round(scores.reduce((a, b) => a + b, 0) / scores.length);
	const perSkill = state.skills.map((skill) => {
		const own = answered.filter((e) => e.question.skill === skill).map((e) => e.score ?? 0);
		const score = own.length === 0 ? 0 : Math.round(own.reduce((a, b) => a + b, 0) / own.length);
		return {
			skill,
			score,
			level: score >= 85 ? "expert" : score >= 70 ? "proficient" : score >= 50 ? "developing" : "novice",
		};
	});
	const times = answered.map((e) => Math.max(0, ((e.answered_at as number) - e.asked_at) / 1000));
	return {
		results: {
			overall_score: overall,
			technical_score: overall,
			communication_score: overall,
			skill_assessments: perSkill,
			strengths: perSkill.filter((s) => s.score >= 70).map((s) => `Strong answers on ${s.skill}`),
			areas_for_improvement: perSkill
				.filter((s) => s.score < 50)
				.map((s) => `Answers on ${s.skill} lacked depth`),
			recommendation: overall >= 75 ? "hire" : overall >= 55 ? "maybe" : "no_hire",
		},
		analytics: {
			engagement_level:
				answered.length === 0 ? "low" : answered.length >= state.transcript.length ? "high" : "medium",
			response_times: {
				average_seconds: times.length ? Math.round(times.reduce((a, b) => a + b, 0) / times.length) : 0,
				fastest_seconds: times.length ? Math.round(Math.min(...times)) : 0,
				slowest_seconds: times.length ? Math.round(Math.max(...times)) : 0,
			},
			question_difficulty_progression: answered.map((e) => ({
				question_index: e.question.index,
				skill: e.question.skill,
				difficulty: e.question.difficulty,
				score: e.score,
			})),
		},
	};
}
