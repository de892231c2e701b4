import { iso, isoOrNull } from "../../platform/lib/time";
import type { InterviewState } from "../core/model";
import { REFUND_REASON } from "../core/transitions/cancel";
import type { InterviewListRow } from "../db/interviews-repo";
import type { RecordingLinks } from "../recordings/recordings";

export interface InterviewUrls {
	appUrl: string;
}

export function interviewUrl(appUrl: string, state: Pick<InterviewState, "id" | "joinToken">): string {
	return `${appUrl}/join/${state.id}?token=${state.joinToken}`;
}

function dashboardUrl(appUrl: string, id: string): string {
	return `${appUrl}/dashboard/interviews/${id}`;
}

function actualMinutes(state: InterviewState): number | null {
	if (state.status !== "completed" || state.startedAt === null || state.completedAt === null) return null;
	return Math.max(1, Math.round((state.completedAt - state.startedAt) / 60_000));
}

/** The flat form answered by create. */
export function createdView(state: InterviewState, urls: InterviewUrls) {
	return {
		id: state.id,
		status: state.status,
		candidate_email: state.candidateEmail,
		...(state.candidateName === null ? {} : { candidate_name: state.candidateName }),
		position: state.position,
		skills: state.skills,
		difficulty: state.difficulty,
		company_name: state.companyName,
		interview_url: interviewUrl(urls.appUrl, state),
		scheduled_at: iso(state.scheduledAt),
		estimated_duration: state.durationMinutes,
		test_mode: state.testMode,
		created_at: iso(state.createdAt),
	};
}

export interface FullViewOptions {
	includeResults: boolean;
	includeTranscript?: boolean;
	recordings?: RecordingLinks;
}

/** The transcript of a completed interview: each question with its answer, times and score. */
export function transcriptView(state: InterviewState) {
	return state.transcript.map((entry) => ({
		question: {
			id: entry.question.id,
			text: entry.question.text,
			skill: entry.question.skill,
			difficulty: entry.question.difficulty,
			index: entry.question.index,
		},
		answer: entry.answer,
		asked_at: iso(entry.asked_at),
		answered_at: isoOrNull(entry.answered_at),
		score: entry.score,
	}));
}

/** The full form answered by the single-interview fetch, with decisions.md's presence rules. */
export function fullView(state: InterviewState, urls: InterviewUrls, options: FullViewOptions) {
	const completed = state.status === "completed";
	// Results exist from completion but are published by the analysis a few seconds later.
	const analyzed = completed && state.analyzedAt !== null;
	return {
		id: state.id,
		status: state.status,
		candidate: {
			email: state.candidateEmail,
			...(state.candidateName === null ? {} : { name: state.candidateName }),
			joined_at: isoOrNull(state.joinedAt),
		},
		position: state.position,
		skills: state.skills,
		difficulty: state.difficulty,
		company_name: state.companyName,
		instructions: state.instructions,
		duration: {
			estimated_minutes: state.durationMinutes,
			actual_minutes: actualMinutes(state),
		},
		schedule: {
			scheduled_at: iso(state.scheduledAt),
			started_at: isoOrNull(state.startedAt),
			completed_at: isoOrNull(state.completedAt),
		},
		...(state.status === "cancelled"
			? {
					cancellation: {
						cancelled_at: isoOrNull(state.cancelledAt),
						reason: state.cancellationReason,
					},
				}
			: {}),
		...(options.includeResults
			? {
					results: analyzed ? state.results : null,
					analytics: analyzed ? state.analytics : null,
				}
			: {}),
		...(options.includeTranscript ? { transcript: completed ? transcriptView(state) : null } : {}),
		...(options.recordings
			? { recordings: options.recordings.chunks, recording_segments: options.recordings.segments }
			: {}),
		urls: {
			interview_url: interviewUrl(urls.appUrl, state),
			dashboard_url: dashboardUrl(urls.appUrl, state.id),
			results_url: completed ? `${dashboardUrl(urls.appUrl, state.id)}/results` : null,
		},
		test_mode: state.testMode,
		created_at: iso(state.createdAt),
		updated_at: iso(state.updatedAt),
	};
}

/** A list item, from the D1 projection. */
export function listItemView(row: InterviewListRow, includeResults: boolean) {
	return {
		id: row.id,
		status: row.status,
		candidate_email: row.candidateEmail,
		position: row.position,
		skills: row.skills,
		scheduled_at: iso(row.scheduledAt),
		created_at: iso(row.createdAt),
		test_mode: row.testMode,
		...(includeResults && row.status === "completed" && row.overallScore !== null
			? {
					results: {
						overall_score: row.overallScore,
						recommendation: row.recommendation,
					},
				}
			: {}),
	};
}

/**
 * The flat form answered by update: the contract's fields, with the candidate's name and join link
 * as create answers them (a new `candidate_email` gets a new link, and no name).
 */
export function updatedView(state: InterviewState, notificationSent: boolean, urls: InterviewUrls) {
	return {
		id: state.id,
		status: state.status,
		candidate_email: state.candidateEmail,
		...(state.candidateName === null ? {} : { candidate_name: state.candidateName }),
		interview_url: interviewUrl(urls.appUrl, state),
		position: state.position,
		skills: state.skills,
		scheduled_at: iso(state.scheduledAt),
		duration_minutes: state.durationMinutes,
		difficulty: state.difficulty,
		company_name: state.companyName,
		instructions: state.instructions,
		test_mode: state.testMode,
		created_at: iso(state.createdAt),
		updated_at: iso(state.updatedAt),
		notification_sent: notificationSent,
	};
}

/** The cancellation result. */
export function cancelledView(state: InterviewState, creditsRefunded: number, notificationSent: boolean) {
	return {
		id: state.id,
		status: state.status,
		cancelled_at: isoOrNull(state.cancelledAt),
		cancellation_reason: state.cancellationReason,
		refund_details:
			creditsRefunded > 0 ? { credits_refunded: creditsRefunded, refund_reason: REFUND_REASON } : null,
		notification_sent: notificationSent,
		// decisions.md: `test_mode` is on every interview form; the cancellation result is one too.
		test_mode: state.testMode,
	};
}
