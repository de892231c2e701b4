import { Hono } from "hono";
import { assertScope, resolveApiKey } from "../../accounts/auth";
import { recordKeyUse } from "../../accounts/key-usage";
import { getDb } from "../../platform/db/client";
import type { AppBindings } from "../../platform/http/context";
import { errorBody, ok } from "../../platform/http/envelope";
import { AppError } from "../../platform/http/errors";
import { appUrl, originOf, wsUrl } from "../../platform/http/urls";
import { readCappedBytes } from "../../platform/http/validation";
import { constantTimeEqual } from "../../platform/lib/crypto";
import { verifySignedPath } from "../../platform/lib/signing";
import { JOIN_OPENS_BEFORE_MS } from "../core/state-machine";
import {
	joinedSegment,
	parseSegmentFile,
	RECORDING_LIMITS,
	RECORDING_SEGMENT,
	recordingFile,
} from "../recordings/recordings";
import { interviewStub, isKnownInterview, readInterview } from "../stub";
import { CLIENT_JS } from "./client-bundle";
import { OBSERVER_TICKET_PREFIX, redeemObserverTicket } from "./observer-tickets";
import { joinPage, messagePage, newNonce, pagePolicy } from "./page";
import { strangerLimit } from "./stranger-limit";

/** Candidate traffic: the join page, its script, the WebSocket and recordings. No API key needed. */
export const roomRoutes = new Hono<AppBindings>({ strict: false });

const MAX_CHUNK_BYTES = 10 * 1024 * 1024;
const UPLOAD_GRACE_MS = 2 * 60_000;

roomRoutes.get("/room.js", (c) =>
	c.body(CLIENT_JS, 200, {
		"Content-Type": "text/javascript; charset=utf-8",
		"Cache-Control": "public, max-age=300",
	}),
);

roomRoutes.use("/join/:id", strangerLimit);
roomRoutes.use("/interview/:id", strangerLimit);
roomRoutes.use("/interview/:id/recordings", strangerLimit);

roomRoutes.get("/join/:id", async (c) => {
	const id = c.req.param("id");
	const token = c.req.query("token") ?? "";
	const state = await readInterview(c.env, id);
	c.header("Cache-Control", "no-store");
	c.header("Referrer-Policy", "no-referrer");
	// The page carries the join token: it may not be framed, nothing is sniffed or posted away, and
	// only its own nonce-bearing style and script run (one escaping slip cannot run script).
	const nonce = newNonce();
	c.header("Content-Security-Policy", pagePolicy(nonce, [originOf(appUrl(c)), originOf(wsUrl(c))]));
	c.header("X-Frame-Options", "DENY");
	c.header("X-Content-Type-Options", "nosniff");
	if (!state || !token || !constantTimeEqual(token, state.joinToken)) {
		return c.html(
			messagePage(
				"Interview not found",
				"This link does not lead to an interview. Check the link in your invitation e-mail.",
				nonce,
			),
			404,
		);
	}
	if (state.status === "cancelled") {
		return c.html(
			messagePage(
				"This interview was cancelled",
				`Please contact ${state.companyName ?? "the hiring team"} if you have questions.`,
				nonce,
			),
		);
	}
	if (state.status === "completed") {
		return c.html(messagePage("Thank you!", "This interview is complete. You can close this page.", nonce));
	}
	const base = appUrl(c);
	return c.html(
		joinPage(state, {
			token,
			wsUrl: wsUrl(c),
			recordUrl: `${base}/interview/${id}/recordings?token=${encodeURIComponent(token)}`,
			opensAt: state.scheduledAt - JOIN_OPENS_BEFORE_MS,
			now: c.get("now"),
			nonce,
		}),
	);
});

/**
 * `{ws_url}/interview/{id}/`: the candidate's join token, an API key of the owning account with
 * `interviews:read` (observer), or a dashboard observer ticket (`obt_...`, observer). Refusals come before the upgrade, in the error envelope.
 */
roomRoutes.get("/interview/:id", async (c) => {
	const id = c.req.param("id");
	if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
		throw new AppError("UPGRADE_REQUIRED", "Connect with a WebSocket upgrade.");
	}
	const token = c.req.query("token");
	if (!token)
		throw new AppError("AUTHENTICATION_REQUIRED", "Pass the join token or an API key as `token`.", {
			param_missing: "token",
		});
	if (!(await isKnownInterview(c.env, id)))
		throw new AppError("INTERVIEW_NOT_FOUND", `No interview with id '${id}' exists.`, { id });
	const headers = new Headers(c.req.raw.headers);
	headers.delete("X-Room-Role");
	headers.delete("X-Room-Account");
	headers.delete("X-Room-Environment");
	headers.delete("X-Room-Key");
	headers.delete("X-Room-Key-Expires");
	headers.delete("X-Room-Session");
	headers.set("X-Request-Id", c.get("requestId"));
	if (token.startsWith("svc_")) {
		const auth = await resolveApiKey(c, token);
		assertScope(auth, "interviews:read");
		// An observer's connection is a use of its key (throttled as the API's: key-usage.ts).
		recordKeyUse(c, auth.keyId, c.get("now"));
		headers.set("X-Room-Role", "observer");
		headers.set("X-Room-Account", auth.accountId);
		headers.set("X-Room-Environment", auth.dataEnvironment);
		// The object checks the key again while the connection lasts (revocation, expiry).
		headers.set("X-Room-Key", auth.keyId);
		if (auth.expiresAt !== null) headers.set("X-Room-Key-Expires", String(auth.expiresAt));
	} else if (token.startsWith(OBSERVER_TICKET_PREFIX)) {
		// The dashboard's live view: a one-connection ticket for this interview (observer-tickets.ts).
		const grant = await redeemObserverTicket(getDb(c.env.DB), token, id, c.get("now"));
		if (!grant) throw new AppError("INVALID_TOKEN", "The observer ticket is unknown, used or expired.");
		headers.set("X-Room-Role", "observer");
		headers.set("X-Room-Account", grant.accountId);
		headers.set("X-Room-Environment", grant.environment);
		// Sign-out closes the connection; the object also checks that the session still lasts.
		if (grant.sessionHash) headers.set("X-Room-Session", grant.sessionHash);
	} else {
		headers.set("X-Room-Role", "candidate");
	}
	const stub = c.env.INTERVIEW.get(c.env.INTERVIEW.idFromName(id));
	const response = await stub.fetch(new Request(c.req.raw.url, { headers }));
	// A refusal is re-wrapped so the app's middleware may still add its headers.
	return response.status === 101 ? response : new Response(response.body, response);
});

/** One recorded audio chunk from the candidate's browser, stored as its own R2 object. */
roomRoutes.post("/interview/:id/recordings", async (c) => {
	const id = c.req.param("id");
	const token = c.req.query("token") ?? "";
	// The token first, then the input (authentication before validation).
	const state = await readInterview(c.env, id);
	if (!state || !constantTimeEqual(token, state.joinToken)) {
		throw new AppError("INVALID_TOKEN", "The join link's token is missing or wrong.");
	}
	const chunk = c.req.query("chunk") ?? "";
	if (!/^\d{1,6}$/.test(chunk))
		throw new AppError("VALIDATION_ERROR", "chunk must be a whole number.", {
			chunk: "Must be a whole number",
		});
	const segment = c.req.query("segment");
	if (segment !== undefined && !RECORDING_SEGMENT.test(segment))
		throw new AppError("VALIDATION_ERROR", "segment must be 1 to 12 characters of 0-9 and a-z.", {
			segment: "Must be 1 to 12 characters of 0-9 and a-z",
		});
	// The browser sends its last chunk as the recorder stops, just after the interview completes.
	const recent = state.status === "completed" && c.get("now") - (state.completedAt ?? 0) < UPLOAD_GRACE_MS;
	if (state.status !== "in_progress" && !recent) {
		throw new AppError("INVALID_OPERATION", `The interview is ${state.status}; recording is closed.`, {
			current_status: state.status,
		});
	}
	const contentType = mediaType(c.req.header("Content-Type") ?? "audio/webm");
	if (!contentType) {
		throw new AppError("VALIDATION_ERROR", "A recording chunk must be sent as audio or video.", {
			"Content-Type": "Must be an audio/* or video/* media type",
		});
	}
	const body = await readCappedBytes(
		c.req.raw,
		MAX_CHUNK_BYTES,
		() => new AppError("PAYLOAD_TOO_LARGE", `Chunks are limited to ${MAX_CHUNK_BYTES} bytes.`),
	);
	const reserved = await interviewStub(c.env, id).reserveRecording(body.byteLength);
	if (!reserved.ok) {
		throw new AppError(
			"PAYLOAD_TOO_LARGE",
			`This interview's recording is full (at most ${RECORDING_LIMITS.chunks} chunks and ${RECORDING_LIMITS.bytes} bytes).`,
			{ max_chunks: RECORDING_LIMITS.chunks, max_bytes: RECORDING_LIMITS.bytes },
		);
	}
	const key = `recordings/${id}/${recordingFile(segment ?? null, Number(chunk))}`;
	// A chunk is written once: an upload under a number already taken is refused, not a replacement.
	const stored = await c.env.RECORDINGS.put(key, body, {
		onlyIf: { etagDoesNotMatch: "*" },
		httpMetadata: { contentType },
		customMetadata: { interview_id: id, uploaded_at: new Date(c.get("now")).toISOString() },
	});
	if (!stored) {
		throw new AppError("INVALID_OPERATION", `Chunk ${Number(chunk)} of this recording is already stored.`, {
			chunk: Number(chunk),
			...(segment === undefined ? {} : { segment }),
		});
	}
	return ok(c, { chunk: Number(chunk), bytes: body.byteLength }, 201);
});

/** `type/subtype` of an audio or video media type, lower-cased; null for anything else. */
function mediaType(header: string): string | null {
	const type = header.split(";")[0]?.trim().toLowerCase() ?? "";
	return /^(audio|video)\/[a-z0-9][a-z0-9.+-]*$/.test(type) ? type : null;
}

/** The headers of everything served from a recording: an audio or video type only, never a page. */
function recordingHeaders(contentType: string, size: number): Record<string, string> {
	return {
		// Served from the app's own origin: only an audio or video type, never sniffed, never a page.
		"Content-Type": mediaType(contentType) ?? "application/octet-stream",
		"X-Content-Type-Options": "nosniff",
		"Content-Security-Policy": "default-src 'none'; sandbox",
		"Content-Length": String(size),
		"Cache-Control": "private, no-store",
	};
}

/**
 * A recording chunk, or a segment's chunks joined into one file, behind a time-limited signed
 * URL (see `include_recordings`).
 */
roomRoutes.get("/recordings/:id/:file", async (c) => {
	const { id, file } = c.req.param();
	const secret = c.env.RECORDING_URL_SECRET;
	const path = `/recordings/${id}/${file}`;
	if (
		!secret ||
		!(await verifySignedPath(secret, path, c.req.query("expires"), c.req.query("sig"), c.get("now")))
	) {
		return c.json(
			errorBody(
				new AppError("NOT_FOUND", "This recording link is invalid or has expired."),
				c.get("requestId"),
				c.get("now"),
			),
			404,
		);
	}
	const noSuchRecording = () =>
		c.json(errorBody(new AppError("NOT_FOUND", "No such recording."), c.get("requestId"), c.get("now")), 404);
	const joined = parseSegmentFile(file);
	if (joined) {
		const segment = await joinedSegment(c.env, id, joined.segment);
		if (!segment) return noSuchRecording();
		c.executionCtx.waitUntil(segment.done);
		return new Response(segment.body, { headers: recordingHeaders(segment.contentType, segment.size) });
	}
	const object = await c.env.RECORDINGS.get(`recordings/${id}/${file}`);
	if (!object) return noSuchRecording();
	return new Response(object.body, {
		headers: recordingHeaders(object.httpMetadata?.contentType ?? "", object.size),
	});
});
