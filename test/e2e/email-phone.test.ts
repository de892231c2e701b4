import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderNotice } from "../../src/email/templates";
import { launchChromium } from "./harness";

// The candidate e-mails' HTML in a real browser at a phone's width: mail apps show it in a
// viewport as narrow, and a part that does not wrap (the written-out join link) makes the whole
// message scroll sideways.
let browser: Browser;

beforeAll(async () => {
	browser = await launchChromium();
});

afterAll(async () => {
	await browser?.close();
});

describe("the candidate e-mails on a phone", () => {
	it("fit 375 pixels without scrolling sideways, the written-out join link wrapped", async () => {
		const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
		for (const [template, addressReplaced] of [
			["invitation", false],
			["update", false],
			["cancellation", false],
			["cancellation", true],
		] as const) {
			const notice = renderNotice({
				template,
				addressReplaced,
				calendarGeneration: 0,
				openAtSend: false,
				interviewId: `int_${"A".repeat(24)}`,
				candidateEmail: "ada@example.com",
				candidateName: "Ada Lovelace",
				companyName: "Acme Corp",
				position: "Backend Engineer",
				skills: ["TypeScript", "SQL"],
				scheduledAt: Date.UTC(2026, 11, 1, 15),
				durationMinutes: 45,
				interviewUrl: `https://interviews.example.com/join/int_${"A".repeat(24)}?token=${"t".repeat(32)}`,
				sequence: 1,
				reason: "The panel moved.",
			});
			await page.setContent(notice.html);
			const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
			expect(width, template).toBeLessThanOrEqual(375);
		}
		await page.close();
	});
});
