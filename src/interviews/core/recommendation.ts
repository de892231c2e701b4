import { HIRE_MIN_OVERALL, MAYBE_MIN_OVERALL } from "../../interviewer/assessment";
import type { Recommendation } from "./model";

/**
 * Score bands of the recommendation, the interviewer's own (docs/interviewer.md): `hire` from 70,
 * `maybe` from 50, `no_hire` below. The interviewer also holds a `hire` back to `maybe` when a
 * skill is weak or too few questions were answered, so a `maybe` may sit in the hire band.
 */
export const HIRE_FROM = HIRE_MIN_OVERALL;
export const MAYBE_FROM = MAYBE_MIN_OVERALL;
/** The recommendation of a score alone (mock results, which have no other evidence). */
export function recommendationFor(score: number): Recommendation {
	return score >= HIRE_FROM ? "hire" : score >= MAYBE_FROM ? "maybe" : "no_hire";
}
