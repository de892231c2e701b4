import { describe, expect, it } from "vitest";
import { calendarUid, renderCalendar } from "../../src/email/calendar";
import { NOW, noticeDetails, parseIcs, SCHEDULED_AT } from "../support/email";

const organizer = { organizerEmail: "interviews@example.com", organizerName: "Acme Corp (via Interviews)" };

describe("calendar invitation", () => {
	it("invites with METHOD:REQUEST at the scheduled UTC time for the interview's duration", () => {
		const ics = renderCalendar({ details: noticeDetails(), ...organizer, now: NOW });
		const event = parseIcs(ics);
		expect(event.method).toBe("REQUEST");
		expect(event.uid).toBe(calendarUid("int_0123456789abcdefghijABCD"));
		expect(event.sequence).toBe(0);
		expect(event.status).toBe("CONFIRMED");
		expect(event.start.getTime()).toBe(SCHEDULED_AT);
		expect(event.startIsUtc).toBe(true);
		expect(event.end.getTime()).toBe(SCHEDULED_AT + 45 * 60_000);
		expect(event.durationMinutes).toBe(45);
		expect(event.summary).toBe("Interview: Backend Engineer (Acme Corp)");
		expect(event.organizer?.toLowerCase()).toBe("mailto:interviews@example.com");
		expect(event.attendee?.toLowerCase()).toBe("mailto:ada@example.com");
		expect(event.description).toContain(
			"Join: https://app.example.test/join/int_abc?token=secret-join-token",
		);
		expect(ics).toMatch(/^DTSTART:20261201T150000Z\r$/m);
		expect(ics.endsWith("END:VCALENDAR\r\n")).toBe(true);
		expect(ics).not.toMatch(/[^\r]\n/);
	});

	it("reschedules the same event with a higher SEQUENCE and the new time", () => {
		const later = SCHEDULED_AT + 2 * 86_400_000;
		const first = parseIcs(renderCalendar({ details: noticeDetails(), ...organizer, now: NOW }));
		const moved = parseIcs(
			renderCalendar({
				details: noticeDetails({ template: "update", scheduledAt: later, durationMinutes: 90, sequence: 3 }),
				...organizer,
				now: NOW,
			}),
		);
		expect(moved.method).toBe("REQUEST");
		expect(moved.uid).toBe(first.uid);
		expect(moved.sequence).toBe(3);
		expect(moved.start.getTime()).toBe(later);
		expect(moved.end.getTime()).toBe(later + 90 * 60_000);
	});

	it("cancels the same event with METHOD:CANCEL and STATUS:CANCELLED", () => {
		const event = parseIcs(
			renderCalendar({
				details: noticeDetails({ template: "cancellation", sequence: 4, reason: "Position filled" }),
				...organizer,
				now: NOW,
			}),
		);
		expect(event.method).toBe("CANCEL");
		expect(event.status).toBe("CANCELLED");
		expect(event.uid).toBe(calendarUid("int_0123456789abcdefghijABCD"));
		expect(event.sequence).toBe(4);
		expect(event.start.getTime()).toBe(SCHEDULED_AT);
		expect(event.description).toContain("Reason given: Position filled");
	});

	it("gives each address of an interview its own event: a changed address's invitation is a new UID", () => {
		const id = "int_0123456789abcdefghijABCD";
		const uidOf = (generation: number) =>
			parseIcs(
				renderCalendar({
					details: noticeDetails({ calendarGeneration: generation }),
					...organizer,
					now: NOW,
				}),
			).uid;
		expect(uidOf(0)).toBe(`${id}@interview-assessment-service`);
		expect(uidOf(1)).toBe(`${id}.1@interview-assessment-service`);
		expect(new Set([uidOf(0), uidOf(1), uidOf(2)]).size).toBe(3);
	});
});
