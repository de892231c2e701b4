// /docs, the interactive API reference, in a real browser (headless Chromium) against the real
// local service, with the browser cut off from everything but the service: every request to
// another host is refused and fails the test. The reference must render the operations from the
// service's own script and document. The screenshot goes to test-output/screenshots/docs.png.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, type Service, startService } from "./harness";

const SHOTS = join(import.meta.dirname, "..", "..", "test-output", "screenshots");
let service: Service;
let browser: Browser;

beforeAll(async () => {
	mkdirSync(SHOTS, { recursive: true });
	service = await startService();
	browser = await launchChromium();
});

afterAll(async () => {
	await browser?.close();
	await service?.stop();
});

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost"]);

describe("/docs in a real browser, offline", () => {
	it("serves the page with its own script and a policy that allows nothing from elsewhere", async () => {
		const res = await fetch(`${service.baseUrl}/docs`);
		expect(res.status).toBe(200);
		const policy = res.headers.get("Content-Security-Policy") ?? "";
		expect(policy).toMatch(/default-src 'none'/);
		expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
		expect(policy).toMatch(/connect-src 'self'(;|$)/);
		expect(res.headers.get("X-Frame-Options")).toBe("DENY");
		const html = await res.text();
		expect(html).toContain('<script src="/docs/scalar/standalone.js"');
		expect(html).not.toMatch(/https?:\/\//);
		// Each answer has its own nonce.
		const again = (await fetch(`${service.baseUrl}/docs`)).headers.get("Content-Security-Policy");
		expect(again).not.toBe(policy);

		const script = await fetch(`${service.baseUrl}/docs/scalar/standalone.js`);
		expect(script.status).toBe(200);
		expect(script.headers.get("Content-Type")).toMatch(/javascript/);
		expect(script.headers.get("X-Content-Type-Options")).toBe("nosniff");
		expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
	});

	it("renders the operations with no request leaving 127.0.0.1 and no policy violation", async () => {
		const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
		const elsewhere: string[] = [];
		await context.route("**/*", async (route) => {
			const url = new URL(route.request().url());
			if (LOCAL_HOSTS.has(url.hostname)) return route.continue();
			elsewhere.push(url.href);
			return route.abort("blockedbyclient");
		});
		const page = await context.newPage();
		const violations: string[] = [];
		const failed: string[] = [];
		page.on("console", (message) => {
			if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
		});
		page.on("pageerror", (error) => failed.push(String(error)));
		try {
			const loaded = await page.goto(`${service.baseUrl}/docs`);
			expect(loaded?.status()).toBe(200);
			// The reference fetched /openapi.json and rendered its operations and their tags.
			await page.getByText("Create an interview").first().waitFor({ state: "visible", timeout: 60_000 });
			await expect(page.getByText("Cancel an interview").first().isVisible()).resolves.toBe(true);
			await expect(
				page.getByRole("heading", { name: "Interview Assessment Service API" }).first().isVisible(),
			).resolves.toBe(true);
			await page.screenshot({ path: join(SHOTS, "docs.png"), fullPage: false });
			expect(elsewhere).toEqual([]);
			expect(violations).toEqual([]);
			expect(failed).toEqual([]);
		} finally {
			await context.close();
		}
	}, 120_000);
});
