import { type Context, Hono, type MiddlewareHandler } from "hono";
import { validator } from "hono/validator";
import { z } from "zod";
import { assertScope, requireScope } from "../../accounts/auth";
import { countWithWrite } from "../../accounts/rate-limit-middleware";
import { IDEMPOTENCY_HEADER, idempotent } from "../../idempotency/middleware";
import { getDb } from "../../platform/db/client";
import type { AppBindings } from "../../platform/http/context";
import { ok, okList, okWithoutMeta } from "../../platform/http/envelope";
import { validationError } from "../../platform/http/errors";
import { apiOperation, jsonSchema } from "../../platform/http/openapi";
import { appUrl } from "../../platform/http/urls";
import { noQuery, validate, validateJson } from "../../platform/http/validation";
import { decodeCursor, encodeCursor } from "../../platform/lib/cursor";
import { randomBase62 } from "../../platform/lib/random";
import { parseIsoDateTime } from "../../platform/lib/time";
import { listInterviews } from "../db/interviews-repo";
import { recordingLinks } from "../recordings/recordings";
import {
	checkScheduledAt,
	commandInterview,
	createInterview,
	loadOwnedInterview,
	parsedScheduledAt,
} from "../service";
import { bulkRoutes } from "./bulk-routes";
import {
	cancelledInterviewSchema,
	createdInterviewSchema,
	fullInterviewSchema,
	listItemSchema,
	updatedInterviewSchema,
} from "./openapi";
import { interviewReadAhead, readAhead, recordingsReadAhead } from "./read-ahead";
import { cancelQuery, createInterviewBody, fetchQuery, listQuery, updateInterviewBody } from "./schemas";
import { parseCreateRequest, setupGuideCreateBody } from "./setup-guide";
import { setupGuideRoutes } from "./setup-guide-routes";
import { cancelledView, createdView, fullView, listItemView, updatedView } from "./views";

export const interviewRoutes = new Hono<AppBindings>();

/**
 * Both create bodies, parsed before idempotency (the order of checks puts validation first), with
 * `scheduled_at` read (absent: now); it is judged against the request's time after idempotency
 * (`scheduleChecked`).
 */
const createRequest = validator("json", (value, c: Context<AppBindings>) => {
	const request = parseCreateRequest(value, { acceptSetupGuide: c.req.path.startsWith("/api/") });
	return { ...request, scheduledAt: parsedScheduledAt(request.body.scheduled_at, c.get("now")) };
});

/** An update's body, with a new `scheduled_at` read; it is judged after idempotency too. */
const updateRequest = validateJson(updateInterviewBody, (body, c) => {
	if (body.scheduled_at !== undefined) parsedScheduledAt(body.scheduled_at, c.get("now"));
	return body;
});

/**
 * `scheduled_at` judged against the request's time (not past, at most 5 years ahead), in the
 * handler, after idempotency: a retry of a request that succeeded gets its stored answer even
 * once the time it asked for has passed, instead of a refusal that would say it failed. A refusal
 * here is a validation error as before, and stores nothing under the request's key.
 */
function judgeScheduledAt(c: Context<AppBindings>, at: number): void {
	try {
		checkScheduledAt(at, c.get("now"));
	} catch (error) {
		c.set("idempotencyTransient", true);
		throw error;
	}
}

/** A create with an Idempotency-Key takes the key in D1: it is counted before that, as usual. */
const countedBeforeIdempotency: MiddlewareHandler<AppBindings> = async (c, next) => {
	if (c.req.header(IDEMPOTENCY_HEADER) !== undefined) await c.get("requestCount").counted();
	await next();
};

/**
 * A single create sends its rate-limit count with its write: one call to the account object
 * counts the request, admits a live interview and writes it (`RequestCount.withCreate`), unless
 * the request was counted already (a refusal, an Idempotency-Key).
 */
interviewRoutes.post(
	"/",
	apiOperation({
		summary: "Create an interview",
		description:
			"Schedules an AI-conducted interview and (with a live key and send_invitation) e-mails the candidate. Under /api/v1 the setup guide's body (job, skills_to_assess, difficulty_level) is accepted too.",
		tags: ["Interviews"],
		scopes: ["interviews:write"],
		query: noQuery,
		body: { anyOf: [jsonSchema(createInterviewBody, "input"), jsonSchema(setupGuideCreateBody, "input")] },
		success: { status: 201, description: "Created", data: createdInterviewSchema },
		errors: ["INSUFFICIENT_CREDITS", "QUOTA_EXCEEDED", "INVALID_OPERATION"],
		idempotent: true,
	}),
	countWithWrite,
	requireScope("interviews:write"),
	validate("query", noQuery),
	createRequest,
	countedBeforeIdempotency,
	idempotent,
	async (c) => {
		const now = c.get("now");
		const setupGuidePrefix = c.req.path.startsWith("/api/");
		const request = c.req.valid("json");
		judgeScheduledAt(c, request.scheduledAt);
		const urls = { appUrl: appUrl(c) };
		const count = c.get("requestCount");
		const state = await createInterview(
			c.env,
			c.get("auth"),
			request.body,
			{
				scheduledAt: request.scheduledAt,
				now,
				appUrl: urls.appUrl,
				...(request.kind === "setup_guide" ? { job: request.job } : {}),
			},
			count.pending ? count : undefined,
		);
		const created = createdView(state, urls);
		if (!setupGuidePrefix) return ok(c, created, 201);
		// The setup guide names the id and the link its own way, whichever body it was sent.
		return ok(c, { ...created, session_id: created.id, candidate_link: created.interview_url }, 201);
	},
);

interviewRoutes.get(
	"/",
	apiOperation({
		summary: "List interviews",
		description: "Newest first, filtered, paginated with cursor and limit.",
		tags: ["Interviews"],
		scopes: ["interviews:read"],
		query: listQuery,
		success: {
			status: 200,
			description: "A page of interviews",
			data: z.array(listItemSchema),
			list: "withTotal",
		},
		errors: [],
	}),
	requireScope("interviews:read"),
	validate("query", listQuery),
	async (c) => {
		const q = c.req.valid("query");
		const auth = c.get("auth");
		const cursor = q.cursor === undefined ? null : decodeCursor("interviews", q.cursor);
		if (q.cursor !== undefined && cursor === null) {
			throw validationError({
				cursor: "Not a cursor from this list; pass pagination.next_cursor unchanged",
			});
		}
		const time = (v: string | undefined) => (v === undefined ? undefined : (parseIsoDateTime(v) as number));
		const { rows, total } = await listInterviews(
			getDb(c.env.DB),
			auth.accountId,
			auth.dataEnvironment,
			{
				status: q.status,
				candidateEmail: q.candidate_email,
				position: q.position,
				createdAfter: time(q.created_after),
				createdBefore: time(q.created_before),
				scheduledAfter: time(q.scheduled_after),
				scheduledBefore: time(q.scheduled_before),
			},
			q.limit,
			cursor,
		);
		const hasMore = rows.length > q.limit;
		const page = hasMore ? rows.slice(0, q.limit) : rows;
		const last = page.at(-1);
		return okList(
			c,
			page.map((row) => listItemView(row, q.include_results)),
			{
				next_cursor:
					hasMore && last ? encodeCursor("interviews", { createdAt: last.createdAt, id: last.id }) : null,
				has_more: hasMore,
				total_count: total,
			},
		);
	},
);

/**
 * `include_recordings=true` needs `interviews:read_recordings` too, checked before the query is
 * validated (scope comes before validation): the flag alone decides, whatever else is wrong.
 */
const recordingsScope: MiddlewareHandler<AppBindings> = async (c, next) => {
	if (c.req.query("include_recordings") === "true") assertScope(c.get("auth"), "interviews:read_recordings");
	await next();
};

interviewRoutes.get(
	"/:id",
	apiOperation({
		summary: "Fetch an interview",
		description:
			"The full form; results, analytics, transcript and recordings on request. The only answer without `meta`. include_recordings needs interviews:read_recordings too.",
		tags: ["Interviews"],
		scopes: ["interviews:read"],
		query: fetchQuery,
		success: { status: 200, description: "The interview", data: fullInterviewSchema, withoutMeta: true },
		errors: ["INTERVIEW_NOT_FOUND"],
	}),
	readAhead,
	requireScope("interviews:read"),
	recordingsScope,
	validate("query", fetchQuery),
	async (c) => {
		const q = c.req.valid("query");
		const id = c.req.param("id");
		const state = await loadOwnedInterview(c.env, c.get("auth"), id, interviewReadAhead(c, id));
		// R2 is listed unless the interview's object says its recording holds no chunk.
		const recordings = q.include_recordings
			? (await recordingsReadAhead(c, id)) === false
				? { chunks: [], segments: [] }
				: await recordingLinks(c.env, state.id, appUrl(c), c.get("now"))
			: undefined;
		return okWithoutMeta(
			c,
			fullView(
				state,
				{ appUrl: appUrl(c) },
				{ includeResults: q.include_results, includeTranscript: q.include_transcript, recordings },
			),
		);
	},
);

interviewRoutes.patch(
	"/:id",
	apiOperation({
		summary: "Update or reschedule an interview",
		tags: ["Interviews"],
		scopes: ["interviews:write"],
		query: noQuery,
		body: updateInterviewBody,
		success: { status: 200, description: "Updated", data: updatedInterviewSchema },
		errors: [
			"INTERVIEW_NOT_FOUND",
			"INTERVIEW_IN_PROGRESS",
			"INTERVIEW_ALREADY_CANCELLED",
			"INVALID_OPERATION",
		],
		idempotent: true,
	}),
	countWithWrite,
	requireScope("interviews:write"),
	validate("query", noQuery),
	updateRequest,
	countedBeforeIdempotency,
	idempotent,
	async (c) => {
		const body = c.req.valid("json");
		const time = (v: string | undefined) => (v === undefined ? undefined : (parseIsoDateTime(v) as number));
		const scheduledAt = time(body.scheduled_at);
		if (scheduledAt !== undefined) judgeScheduledAt(c, scheduledAt);
		const result = await commandInterview(
			c.env,
			c.get("auth"),
			c.req.param("id"),
			{
				type: "update",
				changes: {
					scheduled_at: scheduledAt,
					candidate_email: body.candidate_email,
					position: body.position,
					skills: body.skills,
					duration_minutes: body.duration_minutes,
					difficulty: body.difficulty,
					company_name: body.company_name,
					instructions: body.instructions,
				},
				sendNotification: body.send_notification && notifies(c),
				rescheduleReason: body.reschedule_reason ?? null,
				newJoinToken: randomBase62(32),
			},
			c.get("now"),
			c.get("requestCount"),
		);
		return ok(c, updatedView(result.interview, result.notificationQueued, { appUrl: appUrl(c) }));
	},
);

/**
 * Only live keys e-mail candidates: a test key never does ("no candidate notifications"; it cannot
 * change a live interview at all, docs/decisions.md); dev interviews are test-mode anyway.
 */
function notifies(c: Context<AppBindings>): boolean {
	return c.get("auth").keyEnvironment === "live";
}

interviewRoutes.delete(
	"/:id",
	apiOperation({
		summary: "Cancel an interview",
		description: "Options are query parameters; a body is refused.",
		tags: ["Interviews"],
		scopes: ["interviews:delete"],
		query: cancelQuery,
		success: { status: 200, description: "Cancelled", data: cancelledInterviewSchema },
		errors: [
			"INTERVIEW_NOT_FOUND",
			"INTERVIEW_IN_PROGRESS",
			"INTERVIEW_ALREADY_CANCELLED",
			"INVALID_OPERATION",
		],
		idempotent: true,
	}),
	countWithWrite,
	requireScope("interviews:delete"),
	validate("query", cancelQuery),
	countedBeforeIdempotency,
	idempotent,
	async (c) => {
		const q = c.req.valid("query");
		const result = await commandInterview(
			c.env,
			c.get("auth"),
			c.req.param("id"),
			{
				type: "cancel",
				reason: q.reason ?? null,
				sendNotification: q.send_notification && notifies(c),
				refundCredits: q.refund_credits,
			},
			c.get("now"),
			c.get("requestCount"),
		);
		return ok(c, cancelledView(result.interview, result.creditsRefunded, result.notificationQueued));
	},
);

interviewRoutes.route("/", bulkRoutes);
interviewRoutes.route("/", setupGuideRoutes);
