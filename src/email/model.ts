import type { DataEnvironment } from "../accounts/keys";
import type { CandidateEmailTemplate } from "../platform/db/schema-email";

export type { CandidateEmailTemplate } from "../platform/db/schema-email";

/** What a notice says about the interview; everything the templates and the calendar need. */
export interface NoticeDetails {
	template: CandidateEmailTemplate;
	interviewId: string;
	candidateEmail: string;
	candidateName: string | null;
	/** Null when the account gave none; the notice then speaks of "the hiring team". */
	companyName: string | null;
	position: string;
	skills: string[];
	/** Epoch ms. */
	scheduledAt: number;
	durationMinutes: number;
	interviewUrl: string;
	/** Calendar SEQUENCE: must grow with every notice about the same interview. */
	sequence: number;
	/** `reschedule_reason` for an update, `reason` for a cancellation. */
	reason: string | null;
	/** Which of the interview's addresses this notice's calendar entry is for (`calendarUid`). */
	calendarGeneration: number;
	/** A cancellation sent to an address an update replaced: the interview goes on elsewhere. */
	addressReplaced: boolean;
	/** The interview could already be joined when the notice was made (it starts now, or soon). */
	openAtSend: boolean;
}

/** The request the interview's Durable Object makes after committing a `notify` effect. */
export interface CandidateEmailRequest {
	/** Stable across the caller's retries: queueing is idempotent by this id. */
	messageId: string;
	interviewId: string;
	accountId: string;
	environment: DataEnvironment;
	testMode: boolean;
	template: CandidateEmailTemplate;
	to: string;
	candidateName: string | null;
	companyName: string | null;
	position: string;
	skills?: string[];
	/** Epoch ms. */
	scheduledAt: number;
	durationMinutes: number;
	interviewUrl: string;
	sequence: number;
	reason?: string | null;
	/** Absent in requests made before address changes counted: 0, the first address. */
	calendarGeneration?: number;
	addressReplaced?: boolean;
}

export type QueueEmailResult =
	/** Recorded now and handed to the e-mail queue. */
	| { status: "queued"; messageId: string }
	/** Recorded by an earlier call with the same message id; handed to the queue again if still unsent. */
	| { status: "duplicate"; messageId: string; emailStatus: "queued" | "sent" | "failed" }
	/** Test mode and dev data never e-mail a candidate. */
	| { status: "skipped"; reason: "test_mode" | "dev_environment" }
	/** The request itself is malformed (a caller bug); nothing was recorded. */
	| { status: "invalid"; issues: Record<string, string> };

/** The body of a message on the `interview-emails` queue: a reference to the recorded e-mail. */
export interface EmailQueueMessage {
	/** `candidate_emails` or `user_emails` (a dashboard user's invitation). */
	kind: "candidate_email" | "user_email";
	message_id: string;
}

export const DEFAULT_EMAIL_FROM = "interviews@example.com";
