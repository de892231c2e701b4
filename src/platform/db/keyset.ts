import { and, type Column, eq, gt, lt, or, type SQL } from "drizzle-orm";
import type { Cursor } from "../lib/cursor";

/**
 * The rows after `cursor` in a list ordered by (created_at, id), newest first (`desc`) or oldest
 * first (`asc`); undefined (no condition) for the first page.
 */
export function afterCursor(
	createdAt: Column,
	id: Column,
	cursor: Cursor | null,
	order: "asc" | "desc" = "desc",
): SQL | undefined {
	if (!cursor) return undefined;
	const past = order === "desc" ? lt : gt;
	return or(past(createdAt, cursor.createdAt), and(eq(createdAt, cursor.createdAt), past(id, cursor.id)));
}
