import type { NoticeDetails } from "./model";

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
	"January",
	"February",
	"March",
	"April",
	"May",
	"June",
	"July",
	"August",
	"September",
	"October",
	"November",
	"December",
];

const pad = (n: number) => String(n).padStart(2, "0");

/** "Tuesday 1 December 2026, 15:00 UTC": spelled out so no reader mixes up day and month. */
export function formatUtc(ms: number): string {
	const d = new Date(ms);
	return `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

export function formatDuration(minutes: number): string {
	const hours = Math.floor(minutes / 60);
	const rest = minutes % 60;
	const h = hours === 1 ? "1 hour" : `${hours} hours`;
	const m = rest === 1 ? "1 minute" : `${rest} minutes`;
	if (hours === 0) return m;
	return rest === 0 ? h : `${h} ${m}`;
}

/**
 * A page that shows a UTC time in the reader's own time zone (their browser's), with the
 * interview's title and length. The link carries only the time, the length and the title.
 */
export function localTimeUrl(ms: number, durationMinutes: number, title: string): string {
	const d = new Date(ms);
	const isoCompact = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}`;
	const params = new URLSearchParams({
		msg: title,
		iso: isoCompact,
		p1: "1440",
		ah: String(Math.floor(durationMinutes / 60)),
		am: String(durationMinutes % 60),
	});
	return `https://www.timeanddate.com/worldclock/fixedtime.html?${params.toString()}`;
}

export function escapeHtml(value: string): string {
	return value
		.replaceAll("&", "&amp;")
		.replaceAll("<", "&lt;")
		.replaceAll(">", "&gt;")
		.replaceAll('"', "&quot;")
		.replaceAll("'", "&#39;");
}

/** Header-bound text (subject, display names) on one line, without other control characters. */
export function oneLine(value: string): string {
	return value
		.replace(/[\r\n\t]+/g, " ")
		.replace(/\p{Cc}/gu, "")
		.trim();
}

/** Control characters (C0, DEL, C1) other than tab, line feed and carriage return. */
const CONTROL = /(?![\t\n\r])\p{Cc}/gu;

/**
 * The notice's free text without control characters: callers may send them (a position with a
 * bell), but iCalendar text (RFC 5545 TSAFE-CHAR) and HTML have no place for them.
 */
export function printableDetails(d: NoticeDetails): NoticeDetails {
	const clean = (value: string) => value.replace(CONTROL, "");
	return {
		...d,
		position: clean(d.position),
		companyName: d.companyName === null ? null : clean(d.companyName),
		candidateName: d.candidateName === null ? null : clean(d.candidateName),
		reason: d.reason === null ? null : clean(d.reason),
		skills: d.skills.map(clean),
	};
}
