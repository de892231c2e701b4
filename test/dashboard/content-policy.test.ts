import { describe, expect, it, vi } from "vitest";
import { DASHBOARD_JS, DASHBOARD_JS_PATH } from "../../src/dashboard/script";
import { Browser, dashboardAccount, signedIn } from "../support/dashboard-helpers";
import { call, validInterview } from "../support/helpers";
import { startInterview } from "../support/lifecycle-helpers";

vi.setConfig({ testTimeout: 30_000 });

/** Every `<script>` element of a page, as written. */
function scripts(html: string): string[] {
	return [...html.matchAll(/<script\b[^>]*>[\s\S]*?<\/script>/g)].map((m) => m[0]);
}

describe("the dashboard's Content-Security-Policy", () => {
	it("allows script only from the service's file, and no page holds inline script or handlers", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const created = await call("POST", "/v1/interviews", { key: a.live, body: validInterview() });
		const { id: live } = await startInterview(a.test);
		const pages = [
			"/dashboard/interviews",
			"/dashboard/interviews/new",
			"/dashboard/interviews/bulk",
			`/dashboard/interviews/${created.body.data.id}`,
			`/dashboard/interviews/${live}`,
			"/dashboard/settings/api-keys",
			"/dashboard/settings/webhooks",
			"/dashboard/account",
			"/dashboard/team",
			"/dashboard/nope",
		];
		for (const path of pages) {
			const page = await owner.get(path);
			expect([200, 404], path).toContain(page.status);
			const policy = page.headers.get("Content-Security-Policy") ?? "";
			expect(policy, path).toContain("default-src 'none'");
			expect(policy, path).toContain("script-src 'self';");
			expect(policy, path).toContain("frame-ancestors 'none'");
			expect(policy, path).toContain("form-action 'self'");
			// Audio (the results page's recordings) only from the service itself.
			expect(policy, path).toMatch(/media-src 'self'( http:\/\/[^;\s]+)?;/);
			expect(scripts(page.text), path).toEqual([`<script src="${DASHBOARD_JS_PATH}" defer=""></script>`]);
			expect(page.text, path).not.toMatch(/\son[a-z]+=/i);
		}
		// The live view's section names its ticket and token for the script.
		const livePage = await owner.get(`/dashboard/interviews/${live}`);
		expect(livePage.text).toContain(`data-ticket="/dashboard/interviews/${live}/live-ticket"`);
		// Signed out: the sign-in page has the same policy.
		const login = await new Browser().get("/dashboard/login");
		expect(login.headers.get("Content-Security-Policy")).toContain("script-src 'self';");
		expect(scripts(login.text)).toHaveLength(1);
	});

	it("serves the script as a file whose URL changes with it", async () => {
		const res = await new Browser().get(DASHBOARD_JS_PATH);
		expect(res.status).toBe(200);
		expect(res.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
		expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
		expect(res.text).toBe(DASHBOARD_JS);
		for (const part of ["data-copy", "form_id ", "data-ticket", "token-field", "data-utc"])
			expect(res.text).toContain(part);
		expect(DASHBOARD_JS_PATH).toMatch(/^\/dashboard\/assets\/dashboard\.js\?v=[0-9a-z]+$/);
	});
});
