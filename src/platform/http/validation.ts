import { zValidator } from "@hono/zod-validator";
import type { Context, MiddlewareHandler, ValidationTargets } from "hono";
import { bodyLimit } from "hono/body-limit";
import { validator } from "hono/validator";
import { z } from "zod";
import type { AppBindings } from "./context";
import { AppError, validationError } from "./errors";

z.config({
	customError: (issue) =>
		issue.input === undefined && issue.code === "invalid_type" ? "Required" : undefined,
});

/** Zod issues as the contract's field -> message map (dotted paths; `body` for the whole body). */
export function issueFields(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
	// No prototype: a field named `__proto__` is a key like any other.
	const fields: Record<string, string> = Object.create(null);
	for (const issue of issues) {
		if (issue.code === "unrecognized_keys") {
			for (const key of issue.keys) fields[[...issue.path, key].join(".")] = "Unknown field";
			continue;
		}
		const name = issue.path.length > 0 ? issue.path.map(String).join(".") : "body";
		fields[name] ??= issue.message;
	}
	return fields;
}

/** `@hono/zod-validator`, wrapped once so every failure is the contract's VALIDATION_ERROR. */
export function validate<T extends keyof ValidationTargets, S extends z.ZodType>(target: T, schema: S) {
	return zValidator(target, schema, (result) => {
		if (!result.success) throw validationError(issueFields(result.error.issues));
	});
}

/**
 * A JSON body's schema and then checks that need the request (its time, the environment): the
 * whole of validation runs before idempotency and before anything is looked up, as decisions.md
 * orders them. `check` throws `validationError` to refuse and returns the value handlers see.
 */
export function validateJson<S extends z.ZodType, R>(
	schema: S,
	check: (data: z.output<S>, c: Context<AppBindings>) => R,
) {
	return validator("json", (value, c: Context<AppBindings>) => {
		const parsed = schema.safeParse(value);
		if (!parsed.success) throw validationError(issueFields(parsed.error.issues));
		return check(parsed.data, c);
	});
}

/** The query of a route that takes no parameters: any parameter is an unknown field. */
export const noQuery = z.strictObject({});

export const MAX_BODY_BYTES = 1024 * 1024;

function isJsonMediaType(contentType: string | undefined): boolean {
	const media = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
	return /^application\/([\w.-]+\+)?json$/.test(media);
}

/**
 * At most 1 MiB of body (413 `PAYLOAD_TOO_LARGE` beyond): a larger declared length is refused
 * before reading, a body without one is counted as it streams in (hono's body limit).
 */
const capBody = bodyLimit({
	maxSize: MAX_BODY_BYTES,
	onError: () => {
		throw tooLarge();
	},
});

/**
 * Reads a request body at most 1 MiB long (413 beyond) and insists on JSON, before any
 * validator sees it. The text is cached on the request so validators parse it from memory.
 */
export const jsonBodyGuard: MiddlewareHandler<AppBindings> = async (c, next) => {
	if (c.req.method === "GET" || c.req.method === "HEAD") return next();
	return capBody(c, () => checkJsonBody(c, next));
};

async function checkJsonBody(c: Context<AppBindings>, next: () => Promise<void>): Promise<void> {
	// As bytes: a form body read as text is a warning of the runtime's; it is refused below anyway.
	const text = new TextDecoder().decode(await c.req.arrayBuffer());
	refuseIllFormedJson(text);
	if (c.req.method === "DELETE") {
		// Its options are query parameters: a body would be silently ignored, so it is refused.
		if (text.trim() !== "") {
			throw validationError({
				body: "A DELETE request takes no body; pass its options as query parameters",
			});
		}
		return next();
	}
	if (text.trim() !== "" && !isJsonMediaType(c.req.header("Content-Type"))) {
		throw validationError({ body: "Content-Type must be application/json" });
	}
	// Hono keeps promises in its body cache; validators parse the JSON from this text.
	(c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text.trim() === "" ? "{}" : text);
	return next();
}

const ILL_FORMED_MESSAGE = "Must be well-formed Unicode text (no unpaired surrogate code points)";

/** A `\uD800`–`\uDFFF` escape: the only way JSON text decoded from UTF-8 can carry a surrogate. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/**
 * A JSON body whose strings (values or member names) hold an unpaired surrogate is refused with
 * VALIDATION_ERROR naming the first such field by its dotted path, before any schema sees it:
 * every text field of every endpoint is covered in one place. Only a body that contains a
 * surrogate escape at all is parsed here; a body that is not JSON is left to the validators.
 * (A query string cannot carry one: a request URL is percent-encoded UTF-8, and a percent-encoded
 * surrogate half is not UTF-8, so it never decodes to a surrogate.)
 */
export function refuseIllFormedJson(text: string): void {
	if (!SURROGATE_ESCAPE.test(text)) return;
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return;
	}
	const field = illFormedPath(value, []);
	if (field !== null) throw validationError({ [field]: ILL_FORMED_MESSAGE });
}

/** The dotted path of the first string in `value` that is not well-formed, or null. */
export function illFormedPath(value: unknown, path: readonly string[]): string | null {
	if (typeof value === "string") return value.isWellFormed() ? null : path.join(".") || "body";
	if (Array.isArray(value)) {
		for (const [i, item] of value.entries()) {
			const found = illFormedPath(item, [...path, String(i)]);
			if (found !== null) return found;
		}
		return null;
	}
	if (value !== null && typeof value === "object") {
		for (const [key, item] of Object.entries(value)) {
			if (!key.isWellFormed()) return [...path, key.toWellFormed()].join(".");
			const found = illFormedPath(item, [...path, key]);
			if (found !== null) return found;
		}
	}
	return null;
}

/**
 * A request's body as bytes, at most `max`: a larger declared length is refused before reading;
 * a body without one is counted as it streams in and refused once it passes `max`.
 */
export async function readCappedBytes(
	request: Request,
	max: number,
	tooLarge: () => Error,
): Promise<Uint8Array> {
	if (!request.body) return new Uint8Array(0);
	const declared = request.headers.get("Content-Length");
	if (declared !== null) {
		if (Number(declared) > max) throw tooLarge();
		// A declared length is the body's exact length (HTTP framing): one read.
		return new Uint8Array(await request.arrayBuffer());
	}
	return readStreamCapped(request.body, max, tooLarge);
}

async function readStreamCapped(
	body: ReadableStream<Uint8Array>,
	max: number,
	tooLarge: () => Error,
): Promise<Uint8Array> {
	const reader = body.getReader();
	const parts: Uint8Array[] = [];
	let size = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		size += value.byteLength;
		if (size > max) {
			await reader.cancel();
			throw tooLarge();
		}
		parts.push(value);
	}
	const bytes = new Uint8Array(size);
	let at = 0;
	for (const part of parts) {
		bytes.set(part, at);
		at += part.byteLength;
	}
	return bytes;
}

function tooLarge(): AppError {
	return new AppError("PAYLOAD_TOO_LARGE", `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`, {
		max_bytes: MAX_BODY_BYTES,
	});
}

/** Query booleans: exactly `true` or `false`. */
export const queryBoolean = z
	.enum(["true", "false"], { error: "Must be true or false" })
	.transform((v) => v === "true");
