import type { InterviewState } from "../core/model";
import type { BulkItemOutcome } from "../creation/bulk-create";
import { notFound } from "../service";
import { fullView, type InterviewUrls, interviewUrl, transcriptView } from "./views";

/** `success_rate` is a fraction from 0 to 1, rounded to four decimals. */
function rate(part: number, whole: number): number {
	return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
}

/** The bulk create answer: `successful`, `failed` (both by request index) and `summary`. */
export function bulkCreatedView(outcomes: readonly BulkItemOutcome[], urls: InterviewUrls) {
	const successful = [];
	const failed = [];
	for (const outcome of outcomes) {
		if (outcome.ok) {
			const state = outcome.interview;
			successful.push({
				index: outcome.index,
				interview: {
					id: state.id,
					candidate_email: state.candidateEmail,
					interview_url: interviewUrl(urls.appUrl, state),
					status: state.status,
					test_mode: state.testMode,
				},
			});
		} else {
			failed.push({ index: outcome.index, candidate_email: outcome.candidateEmail, error: outcome.error });
		}
	}
	return {
		successful,
		failed,
		summary: {
			total_requested: outcomes.length,
			successful_count: successful.length,
			failed_count: failed.length,
			success_rate: rate(successful.length, outcomes.length),
		},
	};
}

export type ResultsStatus = "available" | "analyzing" | "not_completed" | "cancelled";

/** Where an interview's results stand: only `available` ones have results to show. */
export function resultsStatus(state: InterviewState): ResultsStatus {
	switch (state.status) {
		case "completed":
			return state.analyzedAt !== null && state.results !== null ? "available" : "analyzing";
		case "cancelled":
			return "cancelled";
		default:
			return "not_completed";
	}
}

/** The transcript of a completed interview, as the single fetch shows it; null before completion. */
export function completedTranscript(state: InterviewState) {
	return state.status === "completed" ? transcriptView(state) : null;
}

export interface BulkResultOptions {
	includeResults: boolean;
	includeTranscripts: boolean;
}

/** Longer ids (no interview id is) are not repeated in a not-found element's message. */
export const MAX_ID_IN_MESSAGE = 100;

/**
 * One element of bulk-results. Found: `{interview_id, found: true, results_status, ...full form}`.
 * Not found (unknown, malformed, or another account's id, indistinguishably):
 * `{interview_id, found: false, error: {code: "INTERVIEW_NOT_FOUND", message}}`.
 */
export function bulkResultElement(
	id: string,
	state: InterviewState | null,
	urls: InterviewUrls,
	options: BulkResultOptions,
) {
	if (!state) {
		const error = notFound(id);
		const message =
			id.length <= MAX_ID_IN_MESSAGE
				? error.message
				: `No interview with this id exists (it is longer than ${MAX_ID_IN_MESSAGE} characters).`;
		return { interview_id: id, found: false as const, error: { code: error.code, message } };
	}
	return {
		interview_id: id,
		found: true as const,
		results_status: resultsStatus(state),
		...fullView(state, urls, { includeResults: options.includeResults }),
		...(options.includeTranscripts ? { transcript: completedTranscript(state) } : {}),
	};
}
