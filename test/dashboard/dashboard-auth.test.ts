import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { hashPassword, needsRehash, PBKDF2_ITERATIONS, verifyPassword } from "../../src/dashboard/passwords";
import { Browser, dashboardAccount, newUser, signedIn, uniqueEmail } from "../support/dashboard-helpers";
import { admin, BASE, call, newAccount } from "../support/helpers";

// Each sign-in hashes at 600,000 PBKDF2 iterations: slower than the default 5 s under load.
vi.setConfig({ testTimeout: 30_000 });

describe("dashboard users (admin API)", () => {
	it("creates a user with a one-time password, lists and deletes it", async () => {
		const account = await newAccount();
		const email = uniqueEmail("Owner");
		const created = await admin("POST", `/accounts/${account.id}/users`, { email, role: "owner" });
		expect(created.status).toBe(201);
		expect(created.body.data).toMatchObject({ email, role: "owner", account_id: account.id });
		expect(created.body.data.id).toMatch(/^usr_[0-9A-Za-z]{24}$/);
		expect(created.body.data.password).toMatch(/^[0-9A-Za-z]{20}$/);
		const again = await admin("POST", `/accounts/${account.id}/users`, {
			email: email.toUpperCase(),
			role: "member",
		});
		expect(again.status).toBe(400);
		expect(again.body.error.details.email).toMatch(/already exists/);
		const bad = await admin("POST", `/accounts/${account.id}/users`, { email: "x", role: "boss" });
		expect(bad.status).toBe(400);
		expect(Object.keys(bad.body.error.details).sort()).toEqual(["email", "role"]);
		const list = await admin("GET", `/accounts/${account.id}/users`);
		expect(list.body.data.map((u: { email: string }) => u.email)).toEqual([email]);
		expect(JSON.stringify(list.body)).not.toContain(created.body.data.password);
		const browser = await signedIn(created.body.data);
		const deleted = await admin("DELETE", `/accounts/${account.id}/users/${created.body.data.id}`);
		expect(deleted.status).toBe(200);
		// Its session ends with it.
		expect((await browser.get("/dashboard/interviews")).status).toBe(303);
		expect((await admin("DELETE", `/accounts/${account.id}/users/${created.body.data.id}`)).status).toBe(404);
		expect(
			(await call("POST", `/admin/accounts/${account.id}/users`, { body: { email, role: "owner" } })).status,
		).toBe(401);
	});
});

/** A sign-in from this client address (`CF-Connecting-IP`), which has a failure count of its own. */
function signInFrom(address: string, email: string, password: string) {
	return new Browser().request("POST", "/dashboard/login", {
		form: { email, password },
		headers: { "CF-Connecting-IP": address },
	});
}

describe("passwords", () => {
	it("are PBKDF2-SHA256 at the runtime's maximum count, salted per hash", async () => {
		const a = await hashPassword("correct horse battery");
		const b = await hashPassword("correct horse battery");
		expect(a).toMatch(new RegExp(`^pbkdf2-sha256\\$${PBKDF2_ITERATIONS}\\$[0-9a-f]{32}\\$[0-9a-f]{64}$`));
		expect(a).not.toBe(b);
		expect(await verifyPassword("correct horse battery", a)).toBe(true);
		expect(await verifyPassword("correct horse batterY", a)).toBe(false);
	});

	it("verifies a hash by its own stored count (a password hashed where only 100,000 were allowed)", async () => {
		const salt = "00112233445566778899aabbccddeeff";
		const bytes = new Uint8Array(salt.match(/../g)?.map((h) => Number.parseInt(h, 16)) ?? []);
		const key = await crypto.subtle.importKey(
			"raw",
			new TextEncoder().encode("legacy pass"),
			"PBKDF2",
			false,
			["deriveBits"],
		);
		const bits = await crypto.subtle.deriveBits(
			{ name: "PBKDF2", hash: "SHA-256", salt: bytes, iterations: 100_000 },
			key,
			256,
		);
		const hex = [...new Uint8Array(bits)].map((b) => b.toString(16).padStart(2, "0")).join("");
		const stored = `pbkdf2-sha256$100000$${salt}$${hex}`;
		expect(await verifyPassword("legacy pass", stored)).toBe(true);
		expect(await verifyPassword("legacy pasS", stored)).toBe(false);
		expect(needsRehash(stored)).toBe(true);
		expect(needsRehash(await hashPassword("x"))).toBe(false);
	});
});

describe("sign-in and sessions", () => {
	it("redirects a page to sign-in and back to it, same-origin paths only", async () => {
		const account = await dashboardAccount();
		const browser = new Browser();
		const page = await browser.get("/dashboard/interviews?status=completed");
		expect(page.status).toBe(303);
		expect(page.headers.get("Location")).toBe(
			`/dashboard/login?next=${encodeURIComponent("/dashboard/interviews?status=completed")}`,
		);
		const login = await browser.get(page.headers.get("Location") as string);
		expect(login.text).toContain("<title>Sign in");
		expect(login.text).toMatch(/<label for="email">Email<\/label>/);
		expect(login.text).toMatch(/<label for="password">Password<\/label>/);
		expect(login.text).toContain(">Sign in</button>");
		const signIn = await browser.post(
			`/dashboard/login?next=${encodeURIComponent("/dashboard/interviews?status=completed")}`,
			{ email: account.owner.email, password: account.owner.password },
		);
		expect(signIn.status).toBe(303);
		expect(signIn.headers.get("Location")).toBe("/dashboard/interviews?status=completed");
		const cookie = signIn.headers.get("Set-Cookie") as string;
		expect(cookie).toMatch(/HttpOnly/);
		expect(cookie).toMatch(/SameSite=Lax/);
		expect(cookie).toMatch(/Path=\//);
		expect((await browser.get("/dashboard/interviews")).status).toBe(200);
		const foreign = await new Browser().post(
			`/dashboard/login?next=${encodeURIComponent("//evil.example/x")}`,
			{
				email: account.owner.email,
				password: account.owner.password,
			},
		);
		expect(foreign.headers.get("Location")).toBe("/dashboard");
		// A browser drops a tab or a newline from a URL: "/<tab>/evil.example" would be "//evil.example".
		for (const next of [
			"/\t/evil.example/x",
			"/\n/evil.example/x",
			"/\r\n/evil.example",
			"/ /evil.example",
		]) {
			const sneaky = await new Browser().post(`/dashboard/login?next=${encodeURIComponent(next)}`, {
				email: account.owner.email,
				password: account.owner.password,
			});
			expect(sneaky.headers.get("Location")).toBe("/dashboard");
		}
	});

	it("gives the same answer for an unknown e-mail and a wrong password", async () => {
		const account = await dashboardAccount();
		const wrong = await new Browser().signIn(account.owner.email, "not the password");
		const unknown = await new Browser().signIn(uniqueEmail("nobody"), "not the password");
		expect(wrong.status).toBe(401);
		expect(unknown.status).toBe(401);
		expect(wrong.text).toContain("Wrong email or password.");
		expect(unknown.text).toContain("Wrong email or password.");
		// No session: the only cookie set is the form's token, for the form shown again.
		expect(wrong.headers.getSetCookie().map((c) => c.split("=")[0])).toEqual(["dash_form"]);
	});

	it("locks an e-mail out after 5 failures, even with the right password then", async () => {
		const account = await dashboardAccount();
		for (let i = 0; i < 5; i++) {
			expect((await new Browser().signIn(account.owner.email, `wrong ${i}`)).status).toBe(401);
		}
		const locked = await new Browser().signIn(account.owner.email, account.owner.password);
		expect(locked.status).toBe(429);
		expect(locked.text).toContain("Too many failed sign-ins");
		expect(locked.headers.getSetCookie().map((c) => c.split("=")[0])).toEqual(["dash_form"]);
		// Another user from elsewhere is not locked out by it.
		const other = await dashboardAccount();
		expect((await new Browser().signIn(other.owner.email, other.owner.password)).status).toBe(303);
	});

	it("locks an e-mail out from the sixth of parallel failed tries, as if they came one by one", async () => {
		const account = await dashboardAccount();
		// Each from an address of its own: the e-mail's count is what locks them out.
		const tries = await Promise.all(
			Array.from({ length: 12 }, (_, i) =>
				signInFrom(`198.51.100.${i + 1}`, account.owner.email, `wrong ${i}`),
			),
		);
		const statuses = tries.map((t) => t.status);
		expect(statuses.filter((s) => s === 401)).toHaveLength(5);
		expect(statuses.filter((s) => s === 429)).toHaveLength(7);
		expect((await signInFrom("198.51.100.99", account.owner.email, account.owner.password)).status).toBe(429);
	});

	it("forgets a try that succeeded: four failures, a success, then four more do not lock", async () => {
		const account = await dashboardAccount();
		const from = "198.51.100.200";
		for (let round = 0; round < 2; round++) {
			for (let i = 0; i < 4; i++) {
				expect((await signInFrom(from, account.owner.email, `wrong ${i}`)).status).toBe(401);
			}
			expect((await signInFrom(from, account.owner.email, account.owner.password)).status).toBe(303);
		}
		const rows = await env.DB.prepare("SELECT count(*) AS n FROM sign_in_failures WHERE subject = ?")
			.bind(`email:${account.owner.email.toLowerCase()}`)
			.first<{ n: number }>();
		expect(rows?.n).toBe(0);
	});

	it("locks an address out after 20 failures whatever the e-mail", async () => {
		const account = await dashboardAccount();
		const from = { "CF-Connecting-IP": "203.0.113.77" };
		for (let i = 0; i < 20; i++) {
			const res = await new Browser().request("POST", "/dashboard/login", {
				form: { email: uniqueEmail("guess"), password: "x" },
				headers: from,
			});
			expect(res.status).toBe(401);
		}
		const locked = await new Browser().request("POST", "/dashboard/login", {
			form: { email: account.owner.email, password: account.owner.password },
			headers: from,
		});
		expect(locked.status).toBe(429);
		expect((await new Browser().signIn(account.owner.email, account.owner.password)).status).toBe(303);
	}, 60_000);

	it("counts an IPv6 client's whole /64 as one address", async () => {
		const account = await dashboardAccount();
		// Twenty failures, each from another address of one /64, as a client rotating them would.
		for (let i = 1; i <= 20; i++) {
			const res = await new Browser().request("POST", "/dashboard/login", {
				form: { email: uniqueEmail("guess"), password: "x" },
				headers: { "CF-Connecting-IP": `2001:db8:77:1::${i.toString(16)}` },
			});
			expect(res.status).toBe(401);
		}
		const locked = await new Browser().request("POST", "/dashboard/login", {
			form: { email: account.owner.email, password: account.owner.password },
			headers: { "CF-Connecting-IP": "2001:db8:77:1:ffff::1" },
		});
		expect(locked.status).toBe(429);
		// The next /64 is another network.
		const next = await new Browser().request("POST", "/dashboard/login", {
			form: { email: account.owner.email, password: account.owner.password },
			headers: { "CF-Connecting-IP": "2001:db8:77:2::1" },
		});
		expect(next.status).toBe(303);
	}, 60_000);

	it("signs out: the session stops working at once", async () => {
		const account = await dashboardAccount();
		const browser = await signedIn(account.owner);
		const stolen = browser.cookie;
		const token = await browser.csrf();
		const out = await browser.post("/dashboard/logout", { _csrf: token });
		expect(out.status).toBe(303);
		const replay = new Browser();
		replay.cookie = stolen;
		expect((await replay.get("/dashboard/interviews")).status).toBe(303);
	});

	it("expires an idle session after 12 hours", async () => {
		const account = await dashboardAccount();
		const browser = await signedIn(account.owner);
		await env.DB.prepare(
			"UPDATE sessions SET last_seen_at = last_seen_at - ? WHERE user_id = (SELECT id FROM users WHERE email = ?)",
		)
			.bind(12 * 3_600_000 + 1, account.owner.email)
			.run();
		expect((await browser.get("/dashboard/interviews")).status).toBe(303);
	});

	it("keeps only hashes of passwords and session tokens in D1", async () => {
		const account = await dashboardAccount();
		const browser = await signedIn(account.owner);
		const token = browser.cookieValue("dash_session") as string;
		expect(token.length).toBeGreaterThan(30);
		const dump: string[] = [];
		for (const table of ["users", "sessions", "invitations", "sign_in_failures"]) {
			const rows = await env.DB.prepare(`SELECT * FROM ${table}`).all();
			dump.push(JSON.stringify(rows.results));
		}
		const all = dump.join("\n");
		expect(all).toContain(account.owner.email);
		expect(all).not.toContain(account.owner.password);
		expect(all).not.toContain(token);
	});
});

describe("CSRF", () => {
	it("refuses a post without the token or from another origin, and changes nothing", async () => {
		const account = await dashboardAccount();
		const browser = await signedIn(account.owner);
		const token = await browser.csrf();
		const form = {
			candidate_email: "csrf@example.com",
			position: "CSRF Target",
			skills: "SQL",
			test_mode: "true",
			form_id: await browser.formId("/dashboard/interviews/new"),
		};
		const none = await browser.post("/dashboard/interviews/new", form);
		expect(none.status).toBe(403);
		const wrongToken = await browser.post("/dashboard/interviews/new", { ...form, _csrf: `${token}x` });
		expect(wrongToken.status).toBe(403);
		const foreign = await browser.post(
			"/dashboard/interviews/new",
			{ ...form, _csrf: token },
			{ Origin: "https://evil.example" },
		);
		expect(foreign.status).toBe(403);
		const crossSite = await browser.post(
			"/dashboard/interviews/new",
			{ ...form, _csrf: token },
			{ "Sec-Fetch-Site": "cross-site" },
		);
		expect(crossSite.status).toBe(403);
		const list = await call("GET", "/v1/interviews?position=CSRF%20Target", { key: account.live });
		expect(list.body.pagination?.total_count).toBe(0);
		const real = await browser.post("/dashboard/interviews/new", { ...form, _csrf: token });
		expect(real.status).toBe(303);
		const after = await call("GET", "/v1/interviews?position=CSRF%20Target", { key: account.live });
		expect(after.body.pagination?.total_count).toBe(1);
		// Sign-out too is a state change: a foreign origin cannot sign the user out.
		expect(
			(await browser.post("/dashboard/logout", { _csrf: token }, { Origin: "https://evil.example" })).status,
		).toBe(403);
		expect((await browser.get("/dashboard/interviews")).status).toBe(200);
		// Without Origin or Sec-Fetch-Site, sign-out still needs the form token.
		const bare = await exports.default.fetch(`${BASE}/dashboard/logout`, {
			method: "POST",
			headers: { Cookie: browser.cookie, "Content-Type": "application/x-www-form-urlencoded" },
			body: "",
			redirect: "manual",
		});
		expect(bare.status).toBe(403);
		expect((await browser.get("/dashboard/interviews")).status).toBe(200);
	});

	it("refuses a sign-in or invitation without the visitor's form token, and signs nobody in", async () => {
		const account = await dashboardAccount();
		const { email, password } = account.owner;
		const victim = new Browser();
		const shown = await victim.get("/dashboard/login");
		const cookie = shown.headers.getSetCookie().find((c) => c.startsWith("dash_form=")) as string;
		expect(cookie).toMatch(/HttpOnly/);
		expect(cookie).toMatch(/SameSite=Strict/);
		expect(cookie).toMatch(/Path=\//);
		expect(cookie).toMatch(/Max-Age=86400/);
		const token = /name="_csrf" value="([0-9A-Za-z]{32})"/.exec(shown.text)?.[1] as string;
		expect(victim.cookieValue("dash_form")).toBe(token);
		// Shown again (another tab), the form keeps the token the browser holds.
		expect((await victim.get("/dashboard/login")).text).toContain(`value="${token}"`);
		// Another site's form cannot know the visitor's token: its own, another or none is refused.
		const attacker = new Browser();
		const attackerToken = /name="_csrf" value="([^"]+)"/.exec(
			(await attacker.get("/dashboard/login")).text,
		)?.[1];
		for (const forged of [attackerToken as string, "", "A".repeat(32)]) {
			const res = await victim.post("/dashboard/login", { _csrf: forged, email, password });
			expect(res.status, forged).toBe(403);
			expect(res.text).toContain("This form has expired. Enter your details again.");
			expect(victim.cookieValue("dash_session")).toBeUndefined();
		}
		// A post from a browser that never showed the form (no cookie) is refused too.
		const bare = new Browser();
		expect((await bare.post("/dashboard/login", { _csrf: token, email, password })).status).toBe(403);
		expect(bare.cookieValue("dash_session")).toBeUndefined();
		// Nothing was counted against the e-mail: the refusal came before the password.
		const failures = await env.DB.prepare("SELECT count(*) AS n FROM sign_in_failures WHERE subject = ?")
			.bind(`email:${email.toLowerCase()}`)
			.first<{ n: number }>();
		expect(failures?.n).toBe(0);
		// The refusal's page carries the token: sending it again signs in.
		const retry = await victim.post("/dashboard/login", { _csrf: token, email, password });
		expect(retry.status).toBe(303);
		expect(victim.cookieValue("dash_session")).toBeDefined();

		// The invitation form: refused without the token, the invitation still unused.
		const owner = await signedIn(account.owner);
		const made = await owner.post("/dashboard/team", {
			_csrf: await owner.csrf("/dashboard/team"),
			email: uniqueEmail("invited"),
			role: "member",
		});
		const invite = /\/dashboard\/invitation#([0-9A-Za-z]+)/.exec(made.text)?.[1] as string;
		const invited = new Browser();
		const form = { token: invite, password: "a long enough secret", confirm: "a long enough secret" };
		const forged = await invited.post("/dashboard/invitation", { _csrf: "A".repeat(32), ...form });
		expect(forged.status).toBe(403);
		expect(forged.text).toContain("This form has expired. Enter your details again.");
		expect(invited.cookieValue("dash_session")).toBeUndefined();
		const accepted = await invited.post("/dashboard/invitation", form);
		expect(accepted.status).toBe(303);
		expect(invited.cookieValue("dash_session")).toBeDefined();
	});

	it("refuses a form body that cannot be read as a form like a missing token, not with a 500", async () => {
		const account = await dashboardAccount();
		const browser = await signedIn(account.owner);
		const broken = async (path: string, contentType: string, cookie = browser.cookie) => {
			const res = await exports.default.fetch(`${BASE}${path}`, {
				method: "POST",
				headers: { Cookie: cookie, Origin: BASE, "Content-Type": contentType },
				body: "garbage",
				redirect: "manual",
			});
			await res.arrayBuffer();
			return res.status;
		};
		for (const type of ["multipart/form-data; boundary=zzz", "multipart/form-data"]) {
			expect(await broken("/dashboard/interviews/new", type)).toBe(403);
			expect(await broken("/dashboard/login", type, "")).toBe(403);
		}
		const list = await call("GET", "/v1/interviews?limit=1", { key: account.live });
		expect(list.body.pagination?.total_count).toBe(0);
	});
});

describe("a member", () => {
	it("works on interviews but gets 403 on owner pages", async () => {
		const account = await dashboardAccount();
		const member = await newUser(account.id, "member");
		const browser = await signedIn(member);
		expect((await browser.get("/dashboard/interviews")).status).toBe(200);
		for (const path of ["/dashboard/settings/api-keys", "/dashboard/settings/webhooks", "/dashboard/team"]) {
			const page = await browser.get(path);
			expect(page.status, path).toBe(403);
			expect(page.text).toContain("Owners only");
		}
		const token = await browser.csrf();
		const made = await browser.post("/dashboard/settings/api-keys", {
			_csrf: token,
			name: "member key",
			environment: "live",
			scopes: "interviews:read",
		});
		expect(made.status).toBe(403);
		const keys = await admin("GET", `/accounts/${account.id}`);
		expect(keys.body.data.keys.map((k: { name: string }) => k.name)).not.toContain("member key");
	});
});
