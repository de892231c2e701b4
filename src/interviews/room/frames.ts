import { errorBody } from "../../platform/http/envelope";
import { AppError, type ErrorCode } from "../../platform/http/errors";
import { illFormedPath } from "../../platform/http/validation";
import type { TransitionError } from "../core/state-machine";
import { type ClientMessage, clientMessage, type OutgoingMessage } from "./protocol";

/** A client frame as a checked message, or the error frame that answers it. */
export function parseClientFrame(
	raw: string | ArrayBuffer,
): { ok: true; message: ClientMessage } | { ok: false; error: OutgoingMessage } {
	let parsed: unknown;
	try {
		parsed = JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw));
	} catch {
		return {
			ok: false,
			error: { type: "error", code: "BAD_MESSAGE", message: "Messages must be JSON objects." },
		};
	}
	const illFormed = illFormedPath(parsed, []);
	if (illFormed !== null) {
		return {
			ok: false,
			error: {
				type: "error",
				code: "BAD_MESSAGE",
				message: `Not a valid message: ${illFormed} must be well-formed Unicode text.`,
			},
		};
	}
	const result = clientMessage.safeParse(parsed);
	if (result.success) return { ok: true, message: result.data };
	const issue = result.error.issues[0];
	return {
		ok: false,
		error: {
			type: "error",
			code: "BAD_MESSAGE",
			message: `Not a valid message${issue ? `: ${issue.path.join(".") || "type"} ${issue.message}` : ""}.`,
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
export function joinRefusal(error: TransitionError, requestId: string, now: number): Response {
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
			return upgradeRefusal("INTERVIEW_NOT_FOUND", "No such interview.", requestId, now);
	}
}
