import * as z from "zod/mini";

/**
 * The real-time channel's messages (decisions.md): one zod union per direction, shared by the
 * interview's Durable Object and the candidate page (zod's small build, so the page stays light). Every server message carries `seq`,
 * increasing per interview.
 */

export const questionShape = z.object({
	id: z.string(),
	text: z.string(),
	skill: z.string(),
	difficulty: z.enum(["junior", "intermediate", "senior", "expert"]),
	index: z.int(),
	total: z.int(),
});
export type WireQuestion = z.infer<typeof questionShape>;

export const roomInterview = z.object({
	id: z.string(),
	status: z.enum(["scheduled", "in_progress", "completed", "cancelled"]),
	current_question: z.nullable(questionShape),
	position: z.string(),
	company_name: z.nullable(z.string()),
	skills: z.array(z.string()),
	duration_minutes: z.int(),
	scheduled_at: z.string(),
	started_at: z.nullable(z.string()),
	/** When the interview ends by itself (started_at + duration). */
	ends_at: z.nullable(z.string()),
	completed_at: z.nullable(z.string()),
	questions_answered: z.int(),
	questions_total: z.nullable(z.int()),
	/** The candidate has joined but waits for a free slot of the account. */
	waiting: z.boolean(),
});
export type RoomInterview = z.infer<typeof roomInterview>;

export const serverMessage = z.discriminatedUnion("type", [
	z.object({ type: z.literal("interview_update"), seq: z.int(), interview: roomInterview }),
	z.object({ type: z.literal("question"), seq: z.int(), question: questionShape }),
	z.object({ type: z.literal("error"), seq: z.int(), code: z.string(), message: z.string() }),
]);
export type ServerMessage = z.infer<typeof serverMessage>;

export const MAX_RESPONSE_CHARS = 20_000;

export const clientMessage = z.discriminatedUnion("type", [
	z.strictObject({
		type: z.literal("candidate_response"),
		session_id: z.string(),
		question_id: z.string(),
		response: z.string().check(z.maxLength(MAX_RESPONSE_CHARS)),
		timestamp: z.string(),
	}),
	z.strictObject({ type: z.literal("end_interview") }),
	z.strictObject({ type: z.literal("resync"), after_seq: z.int().check(z.minimum(0)) }),
]);
export type ClientMessage = z.infer<typeof clientMessage>;

/** Messages a server sends without a sequence number yet (the room assigns it). */
export type OutgoingMessage =
	| { type: "interview_update"; interview: RoomInterview }
	| { type: "question"; question: WireQuestion }
	| { type: "error"; code: string; message: string };
