import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { countedRequest } from "../support/call-counts";
import { type Browser, dashboardAccount, signedIn } from "../support/dashboard-helpers";
import { BASE, call, validInterview } from "../support/helpers";

// Each sign-in hashes at 600,000 PBKDF2 iterations: slower than the default 5 s under load.
vi.setConfig({ testTimeout: 30_000 });

/** The list page through the Worker with D1 counted, as the browser would ask for it. */
function countedPage(browser: Browser, path: string) {
	return countedRequest(
		new Request(`${BASE}${path}`, { headers: { Cookie: browser.cookie }, redirect: "manual" }),
	);
}

async function sessionsOf(userId: string): Promise<number> {
	const row = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?")
		.bind(userId)
		.first<{ n: number }>();
	return row?.n ?? 0;
}

describe("the interviews list reads its session with its page", () => {
	it("in one D1 round trip, with rows, without rows and past the last page", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		for (const position of ["One trip A", "One trip B", "One trip C"]) {
			expect(
				(await call("POST", "/v1/interviews", { key: a.test, body: validInterview({ position }) })).status,
			).toBe(201);
		}
		const full = await countedPage(owner, "/dashboard/interviews?mode=test");
		const text = await full.response.text();
		expect(full.status).toBe(200);
		expect(text).toContain("3 test interviews match.");
		for (const position of ["One trip A", "One trip B", "One trip C"]) expect(text).toContain(position);
		// The signed-in user's name and form token come from the session the page's statement read.
		expect(text).toContain(a.owner.email);
		expect(text).toMatch(/name="_csrf" value="[^"]+"/);
		expect(full.roundTrips).toBe(1);

		const empty = await countedPage(owner, "/dashboard/interviews");
		expect(await empty.response.text()).toContain("0 live interviews match.");
		expect(empty.roundTrips).toBe(1);

		// A page of one, then the page after the last: the total is still all three.
		const first = await owner.get("/dashboard/interviews?mode=test&limit=2");
		const next = /href="([^"]*cursor=[^"]+)" rel="next"/
			.exec(first.text)?.[1]
			?.replaceAll("&amp;", "&") as string;
		const second = await owner.get(next);
		expect(second.text).toContain("One trip A");
		expect(second.text).toContain("3 test interviews match.");
		expect(second.text).not.toContain("One trip C");
	});

	it("shows only the session's own account's interviews", async () => {
		const a = await dashboardAccount();
		const b = await dashboardAccount();
		for (const [account, position] of [
			[a, "Kept to A"],
			[a, "Kept to A too"],
			[b, "Kept to B"],
		] as const) {
			expect(
				(await call("POST", "/v1/interviews", { key: account.test, body: validInterview({ position }) }))
					.status,
			).toBe(201);
		}
		const pageOfB = await (await signedIn(b.owner)).get("/dashboard/interviews?mode=test");
		expect(pageOfB.text).toContain("Kept to B");
		expect(pageOfB.text).not.toContain("Kept to A");
		expect(pageOfB.text).toContain("1 test interview matches.");
		const pageOfA = await (await signedIn(a.owner)).get("/dashboard/interviews?mode=test&position=kept");
		expect(pageOfA.text).toContain("2 test interviews match.");
		expect(pageOfA.text).not.toContain("Kept to B");
	});

	it("sends an expired session to sign in, deletes it and shows nothing", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		expect(
			(await call("POST", "/v1/interviews", { key: a.test, body: validInterview({ position: "Not shown" }) }))
				.status,
		).toBe(201);
		expect(await sessionsOf(a.owner.id)).toBe(1);
		await env.DB.prepare("UPDATE sessions SET expires_at = 1 WHERE user_id = ?").bind(a.owner.id).run();
		for (const path of [
			"/dashboard/interviews?mode=test",
			"/dashboard/interviews?mode=test&status=sleeping",
		]) {
			const page = await owner.get(path);
			expect(page.status).toBe(303);
			expect(page.headers.get("Location")).toBe(`/dashboard/login?next=${encodeURIComponent(path)}`);
			expect(page.text).not.toContain("Not shown");
		}
		expect(await sessionsOf(a.owner.id)).toBe(0);
	});

	it("sends an unknown session, or one whose user is gone, to sign in", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		expect((await call("POST", "/v1/interviews", { key: a.test, body: validInterview() })).status).toBe(201);
		const forged = await countedPage(
			{ cookie: "dash_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" } as Browser,
			"/dashboard/interviews?mode=test",
		);
		expect(forged.status).toBe(303);
		// Only the user's row goes: the session row is left, and still finds no account.
		await env.DB.prepare("DELETE FROM users WHERE email = ?").bind(a.owner.email).run();
		expect(await sessionsOf(a.owner.id)).toBe(1);
		const orphan = await owner.get("/dashboard/interviews?mode=test");
		expect(orphan.status).toBe(303);
	});

	it("shows a filter's error to a valid session, from a session read on its own", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const bad = await countedPage(owner, "/dashboard/interviews?status=sleeping");
		expect(bad.status).toBe(200);
		expect(await bad.response.text()).toContain("Some filters are not valid.");
		expect(bad.roundTrips).toBe(1);
	});
});
