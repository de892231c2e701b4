// What the room answers a candidate's frame it cannot take: the field at fault in the API's words.
import { describe, expect, it } from "vitest";
import { parseClientFrame } from "../../../src/interviews/room/frames";
import { MAX_RESPONSE_CHARS } from "../../../src/interviews/room/protocol";

const answer = (fields: Record<string, unknown>) =>
	JSON.stringify({
		type: "candidate_response",
		session_id: "int_x",
		question_id: "q1",
		response: "An index.",
		timestamp: "2030-01-15T14:00:00Z",
		...fields,
	});

/** The error frame's message for `frame`, or null when the frame is a message. */
function refusal(frame: string | ArrayBuffer): string | null {
	const parsed = parseClientFrame(frame);
	if (parsed.ok) return null;
	expect(parsed.error).toMatchObject({ type: "error", code: "BAD_MESSAGE" });
	return parsed.error.type === "error" ? parsed.error.message : "not an error";
}

describe("a client frame the room cannot take", () => {
	it("is refused alike whether it is not JSON or JSON that is not an object", () => {
		for (const frame of ["not json", "", "[]", "null", "1", '"resync"', "[{}]"]) {
			expect(refusal(frame), frame).toBe("Messages must be JSON objects.");
		}
		expect(refusal(new Uint8Array([0xff, 0x00]).buffer)).toBe("Messages must be JSON objects.");
	});

	it("names a missing or unknown type and the types there are", () => {
		expect(refusal("{}")).toBe("Not a valid message: type: Required.");
		expect(refusal('{"type":"shout"}')).toBe(
			'Not a valid message: type: Must be one of "candidate_response", "end_interview", "resync".',
		);
		expect(refusal('{"type":7}')).toBe(
			'Not a valid message: type: Must be one of "candidate_response", "end_interview", "resync".',
		);
	});

	it("names the field at fault, as the API's validation errors do", () => {
		expect(refusal('{"type":"resync","after_seq":-5}')).toBe(
			"Not a valid message: after_seq: Must be at least 0.",
		);
		expect(refusal('{"type":"resync","after_seq":"x"}')).toBe(
			"Not a valid message: after_seq: Must be a number (expected number, received string).",
		);
		expect(refusal('{"type":"resync"}')).toBe("Not a valid message: after_seq: Required.");
		expect(refusal('{"type":"end_interview","now":true}')).toBe("Not a valid message: now: Unknown field.");
		expect(refusal(answer({ question_id: undefined }))).toBe("Not a valid message: question_id: Required.");
		expect(refusal(answer({ response: "x".repeat(MAX_RESPONSE_CHARS + 1) }))).toBe(
			`Not a valid message: response: Must be at most ${MAX_RESPONSE_CHARS} characters.`,
		);
		for (const timestamp of ["yesterday", "2030-01-15", "2030-01-15T14:00:00", "2030-02-30T14:00:00Z", ""]) {
			expect(refusal(answer({ timestamp })), timestamp).toBe(
				"Not a valid message: timestamp: Must be an ISO 8601 date-time with a time zone, e.g. 2030-01-15T14:00:00Z.",
			);
		}
		expect(refusal(answer({ response: "\ud800" }))).toBe(
			"Not a valid message: response: Must be well-formed Unicode text (no unpaired surrogate code points).",
		);
	});

	it("takes every kind of message the contract names", () => {
		expect(refusal(answer({}))).toBeNull();
		expect(refusal(answer({ timestamp: new Date().toISOString() }))).toBeNull();
		expect(refusal(answer({ timestamp: "2030-01-15T16:00:00+02:00" }))).toBeNull();
		expect(refusal(answer({ response: "x".repeat(MAX_RESPONSE_CHARS) }))).toBeNull();
		expect(refusal('{"type":"end_interview"}')).toBeNull();
		expect(refusal('{"type":"resync","after_seq":0}')).toBeNull();
	});
});
