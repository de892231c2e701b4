import { errorBody } from "../../platform/http/envelope";
import { AppError, type ErrorCode } from "../../platform/http/errors";
import { ILL_FORMED_MESSAGE, illFormedPath, issueFields } from "../../platform/http/validation";
import { parseIsoDateTime } from "../../platform/lib/time";
import type { TransitionError } from "../core/state-machine";
import { type ClientMessage, clientMessage, type OutgoingMessage } from "./protocol";

/** A client frame as a checked message, or the error frame that answers it. */
export function parseClientFrame(
	raw: string | ArrayBuffer,
): { ok: true; message: ClientMessage } | { ok: false; error: OutgoingMessage } {
	const notAnObject = {
		ok: false as const,
		error: { type: "error" as const, code: "BAD_MESSAGE", message: "Messages must be JSON objects." },
	};
	let parsed: unknown;
	try {
		parsed = JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw));
	} catch {
		return notAnObject;
	}
	// `null`, `[]`, `"x"` and `1` are JSON but not messages: said as for text that is not JSON.
	if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return notAnObject;
	const illFormed = illFormedPath(parsed, []);
	if (illFormed !== null) {
		return {
			ok: false,
			error: {
				type: "error",
				code: "BAD_MESSAGE",
				message: `Not a valid message: ${illFormed}: ${ILL_FORMED_MESSAGE}.`,
			},
		};
	}
	const result = clientMessage.safeParse(parsed);
	if (result.success) {
		// ISO 8601 with its zone, as the contract names it: the duplicate check compares it, so a
		// value that is no time at all is refused rather than compared. Checked here, not in the
		// schema the candidate page shares, which stays free of the API's date parsing.
		const message = result.data;
		if (message.type === "candidate_response" && parseIsoDateTime(message.timestamp) === null) {
			return {
				ok: false,
				error: {
					type: "error",
					code: "BAD_MESSAGE",
					message:
						"Not a valid message: timestamp: Must be an ISO 8601 date-time with a time zone, e.g. 2030-01-15T14:00:00Z.",
				},
			};
		}
		return { ok: true, message };
	}
	// The first field at fault, in the API's words ("after_seq: Must be at least 0").
	const [field] = Object.entries(issueFields(result.error.issues, { input: parsed }));
	return {
		ok: false,
		error: {
			type: "error",
			code: "BAD_MESSAGE",
			message: `Not a valid message${field ? `: ${field[0]}: ${field[1]}` : ""}.`,
		},
	};
}

/** A refusal before the WebSocket upgrade, in the API's error envelope. */
export function upgradeRefusal(
	code: ErrorCode,
	message: string,
	requestId: string,
	now: number,
	details?: Record<string, unknown>,
): Response {
	const error = new AppError(code, message, details);
	return Response.json(errorBody(error, requestId, now), { status: error.status });
}

/** Why a candidate's connection cannot join, as the contract's refusal. */
export function joinRefusal(error: TransitionError, requestId: string, now: number, id: string): Response {
	switch (error.code) {
		case "INTERVIEW_NOT_OPEN": {
			const opensAt = new Date(error.opensAt).toISOString();
			return upgradeRefusal("INTERVIEW_NOT_OPEN", `The interview opens at ${opensAt}.`, requestId, now, {
				opens_at: opensAt,
			});
		}
		case "INVALID_OPERATION":
			return upgradeRefusal(
				"INVALID_OPERATION",
				`The interview is ${error.status}.`,
				requestId,
				now,
				error.details,
			);
		default:
			return notFoundRefusal(id, requestId, now);
	}
}

/** An interview that is not there (or not the caller's), refused as the Worker's own 404 is. */
export function notFoundRefusal(id: string, requestId: string, now: number): Response {
	return upgradeRefusal("INTERVIEW_NOT_FOUND", `No interview with id '${id}' exists.`, requestId, now, {
		id,
	});
}
