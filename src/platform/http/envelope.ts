import type { Context } from "hono";
import { iso } from "../lib/time";
import type { AppBindings } from "./context";
import type { AppError } from "./errors";

export interface Pagination {
	next_cursor: string | null;
	has_more: boolean;
	total_count: number;
}

export function meta(c: Context<AppBindings>) {
	return {
		timestamp: iso(c.get("now")),
		request_id: c.get("requestId"),
	};
}

/** Success envelope with `meta` (every response but the single-interview fetch). */
export function ok<T>(c: Context<AppBindings>, data: T, status: 200 | 201 = 200) {
	return c.json({ success: true as const, data, meta: meta(c) }, status);
}

/** Success envelope without `meta`: the single-interview fetch, as decisions.md requires. */
export function okWithoutMeta<T>(c: Context<AppBindings>, data: T) {
	return c.json({ success: true as const, data }, 200);
}

export function okList<T>(c: Context<AppBindings>, data: T[], pagination: Pagination) {
	return c.json({ success: true as const, data, pagination, meta: meta(c) }, 200);
}

export function errorBody(
	error: Pick<AppError, "code" | "message" | "details">,
	requestId: string,
	now: number,
) {
	return {
		success: false as const,
		error: {
			code: error.code,
			message: error.message,
			...(error.details === undefined ? {} : { details: error.details }),
		},
		meta: { timestamp: iso(now), request_id: requestId },
	};
}
