import ical, {
	ICalAttendeeRole,
	ICalAttendeeStatus,
	ICalCalendarMethod,
	ICalEventStatus,
} from "ical-generator";
import { formatDuration, oneLine } from "./format";
import type { NoticeDetails } from "./model";
import { eventTitle } from "./templates";

/**
 * The same UID on every notice of one interview to one address, so calendars update or remove one
 * event. After the candidate's address changes (`generation` counts the changes), the new address's
 * notices have a UID of their own: its invitation is a new event, never one the old address's
 * withdrawal removes.
 */
export function calendarUid(interviewId: string, generation = 0): string {
	return generation === 0
		? `${interviewId}@interview-assessment-service`
		: `${interviewId}.${generation}@interview-assessment-service`;
}

export interface CalendarInput {
	details: NoticeDetails;
	organizerEmail: string;
	organizerName: string;
	/** DTSTAMP: when this notice was made (epoch ms). */
	now: number;
}

/** `METHOD:CANCEL` for a cancellation, `METHOD:REQUEST` for an invitation or an update. */
export function calendarMethodOf(template: NoticeDetails["template"]): "REQUEST" | "CANCEL" {
	return template === "cancellation" ? "CANCEL" : "REQUEST";
}

/** An iTIP calendar object (RFC 5546) for one notice, times in UTC. */
export function renderCalendar({ details: d, organizerEmail, organizerName, now }: CalendarInput): string {
	const cancel = d.template === "cancellation";
	const calendar = ical({
		prodId: { company: "Interview Assessment Service", product: "interviews", language: "EN" },
		method: cancel ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
	});
	const lines = [
		cancel ? "This interview has been cancelled." : `Join: ${d.interviewUrl}`,
		`Position: ${oneLine(d.position)}`,
		...(d.companyName ? [`Company: ${oneLine(d.companyName)}`] : []),
		`Duration: about ${formatDuration(d.durationMinutes)}`,
		...(d.reason ? [`Reason given: ${d.reason}`] : []),
	];
	calendar.createEvent({
		id: calendarUid(d.interviewId, d.calendarGeneration),
		sequence: d.sequence,
		stamp: new Date(now),
		start: new Date(d.scheduledAt),
		end: new Date(d.scheduledAt + d.durationMinutes * 60_000),
		summary: eventTitle(d),
		description: lines.join("\n"),
		location: d.interviewUrl,
		url: d.interviewUrl,
		status: cancel ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
		organizer: { name: oneLine(organizerName), email: organizerEmail },
		attendees: [
			{
				email: d.candidateEmail,
				...(d.candidateName ? { name: oneLine(d.candidateName) } : {}),
				role: ICalAttendeeRole.REQ,
				status: ICalAttendeeStatus.NEEDSACTION,
				rsvp: !cancel,
			},
		],
	});
	// RFC 5545 ends every content line, the last one included, with CRLF.
	return `${calendar.toString()}\r\n`;
}
