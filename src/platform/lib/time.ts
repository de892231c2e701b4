const ISO_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/i;

/**
 * Parses an ISO 8601 date-time with a zone designator; returns epoch ms or null. A date or time
 * that does not exist on the calendar (February 30th, 24:00, a 61st second) is null rather than
 * rolled over into the next day or month, as `Date.parse` would.
 */
export function parseIsoDateTime(value: string): number | null {
	const m = ISO_DATE_TIME.exec(value);
	if (!m) return null;
	const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = m
		.slice(1)
		.map((part) => (part === undefined ? 0 : Number(part))) as number[];
	const date = new Date(0);
	date.setUTCFullYear(year as number, (month as number) - 1, day as number);
	if (
		date.getUTCFullYear() !== year ||
		date.getUTCMonth() !== (month as number) - 1 ||
		date.getUTCDate() !== day ||
		(hour as number) > 23 ||
		(minute as number) > 59 ||
		(second as number) > 59 ||
		(offsetHours as number) > 23 ||
		(offsetMinutes as number) > 59
	) {
		return null;
	}
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? null : ms;
}

export function iso(ms: number): string {
	return new Date(ms).toISOString();
}

export function isoOrNull(ms: number | null | undefined): string | null {
	return ms == null ? null : iso(ms);
}
