// Request bodies the bench and the floors script send.

/** Interviews are scheduled a week ahead, as callers usually do; the live room's start now. */
export const WEEK_AHEAD = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();

/** The `i`th bench interview; `scheduledAt` null schedules it for now. */
export const interviewBody = (i, scheduledAt = WEEK_AHEAD) => ({
	candidate_email: `candidate${i}@example.com`,
	candidate_name: `Candidate ${i}`,
	position: "Backend Engineer",
	skills: ["TypeScript", "SQL"],
	duration_minutes: 60,
	send_invitation: false,
	...(scheduledAt ? { scheduled_at: scheduledAt } : {}),
});
