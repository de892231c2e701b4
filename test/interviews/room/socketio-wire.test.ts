import { describe, expect, it } from "vitest";
import {
	awaitedOf,
	connectError,
	decodeBody,
	decodeFrame,
	encodeBody,
	encodeFrame,
	engineSettings,
	eventOfPlain,
	interviewOfNamespace,
	openPacket,
	PacketType,
	plainOfEvent,
	refusalOf,
	settle,
	socketMessage,
} from "../../../src/interviews/room/socketio/wire";

// The Socket.IO translation as pure functions, run in workerd with the real parsers.
describe("Engine.IO framing", () => {
	it("opens with the session, the upgrades and the heartbeat", () => {
		const frame = encodeFrame(
			openPacket("abc", { pingInterval: 25_000, pingTimeout: 20_000, maxPayload: 1e6 }, ["websocket"]),
		);
		expect(frame).toBe(
			'0{"sid":"abc","upgrades":["websocket"],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}',
		);
	});

	it("separates long-polling packets with the record separator, and reads them back", () => {
		const body = encodeBody([{ type: "ping" }, { type: "message", data: '2["x"]' }]);
		expect(body).toBe('2\x1e42["x"]');
		expect(decodeBody('3\x1e40/interview/int_1/,{"token":"t"}')).toEqual([
			{ type: "pong" },
			{ type: "message", data: '0/interview/int_1/,{"token":"t"}' },
		]);
		expect(decodeFrame("2probe")).toEqual({ type: "ping", data: "probe" });
		expect(decodeFrame("x")).toEqual({ type: "error", data: "parser error" });
	});

	it("takes the heartbeat from the environment within bounds", () => {
		expect(engineSettings({})).toEqual({ pingInterval: 25_000, pingTimeout: 20_000, maxPayload: 1_000_000 });
		expect(
			engineSettings({ SOCKET_IO_PING_INTERVAL_MS: "1500", SOCKET_IO_PING_TIMEOUT_MS: "10" }),
		).toMatchObject({
			pingInterval: 1500,
			pingTimeout: 20_000,
		});
	});
});

describe("Socket.IO packets", () => {
	it("knows an interview's namespace, with or without the trailing slash", () => {
		expect(interviewOfNamespace("/interview/int_1/")).toBe("int_1");
		expect(interviewOfNamespace("/interview/int_1")).toBe("int_1");
		expect(interviewOfNamespace("/")).toBeNull();
		expect(interviewOfNamespace("/interview/")).toBeNull();
		expect(interviewOfNamespace("/interview/a/b")).toBeNull();
	});

	it("turns a room frame into the event of the same name, without `type`", () => {
		const packet = eventOfPlain("/interview/int_1/", { type: "question", seq: 4, question: { id: "q1" } });
		expect(socketMessage(packet)).toEqual({
			type: "message",
			data: '2/interview/int_1/,["question",{"seq":4,"question":{"id":"q1"}}]',
		});
	});

	it("refuses a namespace with the contract's code and message in the error's data", () => {
		const packet = connectError("/interview/int_1/", { code: "INVALID_TOKEN", message: "Wrong." });
		expect(packet).toEqual({
			type: PacketType.CONNECT_ERROR,
			nsp: "/interview/int_1/",
			data: { message: "Wrong.", data: { code: "INVALID_TOKEN", message: "Wrong." } },
		});
	});

	it("reads the room's refusal from the error envelope", async () => {
		const body = {
			success: false,
			error: { code: "INTERVIEW_NOT_OPEN", message: "Opens at 9.", details: { opens_at: "x" } },
		};
		expect(await refusalOf(Response.json(body, { status: 403 }))).toEqual({
			code: "INTERVIEW_NOT_OPEN",
			message: "Opens at 9.",
			details: { opens_at: "x" },
		});
		expect((await refusalOf(new Response("nope", { status: 502 }))).code).toBe("INTERNAL_ERROR");
	});
});

describe("client events as room frames", () => {
	const answer = { session_id: "int_1", response: "r", timestamp: "2026-01-01T00:00:00Z" };

	it("answers the question last shown when question_id is absent, and keeps one that is given", () => {
		expect(JSON.parse(plainOfEvent(["candidate_response", answer], "q2").frame)).toEqual({
			...answer,
			type: "candidate_response",
			question_id: "q2",
		});
		expect(
			JSON.parse(plainOfEvent(["candidate_response", { ...answer, question_id: "q1" }], "q2").frame),
		).toMatchObject({
			question_id: "q1",
		});
		// No question open: an id the room refuses.
		expect(JSON.parse(plainOfEvent(["candidate_response", answer], null).frame).question_id).toBe("");
		expect(JSON.parse(plainOfEvent(["end_interview"], "q2").frame)).toEqual({ type: "end_interview" });
		// `type` is the event's name whatever the payload says.
		expect(JSON.parse(plainOfEvent(["resync", { after_seq: 3, type: "end_interview" }], null).frame)).toEqual(
			{
				type: "resync",
				after_seq: 3,
			},
		);
		expect(plainOfEvent(["candidate_response", "text"], null).frame).toBe('"text"');
	});

	it("knows what settles an acknowledged event", () => {
		const update = (questions_answered: number, status = "in_progress") => ({
			type: "interview_update",
			seq: 1,
			interview: { questions_answered, status },
		});
		const frame = plainOfEvent(["candidate_response", answer], "q1").frame;
		const awaited = awaitedOf(frame, 2);
		expect(awaited).toEqual({ type: "candidate_response", answered: 2 });
		expect(settle(awaited, update(2))).toBeNull();
		expect(settle(awaited, { type: "question", seq: 2 })).toBeNull();
		expect(settle(awaited, update(3))).toEqual({ ok: true });
		expect(settle(awaited, { type: "error", seq: 3, code: "STALE_QUESTION", message: "m" })).toEqual({
			ok: false,
			error: { code: "STALE_QUESTION", message: "m" },
		});
		expect(settle(awaitedOf('{"type":"end_interview"}', 0), update(0, "completed"))).toEqual({ ok: true });
		expect(awaitedOf('{"type":"resync","after_seq":1}', 0)).toEqual({ type: "resync" });
		expect(awaitedOf('{"type":"resync","after_seq":-1}', 0)).toEqual({ type: "refused" });
		expect(awaitedOf('"text"', 0)).toEqual({ type: "refused" });
		expect(settle({ type: "refused" }, update(9, "completed"))).toBeNull();
	});
});
