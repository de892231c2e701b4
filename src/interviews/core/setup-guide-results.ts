import { HIRE_MIN_ANSWERED, HIRE_MIN_SKILL } from "../../interviewer/assessment";
import { mockResults } from "./mock-results";
import type { InterviewState, Recommendation, Results } from "./model";
import { HIRE_FROM, MAYBE_FROM } from "./recommendation";

/** Points from the nearest band edge at which confidence reaches its maximum. */
const FULL_CONFIDENCE_DISTANCE = 20;

/** Points between the score and the nearest edge of its recommendation's band (negative outside it). */
function distanceInsideBand(score: number, type: Recommendation): number {
	switch (type) {
		case "hire":
			return score - HIRE_FROM;
		case "no_hire":
			return MAYBE_FROM - 1 - score;
		case "maybe":
			return Math.min(score - MAYBE_FROM, HIRE_FROM - 1 - score);
	}
}

/** 0.5 on a band edge (or outside the band), rising linearly to 0.95 at 20 points inside it. */
export function confidenceFor(score: number, type: Recommendation): number {
	const distance = Math.max(0, distanceInsideBand(score, type));
	const confidence = 0.5 + 0.45 * Math.min(1, distance / FULL_CONFIDENCE_DISTANCE);
	return Math.round(confidence * 100) / 100;
}

function listed(items: readonly string[]): string {
	return items.length === 0 ? "none noted" : items.slice(0, 3).join("; ");
}

function points(n: number): string {
	return n === 1 ? "1 point" : `${n} points`;
}

/** Where the score sits against the thresholds, true for every recommendation the results hold. */
function bandText(score: number, type: Recommendation): string {
	if (type === "maybe" && score >= HIRE_FROM) {
		return (
			`at or above the hire threshold of ${HIRE_FROM}, held back by the other hire conditions ` +
			`(every skill at ${HIRE_MIN_SKILL} or more, ${HIRE_MIN_ANSWERED * 100}% of the questions answered)`
		);
	}
	if (score >= HIRE_FROM) return `${points(score - HIRE_FROM)} above the hire threshold of ${HIRE_FROM}`;
	if (score >= MAYBE_FROM) {
		return `between the maybe threshold of ${MAYBE_FROM} and the hire threshold of ${HIRE_FROM}`;
	}
	return `${points(MAYBE_FROM - score)} below the maybe threshold of ${MAYBE_FROM}`;
}

export interface SetupGuideRecommendation {
	type: Recommendation;
	confidence: number;
	reasoning: string;
}

/** The one overall recommendation, from the Results object: its type, the score's band and the evidence. */
export function recommendationFrom(
	results: Pick<Results, "overall_score" | "recommendation" | "strengths" | "areas_for_improvement">,
): SetupGuideRecommendation {
	const score = results.overall_score;
	const type = results.recommendation;
	return {
		type,
		confidence: confidenceFor(score, type),
		reasoning:
			`Overall score ${score} of 100, ${bandText(score, type)}. ` +
			`Strengths: ${listed(results.strengths)}. Areas for improvement: ${listed(results.areas_for_improvement)}.`,
	};
}

export type SetupGuideResultsStatus = "available" | "mock" | "analyzing" | "not_completed" | "cancelled";

function pending(state: InterviewState): SetupGuideResultsStatus {
	if (state.status === "completed") return "analyzing";
	return state.status === "cancelled" ? "cancelled" : "not_completed";
}

/**
 * The setup guide's results shape. Published analysis wins; a test-mode interview without it
 * has mock results at once, whatever its status; otherwise the scores are null until analyzed.
 */
export function setupGuideResultsView(state: InterviewState) {
	const analyzed = state.status === "completed" && state.analyzedAt !== null ? state.results : null;
	// The test helper's completion publishes these same generated results (test-mode.md).
	const results = analyzed ?? (state.testMode ? mockResults(state).results : null);
	const resultsStatus: SetupGuideResultsStatus = analyzed ? "available" : results ? "mock" : pending(state);
	return {
		session_id: state.id,
		status: state.status,
		results_status: resultsStatus,
		overall_score: results ? results.overall_score : null,
		skill_scores: results
			? Object.fromEntries(results.skill_assessments.map((s) => [s.skill, s.score]))
			: null,
		recommendations: results ? [recommendationFrom(results)] : [],
		test_mode: state.testMode,
	};
}
