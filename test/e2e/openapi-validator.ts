// Checks an answer of the real service against the OpenAPI document it serves at /openapi.json:
// the operation for the method and path, the response for the status, the body against that
// response's JSON Schema (ajv, draft 2020-12 as OpenAPI 3.1 uses it) and the presence of the
// headers it documents. The harness's `api()` runs it on every /v1 and /api/v1 answer.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS: its default import is the module object under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
	addFormatsModule) as unknown as (ajv: Ajv2020) => void;

type Json = Record<string, any>;

export interface OpenApiValidator {
	document: Json;
	/** The problems found (empty when the answer matches the document). */
	check(method: string, url: string, status: number, headers: Headers, body: unknown): string[];
}

/** Headers present only in some answers of a documented response. */
const OCCASIONAL_HEADERS = new Set(["idempotent-replayed", "original-request-id", "retry-after"]);

const pointer = (...parts: string[]) =>
	parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

export function createValidator(document: Json): OpenApiValidator {
	const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
	addFormats(ajv);
	ajv.addSchema(document, "openapi");
	const compiled = new Map<string, ValidateFunction>();
	const templates = Object.keys(document.paths).map((template) => ({
		template,
		literal: !template.includes("{"),
		pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
	}));

	function resolve(value: Json): Json {
		if (typeof value?.$ref !== "string") return value;
		const path = (value.$ref as string).replace(/^#\//, "").split("/");
		return path.reduce((node: Json, key) => node?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], document);
	}

	function schemaCheck(ref: string, body: unknown): string[] {
		let validate = compiled.get(ref);
		if (!validate) {
			validate = ajv.compile({ $ref: `openapi#/${ref}` });
			compiled.set(ref, validate);
		}
		if (validate(body)) return [];
		return (validate.errors ?? []).map(
			(e) => `body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`,
		);
	}

	return {
		document,
		check(method, url, status, headers, body) {
			const path = new URL(url, "http://x").pathname;
			const lower = method.toLowerCase();
			// A path written out (`/v1/interviews/bulk`) is that path alone, never also an `{id}`.
			const literal = templates.find((t) => t.literal && t.pattern.test(path));
			const candidates = literal ? [literal] : templates.filter((t) => t.pattern.test(path));
			const chosen = candidates.find((t) => document.paths[t.template][lower]);
			if (!chosen) {
				// No such operation: only the error envelope of 404 or 405 is a right answer.
				if (status !== 404 && status !== 405) return [`${method} ${path}: no operation in the document`];
				return schemaCheck("components/schemas/Error", body);
			}
			const responses = document.paths[chosen.template][lower].responses as Json;
			const response = resolve(responses[String(status)]);
			if (!response) {
				return [
					`${method} ${chosen.template}: status ${status} is not documented (${Object.keys(responses)})`,
				];
			}
			const problems: string[] = [];
			for (const name of Object.keys(response.headers ?? {})) {
				if (!OCCASIONAL_HEADERS.has(name.toLowerCase()) && headers.get(name) === null) {
					problems.push(`${method} ${chosen.template} ${status}: header ${name} missing`);
				}
			}
			const ref = pointer("paths", chosen.template, lower, "responses", String(status));
			if (response.content?.["application/json"]) {
				const target = responses[String(status)].$ref
					? (responses[String(status)].$ref as string).replace(/^#\//, "")
					: ref;
				problems.push(
					...schemaCheck(`${target}/content/application~1json/schema`, body).map(
						(p) => `${method} ${chosen.template} ${status}: ${p}`,
					),
				);
			}
			return problems;
		},
	};
}
