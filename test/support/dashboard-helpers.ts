import { exports } from "cloudflare:workers";
import { admin, BASE, newAccount, type TestAccount } from "./helpers";

/**
 * A browser's cookie jar for one user, and page/form helpers against the real app. Like a
 * browser, a post of the sign-in or invitation form without a `_csrf` field first shows that
 * form (which sets the visitor's form-token cookie) and sends the token the form holds; a test of
 * the token itself passes its own `_csrf`.
 */
/** The forms of visitors without a session, which carry the form-token cookie's token instead. */
const PRE_SESSION_FORM = /^\/dashboard\/(login|invitation)(\?|$)/;

export class Browser {
	private readonly jar = new Map<string, string>();
	constructor(readonly origin = BASE) {}

	/** The Cookie header the browser sends. */
	get cookie(): string {
		return [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
	}

	set cookie(header: string) {
		this.jar.clear();
		for (const pair of header.split(/;\s*/)) {
			const at = pair.indexOf("=");
			if (at > 0) this.jar.set(pair.slice(0, at), pair.slice(at + 1));
		}
	}

	cookieValue(name: string): string | undefined {
		return this.jar.get(name);
	}

	async request(
		method: string,
		path: string,
		init: { form?: Record<string, string | string[]>; headers?: Record<string, string> } = {},
	) {
		if (method === "POST" && init.form && !("_csrf" in init.form) && PRE_SESSION_FORM.test(path)) {
			const page = await this.get(path);
			const token = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1];
			if (!token) throw new Error(`no form token on ${path}: ${page.status}`);
			init = { ...init, form: { _csrf: token, ...init.form } };
		}
		const headers: Record<string, string> = { ...init.headers };
		if (this.jar.size > 0) headers.Cookie = this.cookie;
		let body: string | undefined;
		if (init.form) {
			const params = new URLSearchParams();
			for (const [k, v] of Object.entries(init.form)) for (const one of [v].flat()) params.append(k, one);
			body = params.toString();
			headers["Content-Type"] = "application/x-www-form-urlencoded";
			headers.Origin ??= this.origin;
		}
		const response = await exports.default.fetch(`${BASE}${path}`, {
			method,
			headers,
			body,
			redirect: "manual",
		});
		for (const set of response.headers.getSetCookie()) {
			const [pair = ""] = set.split(";");
			const at = pair.indexOf("=");
			if (at <= 0) continue;
			const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
			if (value === "" || /;\s*max-age=0\b/i.test(set)) this.jar.delete(name);
			else this.jar.set(name, value);
		}
		return { status: response.status, headers: response.headers, text: await response.text() };
	}

	get(path: string) {
		return this.request("GET", path);
	}

	post(path: string, form: Record<string, string | string[]>, headers: Record<string, string> = {}) {
		return this.request("POST", path, { form, headers });
	}

	/** The page's form token. */
	async csrf(path = "/dashboard/interviews"): Promise<string> {
		const page = await this.get(path);
		const match = /name="_csrf" value="([^"]+)"/.exec(page.text);
		if (!match?.[1]) throw new Error(`no form token on ${path}: ${page.status}`);
		return match[1];
	}

	/** The `form_id` of the form posting to `action` on the page at `path` (a create form's id). */
	async formId(path: string, action = path): Promise<string> {
		const page = await this.get(path);
		const form =
			new RegExp(`<form[^>]*action="${action}"[^>]*>([\\s\\S]*?)</form>`).exec(page.text)?.[1] ?? "";
		const match = /name="form_id" value="([0-9A-Za-z]{24})"/.exec(form);
		if (!match?.[1]) throw new Error(`no form id for ${action} on ${path}: ${page.status}`);
		return match[1];
	}

	async signIn(email: string, password: string) {
		return this.post("/dashboard/login", { email, password });
	}
}

export interface DashboardAccount extends TestAccount {
	owner: { id: string; email: string; password: string };
}

let counter = 0;
export function uniqueEmail(name: string): string {
	counter++;
	return `${name}.${Date.now().toString(36)}${counter}@example.com`;
}

export async function newUser(accountId: string, role: "owner" | "member", email = uniqueEmail(role)) {
	const res = await admin("POST", `/accounts/${accountId}/users`, { email, role });
	if (res.status !== 201) throw new Error(`user creation failed: ${JSON.stringify(res.body)}`);
	return res.body.data as { id: string; email: string; password: string; role: string };
}

export async function dashboardAccount(): Promise<DashboardAccount> {
	const account = await newAccount();
	return { ...account, owner: await newUser(account.id, "owner") };
}

export async function signedIn(user: { email: string; password: string }): Promise<Browser> {
	const browser = new Browser();
	const res = await browser.signIn(user.email, user.password);
	if (res.status !== 303) throw new Error(`sign-in failed: ${res.status} ${res.text.slice(0, 300)}`);
	return browser;
}
