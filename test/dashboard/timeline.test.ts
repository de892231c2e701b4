import { describe, expect, it } from "vitest";
import { timelineText } from "../../src/dashboard/timeline";

describe("the interview page's timeline in words", () => {
	it("says what each event of an interview's life was, with its details", () => {
		const cases: [string, Record<string, unknown>, string][] = [
			[
				"interview.scheduled",
				{ scheduled_at: "2030-01-15T14:00:00.000Z" },
				"Scheduled for 2030-01-15 14:00 UTC",
			],
			[
				"interview.updated",
				{ updated_fields: ["position", "candidate_email", "duration_minutes"] },
				"Changed: position, candidate's e-mail, duration",
			],
			[
				"interview.rescheduled",
				{
					previous_scheduled_at: "2030-01-15T14:00:00.000Z",
					scheduled_at: "2030-01-16T09:30:00.000Z",
					reason: "Candidate asked",
				},
				"Moved from 2030-01-15 14:00 UTC to 2030-01-16 09:30 UTC (reason: Candidate asked)",
			],
			["interview.cancelled", { reason: null }, "Cancelled"],
			["interview.cancelled", { reason: "Position filled" }, "Cancelled (reason: Position filled)"],
			["credits.refunded", { credits_refunded: 1 }, "1 credit refunded"],
			["credits.refunded", { credits_refunded: 2 }, "2 credits refunded"],
			["candidate.joined", {}, "The candidate joined"],
			["interview.started", {}, "The interview started"],
			[
				"interview.completed",
				{
					completion_reason: "questions_answered",
					duration_minutes: 24,
					results: { overall_score: 71, recommendation: "no_hire" },
				},
				"Completed: every question answered, 24 minutes, overall 71 of 100, advice: no hire",
			],
			[
				"interview.completed",
				{ completion_reason: "candidate_ended", duration_minutes: 1 },
				"Completed: ended by the candidate, 1 minute",
			],
			["results.analyzed", {}, "Results analysed"],
			["candidate.no_show", {}, "The candidate had not joined 15 minutes after the start"],
			["candidate.notified", { template: "update" }, "E-mailed the candidate the change"],
			["candidate.notified", { template: "invitation" }, "E-mailed the candidate the invitation"],
		];
		for (const [type, data, expected] of cases) expect(timelineText(type, data), type).toBe(expected);
	});

	it("falls back to the type's own words when a payload lacks its fields, and to the type itself when unknown", () => {
		expect(timelineText("interview.scheduled", {})).toBe("Scheduled for an unknown time");
		expect(timelineText("interview.updated", { updated_fields: "position" })).toBe("Changed");
		expect(timelineText("interview.updated", { updated_fields: ["brand_new_field"] })).toBe(
			"Changed: brand_new_field",
		);
		expect(timelineText("interview.completed", { results: null })).toBe("Completed");
		expect(timelineText("credits.refunded", {})).toBe("Credits refunded");
		expect(timelineText("candidate.notified", { template: 7 })).toBe("E-mailed the candidate");
		expect(timelineText("something.new", { a: 1 })).toBe("something.new");
	});
});
