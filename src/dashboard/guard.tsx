import type { Context, MiddlewareHandler } from "hono";
import { AppError } from "../platform/http/errors";
import { hasControlCharacter, issueFields, withoutControls } from "../platform/http/validation";
import { constantTimeEqual } from "../platform/lib/crypto";
import { Page } from "./layout";
import type { DashBindings } from "./session";

export type DashContext = Context<DashBindings>;

/** A page in words for a refusal: 403, 404, the CSRF refusal and a form with a control character. */
export function refusalPage(c: DashContext, status: 403 | 404 | 422, title: string, text: string) {
	const user = c.var.dashboard ?? null;
	return c.html(
		<Page title={title} user={user}>
			<h1>{title}</h1>
			<p>{text}</p>
			<p>
				<a href="/dashboard/interviews">Back to interviews</a>
			</p>
		</Page>,
		status,
	);
}

export function notFoundPage(c: DashContext) {
	return refusalPage(c, 404, "Not found", "There is nothing here, or it belongs to another account.");
}

/** Whether the request came from a page of this origin (`Origin`, then `Sec-Fetch-Site`). */
export function sameOrigin(c: Context): boolean {
	const origin = c.req.header("Origin");
	if (origin !== undefined && origin !== "null") {
		if (origin !== new URL(c.req.url).origin) return false;
	} else if (origin === "null") {
		return false;
	}
	const site = c.req.header("Sec-Fetch-Site");
	return site === undefined || site === "same-origin" || site === "none";
}

/**
 * CSRF on every state-changing request of a signed-in user: the request must come from this
 * origin and carry the session's form token (`_csrf`). Refused requests change nothing.
 */
export const csrf: MiddlewareHandler<DashBindings> = async (c, next) => {
	if (c.req.method === "GET" || c.req.method === "HEAD") return next();
	if (!sameOrigin(c) || !(await carriesFormToken(c, c.var.dashboard.session.csrfToken))) {
		return refusalPage(
			c,
			403,
			"Form refused",
			"This form was not sent from this dashboard, or it has expired. Reload the page and try again.",
		);
	}
	// As the API refuses such text in a JSON body (a NUL in a name would reach e-mails, pages and
	// exports), nothing of a form holding one is kept. The bulk file names its own bad rows.
	const bad = controlField(await formOf(c), ["csv"]);
	if (bad !== null) {
		return refusalPage(
			c,
			422,
			"Form not sent",
			`The field "${bad}" holds a control character (such as NUL or escape), which the service does not keep. Nothing was changed. Go back, remove it, and send the form again.`,
		);
	}
	return next();
};

/** The first field of `form` (but those `skip` names) whose text holds a control character, or null. */
export function controlField(form: Record<string, FormValue>, skip: readonly string[] = []): string | null {
	for (const [name, value] of Object.entries(form)) {
		if (skip.includes(name)) continue;
		const values = Array.isArray(value) ? value : [value];
		if (hasControlCharacter(name) || values.some((v) => typeof v === "string" && hasControlCharacter(v)))
			return withoutControls(name);
	}
	return null;
}

/** Whether the request's form carries the session's form token (`_csrf`). */
export async function carriesFormToken(c: Context, sessionToken: string): Promise<boolean> {
	const form = await formOf(c);
	return constantTimeEqual(typeof form._csrf === "string" ? form._csrf : "", sessionToken);
}

export type FormValue = string | File | (string | File)[];

/**
 * The request's form, parsed once (multipart or urlencoded), repeated fields as arrays. A body
 * that cannot be read as a form (a multipart body without its boundary, cut short) is an empty
 * form: each page then refuses it as it refuses missing fields (the form token first).
 */
export async function formOf(c: Context): Promise<Record<string, FormValue>> {
	const cached = c.get("form" as never) as Record<string, FormValue> | undefined;
	if (cached) return cached;
	let parsed: Record<string, FormValue>;
	try {
		parsed = (await c.req.parseBody({ all: true })) as Record<string, FormValue>;
	} catch {
		parsed = {};
	}
	c.set("form" as never, parsed as never);
	return parsed;
}

export function field(form: Record<string, FormValue>, name: string): string {
	const value = form[name];
	const first = Array.isArray(value) ? value[0] : value;
	return typeof first === "string" ? first.trim() : "";
}

export function fieldAll(form: Record<string, FormValue>, name: string): string[] {
	const value = form[name];
	const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
	return list.filter((v): v is string => typeof v === "string");
}

/**
 * A schema's refusal by the form's own field names: an item of a list field is the field
 * (`skills.0` is `skills`), and `rename` maps the service's names to the form's where they differ.
 */
export function formIssues(
	issues: Parameters<typeof issueFields>[0],
	rename: Record<string, string> = {},
): Record<string, string> {
	const fields: Record<string, string> = {};
	for (const [path, message] of Object.entries(issueFields(issues))) {
		const base = path.replace(/\.\d+$/, "");
		const name = rename[base] ?? base;
		fields[name] ??= message;
	}
	return fields;
}

/** A service's refusal in words, with the fields it names. */
export function describe(error: unknown): { message: string; fields?: Record<string, string> } {
	if (error instanceof AppError) {
		const fields =
			error.code === "VALIDATION_ERROR" && error.details
				? Object.fromEntries(Object.entries(error.details).map(([k, v]) => [k, String(v)]))
				: undefined;
		// The fields are listed below the message: the API's message, which names them too, would
		// say each twice.
		return fields ? { message: "Check the fields named below.", fields } : { message: error.message };
	}
	throw error;
}

/** The status of a page showing a service's refusal: 422, or the service's own for a failure of ours. */
export function refusalStatus(error: unknown): 422 | 500 | 503 {
	if (error instanceof AppError && (error.status === 500 || error.status === 503)) return error.status;
	return 422;
}

/** Owner pages: a member gets a 403 page. */
export const ownerOnly: MiddlewareHandler<DashBindings> = async (c, next) => {
	if (c.var.dashboard.user.role !== "owner") {
		return refusalPage(c, 403, "Owners only", "Only an owner of this account can open this page.");
	}
	return next();
};
