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
	/** The problems of a webhook delivery's body against its event under `webhooks`. */
	checkWebhook(body: unknown): string[];
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
		checkWebhook(body) {
			const event = (body as { event?: unknown } | null)?.event;
			if (typeof event !== "string" || !document.webhooks?.[event])
				return [`webhook event ${String(event)} is not documented`];
			return schemaCheck(
				pointer("webhooks", event, "post", "requestBody", "content", "application/json", "schema"),
				body,
			).map((p) => `webhook ${event}: ${p}`);
		},
	};
}

/**
 * Where the document leaves a shape open: an object schema with no `properties` whose other keys
 * are unconstrained (no `additionalProperties` schema, or `true`, or `{}`), an object with
 * `properties` that still admits any other key (`additionalProperties` `true` or `{}`), and a
 * property, item or map value schema that says nothing (`{}`: any JSON). Answers the JSON
 * pointers of each. A map with typed values (`additionalProperties: {type: …}`) is not open.
 */
export function openSchemas(document: Json): string[] {
	const found: string[] = [];
	const isEmpty = (node: unknown) =>
		node !== null &&
		typeof node === "object" &&
		!Array.isArray(node) &&
		Object.keys(node).every((k) => k === "description");
	const isObjectType = (node: Json) =>
		node.type === "object" || (Array.isArray(node.type) && node.type.includes("object"));
	const visit = (node: unknown, path: string, schema: boolean) => {
		if (Array.isArray(node)) {
			for (const [i, item] of node.entries()) visit(item, `${path}/${i}`, schema);
			return;
		}
		if (node === null || typeof node !== "object") return;
		const n = node as Json;
		if (schema) {
			const extra = n.additionalProperties;
			const extraOpen = extra === undefined || extra === true || isEmpty(extra);
			if (isEmpty(n)) found.push(`${path} (any value)`);
			else if (isObjectType(n) && !n.properties && !n.allOf && !n.anyOf && !n.oneOf && extraOpen)
				found.push(`${path} (object without properties)`);
			else if (n.properties && (extra === true || isEmpty(extra)))
				found.push(`${path} (admits any other key)`);
		}
		for (const [key, value] of Object.entries(n)) {
			const child = `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
			if (key === "schema" || key === "items" || key === "additionalProperties") visit(value, child, true);
			else if (key === "properties" || key === "schemas" || key === "$defs")
				for (const [name, sub] of Object.entries((value ?? {}) as Json)) visit(sub, `${child}/${name}`, true);
			else if (key === "anyOf" || key === "oneOf" || key === "allOf") visit(value, child, true);
			else visit(value, child, false);
		}
	};
	visit(document, "#", false);
	return found;
}
