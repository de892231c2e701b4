import { type Cursor, type CursorList, decodeCursor, encodeCursor } from "../platform/lib/cursor";
import type { DashContext } from "./guard";

/** Rows a settings page (API keys, team) shows at once. */
export const SETTINGS_PAGE_SIZE = 50;

/** The page's `cursor` parameter, or null for the first page (also for one that is not this list's). */
export function cursorOf(c: DashContext, list: CursorList): Cursor | null {
	const value = c.req.query("cursor");
	return value ? decodeCursor(list, value) : null;
}

/** A page of rows read with one extra (`limit + 1`), and the cursor of the page after it, if any. */
export function pageOf<T extends Cursor>(
	rows: T[],
	limit: number,
	list: CursorList,
): { rows: T[]; next: string | null } {
	if (rows.length <= limit) return { rows, next: null };
	const shown = rows.slice(0, limit);
	const last = shown[shown.length - 1] as T;
	return { rows: shown, next: encodeCursor(list, { createdAt: last.createdAt, id: last.id }) };
}

/** The links under a paged table: the next page, and the first from a later one. */
export function PageLinks(props: { base: string; next: string | null; later: boolean }) {
	if (!props.next && !props.later) return null;
	return (
		<p>
			{props.later ? <a href={props.base}>First page</a> : null}
			{props.later && props.next ? " · " : null}
			{props.next ? (
				<a href={`${props.base}?cursor=${encodeURIComponent(props.next)}`} rel="next">
					Next page
				</a>
			) : null}
		</p>
	);
}
