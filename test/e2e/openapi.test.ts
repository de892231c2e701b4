// The OpenAPI document the service serves: valid OpenAPI 3.1 by Redocly's linter, complete for
// /v1 and /api/v1 (every routed operation is in it), and the validator that the harness runs on
// every answer refuses answers that do not match it.
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, openApiValidator, type Service, startService } from "./harness";
import { openSchemas } from "./openapi-validator";

let service: Service;

beforeAll(async () => {
	service = await startService();
});

afterAll(async () => {
	await service?.stop();
});

describe("the OpenAPI document", () => {
	it("is served at /openapi.json and passes Redocly's recommended rules with no error", async () => {
		const res = await fetch(`${service.baseUrl}/openapi.json`);
		expect(res.status).toBe(200);
		const document = (await res.json()) as { openapi: string };
		expect(document.openapi).toBe("3.1.0");
		const file = join(mkdtempSync(join(tmpdir(), "openapi-")), "openapi.json");
		writeFileSync(file, JSON.stringify(document));
		const { stdout, stderr } = await promisify(execFile)(
			"redocly",
			["lint", file, "--format", "stylish", "--config", join(process.cwd(), "redocly.yaml")],
			{ timeout: 120_000 },
		).catch((error: { stdout: string; stderr: string }) => {
			throw new Error(`redocly lint failed:\n${error.stdout}\n${error.stderr}`);
		});
		expect(`${stdout}${stderr}`).toContain("valid");
	}, 150_000);

	it("describes both prefixes, bearer scopes, the headers and every webhook event", async () => {
		const { document } = await openApiValidator(service);
		for (const prefix of ["/v1", "/api/v1"]) {
			expect(Object.keys(document.paths[`${prefix}/interviews`]).sort()).toEqual(["get", "post"]);
			expect(document.paths[`${prefix}/interviews/{id}`].get.security).toEqual([
				{ bearerAuth: ["interviews:read"] },
			]);
		}
		const create = document.paths["/v1/interviews"].post;
		expect(create.parameters).toContainEqual({ $ref: "#/components/parameters/Idempotency-Key" });
		expect(Object.keys(create.responses["201"].headers)).toEqual(
			expect.arrayContaining(["X-Request-Id", "X-RateLimit-Remaining", "RateLimit", "RateLimit-Policy"]),
		);
		expect(create.responses["402"].content["application/json"].schema.properties.error).toEqual({
			$ref: "#/components/schemas/Error_INSUFFICIENT_CREDITS",
		});
		// The request body is the validating zod schema's: its required fields and its defaults.
		const body = create.requestBody.content["application/json"].schema.anyOf[0];
		expect(body.required).toEqual(["candidate_email", "position", "skills"]);
		expect(body.properties.duration_minutes).toMatchObject({ minimum: 15, maximum: 90, default: 30 });
		expect(body.additionalProperties).toBe(false);
		expect(Object.keys(document.webhooks)).toEqual(
			expect.arrayContaining([
				"interview.scheduled",
				"results.analyzed",
				"webhook.endpoint.disabled",
				"webhook.test",
			]),
		);
		// The admin API, behind its own scheme: the admin token, no scopes.
		expect(Object.keys(document.paths["/admin/accounts"]).sort()).toEqual(["get", "post"]);
		expect(document.paths["/admin/accounts/{account_id}/keys/{key_id}"].delete.security).toEqual([
			{ adminToken: [] },
		]);
		expect(document.paths["/admin/accounts/{account_id}/users"].post.security).toEqual([{ adminToken: [] }]);
		expect(document.components.securitySchemes.adminToken).toMatchObject({ type: "http", scheme: "bearer" });
	});

	it("leaves no shape open except an error's details, whose keys depend on the code (docs/api.md)", async () => {
		const { document } = await openApiValidator(service);
		// Each code's details (components.schemas.Error_<CODE>) admits the keys of a case beside its own.
		const open = openSchemas(document).filter(
			(pointer) =>
				!/(\/error|^#\/components\/schemas\/Error_[A-Z_]+)\/properties\/details(\/additionalProperties)? \(/.test(
					pointer,
				),
		);
		expect(open).toEqual([]);
		// The walk finds each kind of open shape where one is.
		const sample = {
			paths: {
				"/x": {
					get: {
						responses: {
							"200": {
								content: {
									"application/json": {
										schema: {
											type: "object",
											properties: {
												loose: {
													type: "object",
													properties: { a: { type: "string" } },
													additionalProperties: {},
												},
												bare: { type: "object" },
												any: {},
												list: { type: "array", items: { type: "object", additionalProperties: true } },
												map: { type: "object", additionalProperties: { type: "number" } },
											},
											additionalProperties: false,
										},
									},
								},
							},
						},
					},
				},
			},
		};
		expect(openSchemas(sample).map((p) => p.replace(/^.*\/schema/, ""))).toEqual([
			"/properties/loose (admits any other key)",
			"/properties/loose/additionalProperties (any value)",
			"/properties/bare (object without properties)",
			"/properties/any (any value)",
			"/properties/list/items (object without properties)",
		]);
	});

	it("types each code's details, so a typed client narrows on error.code to them", async () => {
		const { document } = await openApiValidator(service);
		const schemas = document.components.schemas;
		// A code with fixed details: its error object requires them, and each of their keys.
		expect(schemas.Error_QUOTA_EXCEEDED.properties.code).toEqual({
			type: "string",
			enum: ["QUOTA_EXCEEDED"],
		});
		expect(schemas.Error_QUOTA_EXCEEDED.required).toEqual(["code", "message", "details"]);
		expect(schemas.Error_QUOTA_EXCEEDED.properties.details).toMatchObject({
			properties: {
				resource: { enum: ["monthly_interviews"] },
				limit: { type: "integer" },
				used: { type: "integer" },
				resets_at: { type: "string", format: "date-time" },
			},
			required: ["resource", "limit", "used", "resets_at"],
			additionalProperties: true,
		});
		expect(schemas.Error_INSUFFICIENT_PERMISSIONS.properties.details.required).toEqual([
			"required_permission",
			"current_permissions",
		]);
		// A validation error's keys are the request's own fields: open, but every value is a message.
		expect(schemas.Error_VALIDATION_ERROR.properties.details.additionalProperties).toEqual({
			type: "string",
		});
		// Some not-found answers carry no details (an unknown route): details stay optional there.
		expect(schemas.Error_NOT_FOUND.required).toEqual(["code", "message"]);
		// The envelope is a union of one object per code; a response's is that of its own codes.
		// (Error_INVALID_EMAIL is a bulk item's alone, never an envelope's.)
		expect(schemas.Error.properties.error.oneOf).toHaveLength(
			Object.keys(schemas).filter((n) => n.startsWith("Error_") && n !== "Error_INVALID_EMAIL").length,
		);
		expect(
			document.paths["/v1/interviews"].post.responses["429"].content["application/json"].schema.properties
				.error,
		).toEqual({
			oneOf: [
				{ $ref: "#/components/schemas/Error_RATE_LIMIT_EXCEEDED" },
				{ $ref: "#/components/schemas/Error_QUOTA_EXCEEDED" },
			],
		});

		// A real refusal: a key without interviews:write creating an interview.
		const validator = await openApiValidator(service);
		const key = await api(service, "POST", `/admin/accounts/${service.accountId}/keys`, {
			key: service.adminToken,
			body: { name: "read only", environment: "test", permissions: ["interviews:read"] },
		});
		expect(key.status).toBe(201);
		const body = { candidate_email: "typed-details@example.com", position: "QA", skills: ["Testing"] };
		const refused = await api(service, "POST", "/v1/interviews", { key: key.body.data.key, body });
		expect(refused.status).toBe(403);
		expect(refused.body.error).toMatchObject({
			code: "INSUFFICIENT_PERMISSIONS",
			details: { required_permission: "interviews:write", current_permissions: ["interviews:read"] },
		});
		const check = (answer: unknown) =>
			validator.check("POST", "/v1/interviews", 403, refused.headers, answer).join("\n");
		expect(check(refused.body)).toBe("");
		const withoutScope = structuredClone(refused.body);
		delete withoutScope.error.details.required_permission;
		expect(check(withoutScope)).toMatch(/must have required property 'required_permission'/);
		const scopesAsText = structuredClone(refused.body);
		scopesAsText.error.details.current_permissions = "interviews:read";
		expect(check(scopesAsText)).toMatch(/current_permissions must be array/);
		const withoutDetails = structuredClone(refused.body);
		delete withoutDetails.error.details;
		expect(check(withoutDetails)).toMatch(/must have required property 'details'/);
		// A key of its own beside the documented ones is still a valid answer.
		const extraKey = structuredClone(refused.body);
		extraKey.error.details.hint = "ask an admin";
		expect(check(extraKey)).toBe("");

		// A real validation error: every detail is a field's message, never another value.
		const invalid = await api(service, "POST", "/v1/interviews", {
			key: service.keys.test,
			body: { ...body, candidate_email: "not-an-email", unknown_field: 1 },
		});
		expect(invalid.status).toBe(400);
		const check400 = (answer: unknown) =>
			validator.check("POST", "/v1/interviews", 400, invalid.headers, answer).join("\n");
		expect(check400(invalid.body)).toBe("");
		const numeric = structuredClone(invalid.body);
		numeric.error.details.candidate_email = 1;
		expect(check400(numeric)).toMatch(/candidate_email must be string/);
	});

	it("types a bulk item's error per code, as real items fail", async () => {
		const validator = await openApiValidator(service);
		const path = "/v1/interviews/bulk";
		const good = { candidate_email: "bulk-typed@example.com", position: "QA", skills: ["Testing"] };
		// api() checks each answer against the document; the checks below also refuse wrong copies.
		const mixed = await api(service, "POST", path, {
			key: service.keys.test,
			body: {
				interviews: [good, { ...good, position: undefined }, { ...good, candidate_email: "not-an-email" }],
			},
		});
		expect(mixed.status).toBe(200);
		expect(mixed.body.data.failed.map((f: { error: { code: string } }) => f.error.code)).toEqual([
			"VALIDATION_ERROR",
			"INVALID_EMAIL",
		]);
		const check = (answer: unknown) => validator.check("POST", path, 200, mixed.headers, answer).join("\n");
		expect(check(mixed.body)).toBe("");
		const unknownCode = structuredClone(mixed.body);
		unknownCode.data.failed[1].error.code = "EMAIL_INVALID";
		expect(check(unknownCode)).toMatch(/must match exactly one schema in oneOf/);
		const numericField = structuredClone(mixed.body);
		numericField.data.failed[1].error.details.candidate_email = 1;
		expect(check(numericField)).toMatch(/candidate_email must be string/);
		const withoutDetails = structuredClone(mixed.body);
		delete withoutDetails.data.failed[0].error.details;
		expect(check(withoutDetails)).toMatch(/must have required property 'details'/);

		// Real refusals of the account's limits: one credit for two items, then a monthly limit of one.
		const account = await api(service, "POST", "/admin/accounts", {
			key: service.adminToken,
			body: { company_name: "Bulk Limits", plan: "starter", credits: 1 },
		});
		expect(account.status).toBe(201);
		const accountId = account.body.data.id;
		const key = await api(service, "POST", `/admin/accounts/${accountId}/keys`, {
			key: service.adminToken,
			body: { name: "live", environment: "live" },
		});
		expect(key.status).toBe(201);
		const live = key.body.data.key;
		const bulk = (emails: string[]) =>
			api(service, "POST", path, {
				key: live,
				body: {
					interviews: emails.map((candidate_email) => ({ ...good, candidate_email })),
					defaults: { send_invitation: false },
				},
			});
		const credits = await bulk(["first@example.com", "second@example.com"]);
		expect(credits.status).toBe(200);
		expect(credits.body.data.failed[0].error).toMatchObject({
			code: "INSUFFICIENT_CREDITS",
			details: { required: 1, available: 0 },
		});
		const creditsAsText = structuredClone(credits.body);
		creditsAsText.data.failed[0].error.details.available = "0";
		expect(validator.check("POST", path, 200, credits.headers, creditsAsText).join()).toMatch(
			/available must be integer/,
		);
		const limited = await api(service, "PATCH", `/admin/accounts/${accountId}`, {
			key: service.adminToken,
			body: { credits_delta: 5, limits: { monthly_interviews: 1 } },
		});
		expect(limited.status).toBe(200);
		const quota = await bulk(["third@example.com"]);
		expect(quota.status).toBe(200);
		expect(quota.body.data.failed[0].error).toMatchObject({
			code: "QUOTA_EXCEEDED",
			details: { resource: "monthly_interviews", limit: 1, used: 1 },
		});
		const withoutReset = structuredClone(quota.body);
		delete withoutReset.data.failed[0].error.details.resets_at;
		expect(validator.check("POST", path, 200, quota.headers, withoutReset).join()).toMatch(
			/must have required property 'resets_at'/,
		);
	});

	it("lists every routed operation of /v1: an unknown one answers 404, a documented one does not", async () => {
		const { document } = await openApiValidator(service);
		for (const [template, operations] of Object.entries<Record<string, unknown>>(document.paths)) {
			for (const method of Object.keys(operations)) {
				const path = template.replace(/\{[^}]+\}/g, "x_unknown");
				const res = await fetch(`${service.baseUrl}${path}`, { method: method.toUpperCase() });
				// Routed: authentication answers first (401), never the router's 404/405.
				expect([template, method, res.status]).toEqual([
					template,
					method,
					template.endsWith("/health") ? 200 : 401,
				]);
			}
		}
	}, 60_000);
});

describe("the response validator of the end-to-end suite", () => {
	it("checks webhook bodies against their event under `webhooks`", async () => {
		const validator = await openApiValidator(service);
		const at = new Date().toISOString();
		const delivery = {
			event: "webhook.test",
			data: { webhook_id: "wh_x", message: "A test event.", sent_at: at },
			webhook: { id: "wh_x", event_id: "evt_x", timestamp: at, signature: "sha256=00" },
			account: { id: "acc_x", name: "Demo" },
		};
		expect(validator.checkWebhook(delivery)).toEqual([]);
		// webhook.test carries no test_mode; an interview event must.
		expect(
			validator.checkWebhook({ ...delivery, data: { ...delivery.data, test_mode: true } }).join(),
		).toMatch(/must NOT have additional properties/);
		const scheduled = {
			...delivery,
			event: "interview.scheduled",
			data: { id: "int_x", candidate_email: "a@example.com", position: "QA", scheduled_at: at },
		};
		expect(validator.checkWebhook(scheduled).join()).toMatch(/must have required property 'test_mode'/);
		expect(validator.checkWebhook({ ...delivery, event: "interview.unknown" }).join()).toMatch(
			/not documented/,
		);
	});

	it("checks admin answers too: a real one passes, a wrong shape and a missing key fail", async () => {
		const validator = await openApiValidator(service);
		// api() itself validates every /admin answer against the document.
		const account = await api(service, "GET", `/admin/accounts/${service.accountId}`, {
			key: service.adminToken,
		});
		expect(account.status).toBe(200);
		expect(account.body.data.keys.length).toBeGreaterThan(0);
		const path = `/admin/accounts/${service.accountId}`;
		expect(validator.check("GET", path, 200, account.headers, account.body)).toEqual([]);
		const wrong = structuredClone(account.body);
		wrong.data.plan = "Free";
		expect(validator.check("GET", path, 200, account.headers, wrong).join()).toMatch(
			/plan must be equal to one of/,
		);
		const noLimits = structuredClone(account.body);
		delete noLimits.data.limits.monthly_interviews;
		expect(validator.check("GET", path, 200, account.headers, noLimits).join()).toMatch(
			/must have required property 'monthly_interviews'/,
		);
		const refused = await api(service, "GET", path, { key: service.keys.live });
		expect([refused.status, refused.body.error.code]).toEqual([401, "INVALID_API_KEY"]);
		const created = await api(service, "POST", `/admin/accounts/${service.accountId}/users`, {
			key: service.adminToken,
			body: { email: "validated@example.com", role: "member" },
		});
		expect(created.status).toBe(201);
		expect(typeof created.body.data.password).toBe("string");
	});

	it("accepts a real answer and refuses the same answer with a wrong shape", async () => {
		const validator = await openApiValidator(service);
		const created = await api(service, "POST", "/v1/interviews", {
			key: service.keys.test,
			body: { candidate_email: "val@example.com", position: "QA", skills: ["Testing"] },
		});
		expect(created.status).toBe(201);
		const { headers, body } = created;
		expect(validator.check("POST", "/v1/interviews", 201, headers, body)).toEqual([]);

		const wrongType = structuredClone(body);
		wrongType.data.estimated_duration = "30";
		expect(validator.check("POST", "/v1/interviews", 201, headers, wrongType).join()).toMatch(
			/estimated_duration must be integer/,
		);
		const missing = structuredClone(body);
		delete missing.data.id;
		expect(validator.check("POST", "/v1/interviews", 201, headers, missing).join()).toMatch(
			/must have required property 'id'/,
		);
		const extra = structuredClone(body);
		extra.data.unexpected = true;
		expect(validator.check("POST", "/v1/interviews", 201, headers, extra).join()).toMatch(
			/must NOT have additional properties/,
		);
		expect(validator.check("POST", "/v1/interviews", 418, headers, body).join()).toMatch(
			/418 is not documented/,
		);
		const noHeaders = new Headers({ "X-Request-Id": headers.get("X-Request-Id") ?? "" });
		expect(validator.check("POST", "/v1/interviews", 201, noHeaders, body).join()).toMatch(
			/header X-RateLimit-Limit missing/,
		);
		const wrongCode = {
			success: false,
			error: { code: "WEBHOOK_NOT_FOUND", message: "x" },
			meta: body.meta,
		};
		expect(validator.check("GET", "/v1/interviews/int_x", 404, headers, wrongCode).join()).toMatch(
			/allowed values/,
		);
	});
});
