import { zValidator } from "@hono/zod-validator";
import type { Context, MiddlewareHandler, ValidationTargets } from "hono";
import { bodyLimit } from "hono/body-limit";
import { validator } from "hono/validator";
import { z } from "zod";
import type { AppBindings } from "./context";
import { AppError, validationError } from "./errors";

z.config({ customError: defaultMessage });

/** A schema's own message for a wrong value, and "Required" when the field is missing. */
export function requiredOr(text: string) {
	return (issue: { input?: unknown }) => (issue.input === undefined ? "Required" : text);
}

/** A JSON type with its article: "a string", "an array". */
function aType(type: string): string {
	const name = ["int", "bigint", "nan"].includes(type) ? "number" : type;
	return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}

function mustBeOneOf(values: readonly unknown[]): string {
	return `Must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;
}

/**
 * The house's words for zod's issues where a schema gives none of its own ("Must be at most 200
 * characters", not "Too big: expected string to have <=200 characters"); a wrong type's message
 * gets what the request sent appended by `issueFields`.
 */
function defaultMessage(issue: z.core.$ZodRawIssue): string | undefined {
	switch (issue.code) {
		case "invalid_type":
			return issue.input === undefined ? "Required" : `Must be ${aType(issue.expected)}`;
		case "too_big": {
			const most = issue.inclusive === false ? "less than" : "at most";
			if (issue.origin === "string") return `Must be ${most} ${issue.maximum} characters`;
			if (issue.origin === "array" || issue.origin === "set")
				return `Must have ${most} ${issue.maximum} items`;
			return `Must be ${most} ${issue.maximum}`;
		}
		case "too_small": {
			const least = issue.inclusive === false ? "more than" : "at least";
			if (issue.origin === "string")
				return issue.minimum === 1 ? "Must not be empty" : `Must be ${least} ${issue.minimum} characters`;
			if (issue.origin === "array" || issue.origin === "set")
				return issue.minimum === 1 ? "Must not be empty" : `Must have ${least} ${issue.minimum} items`;
			return `Must be ${least} ${issue.minimum}`;
		}
		case "invalid_value":
			return issue.values.length === 1
				? `Must be ${JSON.stringify(issue.values[0])}`
				: mustBeOneOf(issue.values);
		case "invalid_union": {
			// A discriminated union's tag that names no member: missing, or the tags it takes.
			const { discriminator, options } = issue as { discriminator?: string; options?: unknown[] };
			if (discriminator === undefined || !Array.isArray(options) || options.length === 0) return undefined;
			const input = issue.input;
			const given =
				typeof input === "object" && input !== null
					? (input as Record<string, unknown>)[discriminator]
					: undefined;
			return given === undefined ? "Required" : mustBeOneOf(options);
		}
		default:
			return undefined;
	}
}

/** What a request sent, said as a caller reads JSON: `string`, `number`, `array`, `null`, ... */
function jsonTypeOf(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "array";
	return typeof value;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
	let value = input;
	for (const key of path) {
		if (typeof value !== "object" || value === null) return undefined;
		value = (value as Record<PropertyKey, unknown>)[key];
	}
	return value;
}

type SchemaDef = {
	type?: string;
	innerType?: unknown;
	in?: unknown;
	shape?: Record<string, unknown>;
	element?: unknown;
};

function defOf(schema: unknown): SchemaDef | undefined {
	return (schema as { _zod?: { def?: SchemaDef } } | undefined)?._zod?.def;
}

/** The schema inside optional, default, nullable and pipe wrappers. */
function unwrap(schema: unknown): unknown {
	let current = schema;
	for (let i = 0; i < 10; i++) {
		const def = defOf(current);
		if (!def) return current;
		if (["optional", "default", "prefault", "nullable", "readonly", "catch"].includes(def.type ?? "")) {
			current = def.innerType;
		} else if (def.type === "pipe") {
			current = def.in;
		} else {
			return current;
		}
	}
	return current;
}

/** The field names the object schema at `path` knows (empty when there is none). */
function knownKeysAt(schema: unknown, path: readonly PropertyKey[]): string[] {
	let current = unwrap(schema);
	for (const key of path) {
		const def = defOf(current);
		if (def?.type === "object" && def.shape) current = unwrap(def.shape[String(key)]);
		else if (def?.type === "array") current = unwrap(def.element);
		else return [];
	}
	const def = defOf(current);
	return def?.type === "object" && def.shape ? Object.keys(def.shape) : [];
}

/**
 * The edit distance between `a` and `b` when it is at most `max`, else `max + 1` (any larger
 * distance is told apart from no larger one, so it never passes a caller's threshold).
 */
function editDistance(a: string, b: string, max: number): number {
	if (Math.abs(a.length - b.length) > max) return max + 1;
	let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const row = [i];
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			row[j] = Math.min(
				(previous[j] as number) + 1,
				(row[j - 1] as number) + 1,
				(previous[j - 1] as number) + cost,
			);
		}
		// A row's smallest entry never shrinks further down: past `max` here, past it at the end.
		if (Math.min(...row) > max) return max + 1;
		previous = row;
	}
	return Math.min(previous[b.length] as number, max + 1);
}

/** The known field an unknown one is most likely a misspelling of, if any is close enough. */
export function closestField(unknown: string, known: readonly string[]): string | null {
	const limit = Math.max(1, Math.floor(unknown.length / 4));
	let best: string | null = null;
	let bestDistance = limit + 1;
	for (const candidate of known) {
		const distance = editDistance(unknown.toLowerCase(), candidate.toLowerCase(), limit);
		if (distance < bestDistance) {
			best = candidate;
			bestDistance = distance;
		}
	}
	return best;
}

/**
 * How many unknown fields an error names: the rest are counted in one more entry, `body`, so an
 * error stays small whatever the request sent ("and 59,980 more unknown fields").
 */
export const MAX_UNKNOWN_FIELDS_NAMED = 20;

/**
 * Zod issues as the contract's field -> message map (dotted paths; `body` for the whole body).
 * Given the request's `input` and `schema`, a wrong type says what it got ("Must be a string
 * (expected string, received number)") and an unknown field near a known one names it
 * ("Unknown field 'candidat_email'; did you mean 'candidate_email'?"). At most
 * `MAX_UNKNOWN_FIELDS_NAMED` unknown fields are named; `body` counts the rest.
 */
export function issueFields(
	issues: readonly z.core.$ZodIssue[],
	context: { input?: unknown; schema?: unknown; query?: boolean } = {},
): Record<string, string> {
	// No prototype: a field named `__proto__` is a key like any other.
	const fields: Record<string, string> = Object.create(null);
	let unknownNamed = 0;
	let unknownMore = 0;
	for (const issue of issues) {
		if (issue.code === "unrecognized_keys") {
			const known = context.schema === undefined ? [] : knownKeysAt(context.schema, issue.path);
			for (const key of issue.keys) {
				if (unknownNamed === MAX_UNKNOWN_FIELDS_NAMED) {
					unknownMore++;
					continue;
				}
				unknownNamed++;
				const suggestion = closestField(key, known);
				fields[[...issue.path, key].join(".")] =
					suggestion === null ? "Unknown field" : `Unknown field '${key}'; did you mean '${suggestion}'?`;
			}
			continue;
		}
		const name = issue.path.length > 0 ? issue.path.map(String).join(".") : "body";
		let text = issue.message;
		// A query parameter sent twice (`?limit=5&limit=6`) reads as a list of its values.
		if (context.query && Array.isArray(valueAt(context.input, issue.path))) {
			fields[name] ??= "Must be given once";
			continue;
		}
		if (issue.code === "invalid_type" && "input" in context && text !== "Required") {
			const received = valueAt(context.input, issue.path);
			const got = jsonTypeOf(received);
			const expected = ["int", "bigint", "nan"].includes(issue.expected) ? "number" : issue.expected;
			// A number that is not whole is of the right type: its message says what is wrong.
			if (received !== undefined && got !== expected && !text.includes("expected")) {
				text = `${text} (expected ${expected}, received ${got})`;
			}
		}
		fields[name] ??= text;
	}
	if (unknownMore > 0) {
		const more = `and ${unknownMore.toLocaleString("en-US")} more unknown field${unknownMore === 1 ? "" : "s"}`;
		fields.body = fields.body === undefined ? more : `${fields.body}; ${more}`;
	}
	return fields;
}

/** `@hono/zod-validator`, wrapped once so every failure is the contract's VALIDATION_ERROR. */
export function validate<T extends keyof ValidationTargets, S extends z.ZodType>(target: T, schema: S) {
	const validator = zValidator(target, schema, (result) => {
		if (!result.success) {
			throw validationError(
				issueFields(result.error.issues, { input: result.data, schema, query: target === "query" }),
			);
		}
	});
	if (target !== "query") return validator;
	// A parameter whose percent-encoding cannot be decoded would reach the schema as its raw text
	// (hono keeps what it cannot decode), and a filter would then look for "%ZZ" literally.
	// Most queries hold no "%" at all: those skip the check without parsing the URL again.
	const checked: typeof validator = async (c, next) => {
		const url = c.req.url;
		const query = url.indexOf("?");
		if (query !== -1 && url.includes("%", query)) {
			const bad = undecodableParameter(url.slice(query));
			if (bad !== null) throw validationError({ [bad]: MALFORMED_ENCODING });
		}
		return validator(c, next);
	};
	return checked;
}

const MALFORMED_ENCODING =
	"Must be percent-encoded UTF-8: each % followed by two hexadecimal digits (write a literal % as %25)";

/** The first query parameter (by its name as sent) whose name or value cannot be decoded, or null. */
export function undecodableParameter(search: string): string | null {
	for (const pair of search.replace(/^\?/, "").split("&")) {
		if (!pair.includes("%")) continue;
		const at = pair.indexOf("=");
		const [name, value] = at === -1 ? [pair, ""] : [pair.slice(0, at), pair.slice(at + 1)];
		const decoded = decodeOrNull(name);
		if (decoded === null) return name;
		if (decodeOrNull(value) === null) return decoded;
	}
	return null;
}

function decodeOrNull(text: string): string | null {
	try {
		return decodeURIComponent(text.replaceAll("+", " "));
	} catch {
		return null;
	}
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
		if (!parsed.success) throw validationError(issueFields(parsed.error.issues, { input: value, schema }));
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

declare module "hono" {
	interface ContextVariableMap {
		/** A body member whose array items are checked alone, each failing on its own (`itemsCheckedAlone`). */
		itemsCheckedAlone?: string;
	}
}

/**
 * Marks a route whose body carries items that are each accepted or refused on their own (bulk):
 * the guard's well-formedness check leaves those items to the route, which refuses a bad one alone.
 */
export function itemsCheckedAlone(member: string): MiddlewareHandler<AppBindings> {
	return async (c, next) => {
		c.set("itemsCheckedAlone", member);
		await next();
	};
}

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
	refuseIllFormedJson(text, c.get("itemsCheckedAlone"));
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

export const ILL_FORMED_MESSAGE = "Must be well-formed Unicode text (no unpaired surrogate code points)";

/** A `\uD800`–`\uDFFF` escape: the only way JSON text decoded from UTF-8 can carry a surrogate. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

export const CONTROL_MESSAGE =
	"Must not contain control characters (U+0000 to U+001F other than tab, line feed and carriage return)";

/**
 * An escape that may stand for a control character (`\u0000`–`\u001F`, `\b`, `\f`): the only way
 * JSON text can carry one, since a raw control character inside a JSON string is not JSON.
 */
const CONTROL_ESCAPE = /\\u00[01][0-9a-fA-F]|\\[bf]/;

/** Whether `text` holds a C0 control character other than tab, line feed and carriage return. */
export function hasControlCharacter(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return true;
	}
	return false;
}

/** `text` with each C0 control character and DEL shown as U+FFFD, for echoing it in a message. */
export function withoutControls(text: string): string {
	let out = "";
	for (const ch of text) {
		const code = ch.charCodeAt(0);
		out += code < 0x20 || code === 0x7f ? "\uFFFD" : ch;
	}
	return out;
}

/**
 * The first string of an API body (a value or a member name, in document order) that is not text
 * the service keeps, as the error's field and message: not well-formed Unicode, or holding a
 * control character (a NUL in a name would reach e-mails, pages and exports). Null if none.
 */
export function badTextOf(value: unknown): Record<string, string> | null {
	const illFormed = illFormedPath(value);
	if (illFormed !== null) return { [illFormed]: ILL_FORMED_MESSAGE };
	const control = firstStringPath(value, [], hasControlCharacter);
	return control === null ? null : { [control]: CONTROL_MESSAGE };
}

/**
 * A JSON body whose strings (values or member names) hold an unpaired surrogate or a control
 * character (`badTextOf`) is refused with VALIDATION_ERROR naming the first such field by its
 * dotted path, before any schema sees it:
 * every text field of every endpoint is covered in one place. Only a body that contains such an
 * escape at all is parsed here; a body that is not JSON is left to the validators.
 * (A query string cannot carry one: a request URL is percent-encoded UTF-8, and a percent-encoded
 * surrogate half is not UTF-8, so it never decodes to a surrogate.)
 */
export function refuseIllFormedJson(text: string, itemsAlone?: string): void {
	if (!SURROGATE_ESCAPE.test(text) && !CONTROL_ESCAPE.test(text)) return;
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return;
	}
	// Items checked alone (a bulk's) are the route's to refuse, one by one; the rest is checked here.
	if (itemsAlone && value !== null && typeof value === "object" && !Array.isArray(value)) {
		const members = value as Record<string, unknown>;
		if (Array.isArray(members[itemsAlone])) {
			value = Object.fromEntries(Object.entries(members).filter(([key]) => key !== itemsAlone));
		}
	}
	const bad = badTextOf(value);
	if (bad !== null) throw validationError(bad);
}

/** A value met while walking a body, with the way back to its root (the path is built only when needed). */
interface Visit {
	value: unknown;
	key: string | null;
	parent: Visit | null;
}

function pathOf(visit: Visit | null, last?: string): string {
	const keys: string[] = last === undefined ? [] : [last];
	for (let at = visit; at !== null; at = at.parent) if (at.key !== null) keys.push(at.key);
	return keys.reverse().join(".") || "body";
}

/**
 * The dotted path of the first string in `value` (in document order) that is not well-formed, or
 * null. Walked with a stack of its own, not by recursion: a 10 KB body can nest 5,000 levels deep.
 */
export function illFormedPath(value: unknown, path: readonly string[] = []): string | null {
	return firstStringPath(value, path, (text) => !text.isWellFormed());
}

/** The dotted path of the first string in `value` (a value or a member name) that `bad` finds, or null. */
function firstStringPath(
	value: unknown,
	path: readonly string[],
	bad: (text: string) => boolean,
): string | null {
	let root: Visit | null = null;
	for (const key of path) root = { value: null, key, parent: root };
	const stack: Visit[] = [{ value, key: null, parent: root }];
	for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
		// A member's name before its value (an array's indices are always well-formed).
		if (visit.key !== null && bad(visit.key)) return pathOf(visit.parent, visit.key.toWellFormed());
		const v = visit.value;
		if (typeof v === "string") {
			if (bad(v)) return pathOf(visit);
		} else if (Array.isArray(v)) {
			for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: String(i), parent: visit });
		} else if (v !== null && typeof v === "object") {
			const entries = Object.entries(v);
			for (let i = entries.length - 1; i >= 0; i--) {
				const [key, item] = entries[i] as [string, unknown];
				stack.push({ value: item, key, parent: visit });
			}
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

/**
 * Query booleans: exactly `true` or `false`. Described to OpenAPI as a boolean, which is what
 * typed clients then send (`include_results: true`, written as the text `true` in the query).
 */
export const queryBoolean = z
	.enum(["true", "false"], { error: requiredOr("Must be true or false") })
	.transform((v) => v === "true")
	.meta({ type: "boolean", enum: undefined });

/** A list's `limit`: a whole number from 1 to 100, 25 when absent; an integer to OpenAPI. */
export const pageLimit = z
	.string()
	.regex(/^\d{1,3}$/, { error: requiredOr("Must be an integer from 1 to 100") })
	.transform(Number)
	.pipe(
		z
			.number()
			.min(1, { error: requiredOr("Must be an integer from 1 to 100") })
			.max(100, { error: requiredOr("Must be an integer from 1 to 100") }),
	)
	.meta({ type: "integer", minimum: 1, maximum: 100, pattern: undefined })
	.default(25);
