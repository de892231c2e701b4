/** The calendar month (UTC) that counts an interview created at `now`: `YYYY-MM`. */
export function monthPeriod(now: number): string {
	const d = new Date(now);
	return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}

/** When the month of `now` ends (UTC): the first instant of the next month, epoch ms. */
export function monthResetsAt(now: number): number {
	const d = new Date(now);
	return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}
