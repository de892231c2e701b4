import { describe, expect, it } from "vitest";
import { createInterviewBody, listQuery } from "../../../src/interviews/api/schemas";
import { validationError } from "../../../src/platform/http/errors";
import { closestField, issueFields, MAX_UNKNOWN_FIELDS_NAMED } from "../../../src/platform/http/validation";
import { parseIsoDateTime } from "../../../src/platform/lib/time";

function fieldsOf(
	input: unknown,
	schema: typeof createInterviewBody | typeof listQuery = createInterviewBody,
) {
	const result = schema.safeParse(input);
	return result.success ? {} : issueFields(result.error.issues, { input, schema });
}

const valid = { candidate_email: "ada@example.com", position: "Engineer", skills: ["Go"] };

describe("create-interview validation", () => {
	it("applies the contract's defaults", () => {
		expect(createInterviewBody.parse(valid)).toMatchObject({
			duration_minutes: 30,
			difficulty: "intermediate",
			send_invitation: true,
			test_mode: false,
		});
	});

	it("names each missing required field", () => {
		expect(fieldsOf({})).toEqual({ candidate_email: "Required", position: "Required", skills: "Required" });
	});

	it("checks e-mail format", () => {
		for (const email of ["plainaddress", "a@", "@b.com", "a b@c.com", "a@b"]) {
			expect(fieldsOf({ ...valid, candidate_email: email })).toHaveProperty("candidate_email");
		}
		expect(fieldsOf({ ...valid, candidate_email: "first.last+tag@sub.example.co.uk" })).toEqual({});
	});

	it("keeps durations within 15 to 90 whole minutes", () => {
		for (const d of [14, 91, 30.5, -1]) {
			expect(fieldsOf({ ...valid, duration_minutes: d })).toEqual({
				duration_minutes: "Must be an integer from 15 to 90",
			});
		}
		expect(fieldsOf({ ...valid, duration_minutes: "30" })).toEqual({
			duration_minutes: "Must be an integer from 15 to 90 (expected number, received string)",
		});
		for (const d of [15, 90]) expect(fieldsOf({ ...valid, duration_minutes: d })).toEqual({});
	});

	it("accepts only the four difficulty levels", () => {
		expect(fieldsOf({ ...valid, difficulty: "principal" })).toHaveProperty("difficulty");
	});

	it("names wrong types, nested paths and unknown fields", () => {
		expect(fieldsOf({ ...valid, skills: ["Go", 7], send_invitation: "yes", extra: 1 })).toEqual({
			"skills.1": expect.any(String),
			send_invitation: "Must be a boolean (expected boolean, received string)",
			extra: "Unknown field",
		});
	});

	it("says lengths, emptiness and choices in words where a schema gives no message of its own", () => {
		expect(fieldsOf({ ...valid, position: "x".repeat(201), skills: [] })).toEqual({
			position: "Must be at most 200 characters",
			skills: expect.any(String),
		});
		expect(fieldsOf({ candidate_email: "" }, listQuery)).toEqual({ candidate_email: "Must not be empty" });
		expect(fieldsOf({ ...valid, company_name: "" })).toHaveProperty("company_name");
		for (const message of Object.values(
			fieldsOf({ ...valid, position: "x".repeat(201), instructions: null }),
		)) {
			expect(message).not.toMatch(/Too big|Too small|Invalid input/);
		}
	});

	it("says a query parameter sent twice must be given once", () => {
		const input = { limit: ["5", "6"], status: ["scheduled", "completed"] };
		const result = listQuery.safeParse(input);
		expect(result.success).toBe(false);
		if (!result.success) {
			expect(issueFields(result.error.issues, { input, schema: listQuery, query: true })).toEqual({
				limit: "Must be given once",
				status: "Must be given once",
			});
		}
	});

	it("says what a wrong type got, and suggests the field an unknown one is a misspelling of", () => {
		expect(fieldsOf({ ...valid, position: 42, candidat_name: "Ada", scheduled_at: 5 })).toEqual({
			position: "Must be a string (expected string, received number)",
			candidat_name: "Unknown field 'candidat_name'; did you mean 'candidate_name'?",
			scheduled_at:
				"Must be an ISO 8601 date-time string, e.g. 2030-01-15T14:00:00Z (expected string, received number)",
		});
		const { candidate_email: _, ...rest } = valid;
		expect(fieldsOf({ ...rest, candidat_email: "ada@example.com" })).toEqual({
			candidate_email: "Required",
			candidat_email: "Unknown field 'candidat_email'; did you mean 'candidate_email'?",
		});
		// Nothing close: no guess.
		expect(fieldsOf({ ...valid, colour: "blue" })).toEqual({ colour: "Unknown field" });
		expect(fieldsOf({ ...valid, skills: null })).toEqual({
			skills: "Must be an array of strings (expected array, received null)",
		});
	});

	it("suggests a field for a long unknown name only when it is within a quarter of its length", () => {
		const known = Object.keys(createInterviewBody.shape);
		// 16 and more characters: nothing known is close, so no guess.
		for (const name of ["skills_to_assess", "difficulty_level", "interviewer_preferences_v2"]) {
			expect(closestField(name, known), name).toBeNull();
			expect(fieldsOf({ ...valid, [name]: 1 }), name).toEqual({ [name]: "Unknown field" });
		}
		// Long and close: still named.
		expect(closestField("send_invitations", known)).toBe("send_invitation");
		expect(closestField("candidate_emailll", known)).toBe("candidate_email");
		expect(closestField("candidate_eemail_", known)).toBe("candidate_email");
	});

	it("names at most the first unknown fields and counts the rest in one more entry", () => {
		const count = MAX_UNKNOWN_FIELDS_NAMED + 59_980;
		const extra = Object.fromEntries(Array.from({ length: count }, (_, i) => [`extra_${i}`, i]));
		const fields = fieldsOf({ ...valid, duration_minutes: "long", ...extra });
		const named = Object.keys(extra).slice(0, MAX_UNKNOWN_FIELDS_NAMED);
		expect(fields).toEqual({
			...Object.fromEntries(named.map((name) => [name, "Unknown field"])),
			duration_minutes: expect.stringContaining("received string"),
			body: `and ${(count - MAX_UNKNOWN_FIELDS_NAMED).toLocaleString("en-US")} more unknown fields`,
		});
		// The message lists what details does, so it stays small too.
		const error = validationError(fields);
		expect(error.message).toContain("and 59,980 more unknown fields");
		expect(error.message.length).toBeLessThan(2_000);
		// Exactly at the cap nothing is counted; one past it, one is.
		const atCap = Object.fromEntries(named.map((name) => [name, 1]));
		expect(Object.keys(fieldsOf({ ...valid, ...atCap }))).toEqual(named);
		expect(fieldsOf({ ...valid, ...atCap, one_more: 1 }).body).toBe("and 1 more unknown field");
		// The body's own message keeps its place, with the count after it.
		const fieldsWithBody = issueFields(
			[
				{ code: "custom", path: [], message: "Give at least one field", input: {} },
				{ code: "unrecognized_keys", path: [], keys: [...named, "x", "y"], input: {}, message: "" },
			],
			{},
		);
		expect(fieldsWithBody.body).toBe("Give at least one field; and 2 more unknown fields");
	});

	it("uses `body` for a body that is not an object", () => {
		expect(fieldsOf([1, 2])).toEqual({ body: "Must be a JSON object (expected object, received array)" });
	});

	it("requires scheduled_at to carry a time zone", () => {
		expect(fieldsOf({ ...valid, scheduled_at: "2030-01-01T10:00:00" })).toHaveProperty("scheduled_at");
		expect(fieldsOf({ ...valid, scheduled_at: "2030-01-01T10:00:00+02:00" })).toEqual({});
	});
});

describe("list query validation", () => {
	it("keeps limit within 1 to 100", () => {
		expect(fieldsOf({ limit: "0" }, listQuery)).toHaveProperty("limit");
		expect(fieldsOf({ limit: "101" }, listQuery)).toHaveProperty("limit");
		expect(fieldsOf({ limit: "ten" }, listQuery)).toHaveProperty("limit");
		expect(listQuery.parse({ limit: "100" }).limit).toBe(100);
		expect(listQuery.parse({}).limit).toBe(25);
	});
});

describe("ISO 8601 date-times", () => {
	it("reads what the calendar has, zone designators and fractions included", () => {
		expect(parseIsoDateTime("2028-02-29T10:00:00Z")).toBe(Date.UTC(2028, 1, 29, 10));
		expect(parseIsoDateTime("2027-12-31T23:59:59.999+01:00")).toBe(Date.UTC(2027, 11, 31, 22, 59, 59, 999));
		expect(parseIsoDateTime("2027-01-15T14:00-0530")).toBe(Date.UTC(2027, 0, 15, 19, 30));
		expect(parseIsoDateTime("0050-06-01T00:00:00Z")).toBe(Date.parse("0050-06-01T00:00:00Z"));
	});

	it("refuses dates and times that do not exist instead of rolling them over", () => {
		for (const value of [
			"2099-02-30T10:00:00Z",
			"2027-02-29T10:00:00Z",
			"2027-04-31T10:00:00Z",
			"2027-13-01T10:00:00Z",
			"2027-00-10T10:00:00Z",
			"2027-01-00T10:00:00Z",
			"2027-01-15T24:00:00Z",
			"2027-01-15T10:60:00Z",
			"2027-01-15T10:00:60Z",
			"2027-01-15T10:00:00+24:00",
			"2027-01-15T10:00:00",
		]) {
			expect(parseIsoDateTime(value), value).toBeNull();
		}
	});

	it("names scheduled_at for an impossible date in a create body", () => {
		expect(fieldsOf({ ...valid, scheduled_at: "2099-02-30T10:00:00Z" })).toEqual({
			scheduled_at: "Must be an ISO 8601 date-time with a time zone, e.g. 2030-01-15T14:00:00Z",
		});
	});
});
