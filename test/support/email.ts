import ICAL from "ical.js";
import PostalMime, { type Email } from "postal-mime";
import type { NoticeDetails } from "../../src/email/model";

/** 2026-12-01T15:00:00Z, a Tuesday. */
export const SCHEDULED_AT = Date.UTC(2026, 11, 1, 15, 0, 0);
export const NOW = Date.UTC(2026, 10, 20, 9, 30, 0);
export const JOIN_URL = "https://app.example.test/join/int_abc?token=secret-join-token";

export function noticeDetails(overrides: Partial<NoticeDetails> = {}): NoticeDetails {
	return {
		template: "invitation",
		interviewId: "int_0123456789abcdefghijABCD",
		candidateEmail: "ada@example.com",
		candidateName: "Ada Lovelace",
		companyName: "Acme Corp",
		position: "Backend Engineer",
		skills: ["TypeScript", "SQL"],
		scheduledAt: SCHEDULED_AT,
		durationMinutes: 45,
		interviewUrl: JOIN_URL,
		sequence: 0,
		reason: null,
		calendarGeneration: 0,
		addressReplaced: false,
		openAtSend: false,
		...overrides,
	};
}

export interface ParsedEvent {
	method: string | null;
	uid: string;
	sequence: number;
	status: string | null;
	start: Date;
	end: Date;
	durationMinutes: number;
	startIsUtc: boolean;
	summary: string;
	organizer: string | null;
	attendee: string | null;
	description: string;
}

/** Parses an iCalendar text with ical.js (an independent implementation) and returns its one event. */
export function parseIcs(text: string): ParsedEvent {
	const calendar = new ICAL.Component(ICAL.parse(text));
	const vevents = calendar.getAllSubcomponents("vevent");
	if (vevents.length !== 1) throw new Error(`expected one VEVENT, found ${vevents.length}`);
	const vevent = vevents[0]!;
	const event = new ICAL.Event(vevent);
	return {
		method: (calendar.getFirstPropertyValue("method") as string | null) ?? null,
		uid: event.uid,
		sequence: event.sequence,
		status: (vevent.getFirstPropertyValue("status") as string | null) ?? null,
		start: event.startDate.toJSDate(),
		end: event.endDate.toJSDate(),
		durationMinutes: event.duration.toSeconds() / 60,
		startIsUtc: event.startDate.zone?.tzid === "UTC",
		summary: event.summary,
		organizer: String(vevent.getFirstPropertyValue("organizer") ?? "") || null,
		attendee: String(vevent.getFirstPropertyValue("attendee") ?? "") || null,
		description: event.description,
	};
}

export function parseMime(raw: string): Promise<Email> {
	return PostalMime.parse(raw, { attachmentEncoding: "utf8" });
}
