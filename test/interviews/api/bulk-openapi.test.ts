// A bulk item's `error` in the OpenAPI document: the error object of each code an item can carry
// (BULK_ITEM_ERROR_CODES), so a code added to bulk-create without the document fails here.
import { describe, expect, it } from "vitest";
import { BULK_ITEM_ERROR_CODES, itemError } from "../../../src/interviews/creation/bulk-create";
import { AppError, OutcomeUnknownError } from "../../../src/platform/http/errors";
import { call } from "../../support/helpers";

type Json = Record<string, any>;

const PREFIX = "#/components/schemas/";

async function servedDocument(): Promise<Json> {
	const res = await call("GET", "/openapi.json");
	expect(res.status).toBe(200);
	return res.body as unknown as Json;
}

/** The `error` of `failed[]` in the bulk create's 200 answer under `path`. */
function bulkItemError(document: Json, path: string): Json {
	const answer = document.paths[path].post.responses["200"].content["application/json"].schema;
	return answer.properties.data.properties.failed.items.properties.error;
}

describe("a bulk item's error in the OpenAPI document", () => {
	it("is a union of one component per code an item can carry, and of no other", async () => {
		const document = await servedDocument();
		const schemas: Json = document.components.schemas;
		for (const path of ["/v1/interviews/bulk", "/api/v1/interviews/bulk"]) {
			const error = bulkItemError(document, path);
			expect(Object.keys(error).sort()).toEqual(["description", "oneOf"]);
			const codes = error.oneOf.map((member: Json) => {
				// A reference, never a copy: the component must exist and name a single code.
				expect(Object.keys(member)).toEqual(["$ref"]);
				expect(member.$ref.startsWith(PREFIX)).toBe(true);
				const component = schemas[member.$ref.slice(PREFIX.length)];
				expect(component, member.$ref).toBeDefined();
				expect(component.properties.code.enum).toHaveLength(1);
				expect(component.required).toEqual(expect.arrayContaining(["code", "message"]));
				return component.properties.code.enum[0] as string;
			});
			expect(codes).toEqual([...BULK_ITEM_ERROR_CODES]);
		}
	});

	it("uses the endpoints' own error objects, and INVALID_EMAIL's outside the envelope's codes", async () => {
		const document = await servedDocument();
		const schemas: Json = document.components.schemas;
		const envelope = new Set(schemas.Error.properties.error.oneOf.map((member: Json) => member.$ref));
		const refs = bulkItemError(document, "/v1/interviews/bulk").oneOf.map((member: Json) => member.$ref);
		expect(refs.filter((ref: string) => !envelope.has(ref))).toEqual([`${PREFIX}Error_INVALID_EMAIL`]);
		// INVALID_EMAIL's details are VALIDATION_ERROR's: each failing field → its message.
		expect(schemas.Error_INVALID_EMAIL).toMatchObject({
			properties: {
				code: { type: "string", enum: ["INVALID_EMAIL"] },
				details: { type: "object", additionalProperties: { type: "string" } },
			},
			required: ["code", "message", "details"],
			additionalProperties: false,
		});
	});
});

describe("the bulk create's own errors in the OpenAPI document", () => {
	it("lists no refusal of credits, quota or state for the whole request: those refuse items", async () => {
		const document = await servedDocument();
		for (const path of ["/v1/interviews/bulk", "/api/v1/interviews/bulk"]) {
			const responses: Json = document.paths[path].post.responses;
			expect(responses["402"], path).toBeUndefined();
			const codes = Object.entries(responses)
				.filter(([status]) => status !== "200")
				.map(([, response]) => (response as Json).description as string)
				.join(" ");
			for (const code of ["INSUFFICIENT_CREDITS", "QUOTA_EXCEEDED", "INVALID_OPERATION"]) {
				expect(codes, `${path} ${code}`).not.toContain(code);
			}
			// Still there: the request's own refusals.
			expect(codes).toContain("IDEMPOTENCY_KEY_IN_USE");
			expect(codes).toContain("VALIDATION_ERROR");
			expect(codes).toContain("RATE_LIMIT_EXCEEDED");
		}
	});
});

describe("a bulk item's error", () => {
	it("keeps an item's refusal and a failure whose outcome is unknown", () => {
		const quota = new AppError("QUOTA_EXCEEDED", "Limit reached.", { resource: "monthly_interviews" });
		expect(itemError(quota, "req_1")).toEqual({
			code: "QUOTA_EXCEEDED",
			message: "Limit reached.",
			details: { resource: "monthly_interviews" },
		});
		const unknown = new OutcomeUnknownError("It may exist.", { interview_ids: ["int_1"] });
		expect(itemError(unknown, "req_1")).toMatchObject({
			code: "INTERNAL_ERROR",
			details: { interview_ids: ["int_1"], outcome: "unknown" },
		});
	});

	it("answers an AppError of a code no item can carry as INTERNAL_ERROR, as the document lists", () => {
		const stray = new AppError("INVALID_OPERATION", "Not now.", { current_status: "completed" });
		expect(itemError(stray, "req_2")).toEqual({
			code: "INTERNAL_ERROR",
			message: "This interview could not be created; the request id identifies the failure.",
			details: { request_id: "req_2" },
		});
	});
});
