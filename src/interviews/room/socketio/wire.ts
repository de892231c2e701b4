import {
	decodePacket,
	decodePayload,
	type Packet as EnginePacket,
	encodePacket,
	encodePayload,
} from "engine.io-parser";
import { Encoder, PacketType, type Packet as SocketPacket } from "socket.io-parser";
import { clientMessage } from "../protocol";

/**
 * The Socket.IO side of the real-time channel as pure functions (docs/live-room.md): Engine.IO v4
 * framing through `engine.io-parser`, Socket.IO v5 packets through `socket.io-parser`, and the
 * translation between Socket.IO events and the plain channel's `{type, ...}` messages. The
 * session object (`session.ts`) owns the connections and the timers.
 */

export type { EnginePacket, SocketPacket };
export { PacketType };

export interface EngineSettings {
	pingInterval: number;
	pingTimeout: number;
	maxPayload: number;
}

export const ENGINE_DEFAULTS: EngineSettings = {
	pingInterval: 25_000,
	pingTimeout: 20_000,
	maxPayload: 1_000_000,
};

/** Settings from the environment (`SOCKET_IO_PING_INTERVAL_MS`, `SOCKET_IO_PING_TIMEOUT_MS`). */
export function engineSettings(env: {
	SOCKET_IO_PING_INTERVAL_MS?: string;
	SOCKET_IO_PING_TIMEOUT_MS?: string;
}) {
	const ms = (value: string | undefined, fallback: number) => {
		const n = Number(value);
		return value && Number.isInteger(n) && n >= 50 && n <= 600_000 ? n : fallback;
	};
	return {
		...ENGINE_DEFAULTS,
		pingInterval: ms(env.SOCKET_IO_PING_INTERVAL_MS, ENGINE_DEFAULTS.pingInterval),
		pingTimeout: ms(env.SOCKET_IO_PING_TIMEOUT_MS, ENGINE_DEFAULTS.pingTimeout),
	};
}

/** An Engine.IO session id: what the Worker routes a session's requests by. */
export const SID_SHAPE = /^[0-9A-Za-z]{24}$/;

/** The `open` packet's data: the session id, the upgrades on offer and the heartbeat. */
export function openPacket(sid: string, settings: EngineSettings, upgrades: string[]): EnginePacket {
	return {
		type: "open",
		data: JSON.stringify({
			sid,
			upgrades,
			pingInterval: settings.pingInterval,
			pingTimeout: settings.pingTimeout,
			maxPayload: settings.maxPayload,
		}),
	};
}

/** One Engine.IO packet as a WebSocket text frame. */
export function encodeFrame(packet: EnginePacket): string {
	let out = "";
	encodePacket(packet, false, (encoded) => {
		out = String(encoded);
	});
	return out;
}

/** Packets as one long-polling response body (separated by the record separator). */
export function encodeBody(packets: EnginePacket[]): string {
	let out = "";
	encodePayload(packets, (encoded) => {
		out = encoded;
	});
	return out;
}

/** A WebSocket frame as an Engine.IO packet: a binary frame is a message of its bytes. */
export function decodeFrame(frame: string | ArrayBuffer): EnginePacket {
	return decodePacket(frame, "arraybuffer");
}

export function decodeBody(body: string): EnginePacket[] {
	return decodePayload(body, "arraybuffer");
}

/** Engine.IO's refusal of a request, as its reference server sends it (400 with a code). */
export function engineError(code: 0 | 1 | 2 | 3 | 5, status = 400): Response {
	const messages = {
		0: "Transport unknown",
		1: "Session ID unknown",
		2: "Bad handshake method",
		3: "Bad request",
		5: "Unsupported protocol version",
	};
	return Response.json({ code, message: messages[code] }, { status });
}

/**
 * The interview id of a namespace `/interview/{id}/` (trailing slash optional), else null (also
 * when the id's percent-escapes are malformed).
 */
export function interviewOfNamespace(nsp: string): string | null {
	const match = /^\/interview\/([^/]+)\/?$/.exec(nsp);
	if (!match?.[1]) return null;
	try {
		return decodeURIComponent(match[1]);
	} catch {
		return null;
	}
}

const encoder = new Encoder();

/** A Socket.IO packet as the Engine.IO `message` packet that carries it (text only). */
export function socketMessage(packet: SocketPacket): EnginePacket {
	const [encoded] = encoder.encode(packet);
	return { type: "message", data: String(encoded) };
}

export function connectOk(nsp: string, socketId: string): SocketPacket {
	return { type: PacketType.CONNECT, nsp, data: { sid: socketId } };
}

/**
 * A refused namespace connection: socket.io-client raises `connect_error` with `err.message`
 * and `err.data`, which is the contract's `{code, message}` (and `details` when it has some).
 */
export function connectError(
	nsp: string,
	error: { code: string; message: string; details?: unknown },
): SocketPacket {
	const data = {
		code: error.code,
		message: error.message,
		...(error.details === undefined ? {} : { details: error.details }),
	};
	return { type: PacketType.CONNECT_ERROR, nsp, data: { message: error.message, data } };
}

/** The `{code, message, details}` of a refusal in the API's error envelope. */
export async function refusalOf(
	response: Response,
): Promise<{ code: string; message: string; details?: unknown }> {
	const body = (await response.json().catch(() => null)) as {
		error?: { code?: unknown; message?: unknown; details?: unknown };
	} | null;
	const error = body?.error;
	if (typeof error?.code === "string" && typeof error.message === "string") {
		return { code: error.code, message: error.message, details: error.details };
	}
	return { code: "INTERNAL_ERROR", message: `The room refused the connection (${response.status}).` };
}

export function ackPacket(nsp: string, id: number, result: AckResult): SocketPacket {
	return { type: PacketType.ACK, nsp, id, data: [result] };
}

export type AckResult = { ok: true } | { ok: false; error: { code: string; message: string } };

/** A plain server message: the parsed frame of the interview's room. */
export type PlainMessage = { type: string; [key: string]: unknown };

/** A plain server frame as the Socket.IO event of the same name, its payload without `type`. */
export function eventOfPlain(nsp: string, message: PlainMessage): SocketPacket {
	const { type, ...payload } = message;
	return { type: PacketType.EVENT, nsp, data: [type, payload] };
}

export function parsePlain(raw: string | ArrayBuffer): PlainMessage | null {
	try {
		const value: unknown = JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw));
		if (
			value &&
			typeof value === "object" &&
			!Array.isArray(value) &&
			typeof (value as PlainMessage).type === "string"
		)
			return value as PlainMessage;
	} catch {
		// not a message
	}
	return null;
}

/**
 * A client event as the plain channel's frame: `{type: event, ...payload}`. A
 * `candidate_response` without `question_id` answers the question this connection was last
 * shown (`current`; an empty id when none is open, which the room refuses). A payload that is
 * not an object is passed on as it is, so the room refuses it as it refuses any bad frame.
 */
export function plainOfEvent(args: unknown[], current: string | null): { type: string; frame: string } {
	const [name, payload] = args as [string, unknown];
	// Bytes (a binary event's attachment) are no JSON object: refused as `null` is.
	if (payload instanceof ArrayBuffer || ArrayBuffer.isView(payload)) return { type: name, frame: "null" };
	if (payload !== undefined && (payload === null || typeof payload !== "object" || Array.isArray(payload))) {
		return { type: name, frame: JSON.stringify(payload) };
	}
	const message: Record<string, unknown> = {
		...(payload as Record<string, unknown> | undefined),
		type: name,
	};
	if (name === "candidate_response" && message.question_id === undefined) message.question_id = current ?? "";
	return { type: name, frame: JSON.stringify(message) };
}

/** What an acknowledged client event waits for (`settle`). */
export type Awaited =
	| { type: "candidate_response"; answered: number }
	| { type: "end_interview" }
	| { type: "resync" }
	/** A frame the room will refuse (`BAD_MESSAGE`): its error frame settles it. */
	| { type: "refused" };

/**
 * What the outcome of a frame will be recognised by: `answered` is the number of questions
 * answered in the last update the client was shown.
 */
export function awaitedOf(frame: string, answered: number): Awaited {
	let parsed: unknown;
	try {
		parsed = JSON.parse(frame);
	} catch {
		return { type: "refused" };
	}
	const checked = clientMessage.safeParse(parsed);
	if (!checked.success) return { type: "refused" };
	const type = checked.data.type;
	return type === "candidate_response" ? { type, answered } : { type };
}

/**
 * Whether a message of the room settles the event a connection is waiting on: an `error` frame
 * (they go only to the connection that caused them) refuses it; an update showing one more
 * answered question accepts an answer; a completed interview accepts `end_interview`.
 */
export function settle(awaited: Awaited, message: PlainMessage): AckResult | null {
	if (message.type === "error") {
		return { ok: false, error: { code: String(message.code), message: String(message.message) } };
	}
	if (message.type !== "interview_update") return null;
	const interview = message.interview as { status?: string; questions_answered?: number } | undefined;
	if (awaited.type === "candidate_response" && (interview?.questions_answered ?? 0) > awaited.answered) {
		return { ok: true };
	}
	if (awaited.type === "end_interview" && interview?.status === "completed") return { ok: true };
	return null;
}
