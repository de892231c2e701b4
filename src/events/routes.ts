import { Hono } from "hono";
import { z } from "zod";
import { requireScope } from "../accounts/auth";
import { getDb } from "../platform/db/client";
import type { AppBindings } from "../platform/http/context";
import { ok } from "../platform/http/envelope";
import { AppError, validationError } from "../platform/http/errors";
import { apiOperation } from "../platform/http/openapi";
import { noQuery, pageLimit, validate } from "../platform/http/validation";
import { decodeCursor, encodeCursor } from "../platform/lib/cursor";
import { iso } from "../platform/lib/time";
import { EVENT_TYPES } from "./catalog";
import { type EventRow, findEvent, listEvents } from "./events-repo";
import { eventSchema } from "./openapi";

/** The event log, Stripe-style: every event once, newest first. */
export const eventRoutes = new Hono<AppBindings>();

const listQuery = z.strictObject({
	cursor: z.string().optional(),
	limit: pageLimit,
	type: z.enum(EVENT_TYPES, { error: "Must be a known event type" }).optional(),
	interview_id: z
		.string()
		.min(1, { error: "Must not be empty" })
		.max(64, { error: "Must be at most 64 characters" })
		.optional(),
});

export function eventView(row: EventRow) {
	return {
		id: row.id,
		type: row.type,
		interview_id: row.interviewId,
		data: row.data,
		test_mode: row.testMode,
		created_at: iso(row.createdAt),
	};
}

eventRoutes.get(
	"/",
	apiOperation({
		summary: "List events",
		description: "Every event once, newest first (docs/events.md).",
		tags: ["Events"],
		scopes: ["interviews:read"],
		query: listQuery,
		success: {
			status: 200,
			description: "A page of events",
			data: z.array(eventSchema),
			list: "withoutTotal",
		},
		errors: [],
	}),
	requireScope("interviews:read"),
	validate("query", listQuery),
	async (c) => {
		const q = c.req.valid("query");
		const auth = c.get("auth");
		const cursor = q.cursor === undefined ? null : decodeCursor("events", q.cursor);
		if (q.cursor !== undefined && !cursor) throw validationError({ cursor: "Not a cursor from this list" });
		const rows = await listEvents(
			getDb(c.env.DB),
			auth.accountId,
			auth.dataEnvironment,
			{ type: q.type, interviewId: q.interview_id },
			q.limit,
			cursor ? cursor.createdAt : null,
		);
		const hasMore = rows.length > q.limit;
		const page = rows.slice(0, q.limit);
		const last = page.at(-1);
		return c.json({
			success: true as const,
			data: page.map(eventView),
			pagination: {
				next_cursor: hasMore && last ? encodeCursor("events", { createdAt: last.seq, id: last.id }) : null,
				has_more: hasMore,
			},
			meta: { timestamp: iso(c.get("now")), request_id: c.get("requestId") },
		});
	},
);

eventRoutes.get(
	"/:id",
	apiOperation({
		summary: "Fetch an event",
		tags: ["Events"],
		scopes: ["interviews:read"],
		query: noQuery,
		success: { status: 200, description: "The event", data: eventSchema },
		errors: ["EVENT_NOT_FOUND"],
	}),
	requireScope("interviews:read"),
	validate("query", noQuery),
	async (c) => {
		const auth = c.get("auth");
		const id = c.req.param("id");
		const row = await findEvent(getDb(c.env.DB), auth.accountId, auth.dataEnvironment, id);
		if (!row) throw new AppError("EVENT_NOT_FOUND", `No event with id '${id}' exists.`, { id });
		return ok(c, eventView(row));
	},
);
