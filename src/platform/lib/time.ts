import { z } from "zod";

/**
 * The ISO 8601 spellings accepted: seconds and fraction optional, `T`/`Z` in either case, an
 * offset with or without its colon (`-05:30`, `-0530`).
 */
const ISO_8601 = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** zod's RFC 3339 date-time, which knows the calendar: the form every accepted spelling is written in. */
const RFC_3339 = z.iso.datetime({ offset: true });

/**
 * Parses an ISO 8601 date-time with a zone designator; returns epoch ms or null. A date or time
 * that does not exist on the calendar (February 30th, 24:00, a 61st second) is null rather than
 * rolled over into the next day or month, as `Date.parse` would.
 */
export function parseIsoDateTime(value: string): number | null {
	const m = ISO_8601.exec(value);
	if (!m) return null;
	const [, date, hhmm, seconds = ":00", zone = ""] = m;
	const offset = zone.toUpperCase() === "Z" ? "Z" : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
	const rfc3339 = `${date}T${hhmm}${seconds}${offset}`;
	if (!RFC_3339.safeParse(rfc3339).success) return null;
	const ms = Date.parse(rfc3339);
	return Number.isNaN(ms) ? null : ms;
}

export function iso(ms: number): string {
	return new Date(ms).toISOString();
}

export function isoOrNull(ms: number | null | undefined): string | null {
	return ms == null ? null : iso(ms);
}
