import { exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { Browser, dashboardAccount, signedIn } from "../support/dashboard-helpers";
import { BASE, call } from "../support/helpers";

// Sign-ins hash at 600,000 PBKDF2 iterations: slower than the default 5 s under load.
vi.setConfig({ testTimeout: 30_000 });

describe("unknown paths", () => {
	it("under /dashboard answer a 404 page in the dashboard's layout", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		for (const path of [
			"/dashboard/nope",
			"/dashboard/settings/api-keys/key_x/extra",
			"/dashboard/interviews/a/b/c",
		]) {
			const page = await owner.get(path);
			expect(page.status, path).toBe(404);
			expect(page.headers.get("Content-Type"), path).toMatch(/^text\/html/);
			expect(page.text).toContain("<title>Page not found · Interview dashboard</title>");
			expect(page.text).toContain("<h1>Page not found</h1>");
			expect(page.text).toContain(`<code>${path}</code>`);
			// The layout: the signed-in user's navigation and sign-out.
			expect(page.text).toContain(a.owner.email);
			expect(page.text).toContain('aria-label="Main"');
			expect(page.text).not.toContain('"success":false');
			expect(page.headers.get("X-Frame-Options")).toBe("DENY");
			expect(page.headers.get("Cache-Control")).toBe("no-store");
		}
		// A form post to an unknown path: the form token is checked first, then the same page.
		const token = await owner.csrf();
		const refused = await owner.post("/dashboard/nope", {});
		expect(refused.status).toBe(403);
		const posted = await owner.post("/dashboard/nope", { _csrf: token });
		expect(posted.status).toBe(404);
		expect(posted.text).toContain("<h1>Page not found</h1>");
	});

	it("under /dashboard send a visitor without a session to sign in first", async () => {
		const page = await new Browser().get("/dashboard/nope");
		expect(page.status).toBe(303);
		expect(page.headers.get("Location")).toBe(
			`/dashboard/login?next=${encodeURIComponent("/dashboard/nope")}`,
		);
	});

	it("elsewhere keep the API's JSON envelope", async () => {
		const a = await dashboardAccount();
		const api = await call("GET", "/v1/nope", { key: a.live });
		expect(api.status).toBe(404);
		expect(api.headers.get("Content-Type")).toMatch(/^application\/json/);
		expect(api.body.success).toBe(false);
		expect(api.body.error.code).toBe("NOT_FOUND");
		for (const path of ["/nope", "/dashboardx", "/api/v1/nope"]) {
			const res = await exports.default.fetch(`${BASE}${path}`);
			expect(res.status, path).toBe(404);
			expect(res.headers.get("Content-Type"), path).toMatch(/^application\/json/);
			const body = (await res.json()) as { error: { code: string } };
			expect(body.error.code).toBe("NOT_FOUND");
		}
	});
});
