/** Parses an ISO 8601 date-time with a zone designator; returns epoch ms or null. */
export function parseIsoDateTime(value: string): number | null {
	if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.test(value)) {
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
