import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, call, newAccount, validInterview } from "../support/helpers";

describe("authentication", () => {
	it("asks for the Authorization header when it is missing or not a Bearer token", async () => {
		for (const headers of [
			{},
			{ Authorization: "Basic dXNlcjpwYXNz" },
			{ Authorization: "Bearer" },
			{ Authorization: "svc_live_xxxxxxxxxxxx" },
			{ Authorization: "Bearer Bearer svc_live_xxxxxxxxxxxx" },
		] as Record<string, string>[]) {
			const res = await call("GET", "/v1/interviews", { headers });
			expect(res.status).toBe(401);
			// A header that is there but is not a bearer token counts as missing; the message tells the two apart.
			expect(res.body.error).toEqual({
				code: "AUTHENTICATION_REQUIRED",
				message:
					headers.Authorization === undefined
						? "Send your API key as 'Authorization: Bearer <API_KEY>'."
						: "The Authorization header is not 'Bearer <API_KEY>': send your API key as 'Authorization: Bearer <API_KEY>'.",
				details: { header_missing: "Authorization" },
			});
		}
	});

	it("refuses an unknown key and shows only its first 12 characters", async () => {
		const key = `svc_live_${"x".repeat(32)}`;
		const res = await call("GET", "/v1/interviews", { key });
		expect(res.status).toBe(401);
		expect(res.body.error.code).toBe("INVALID_API_KEY");
		expect(res.body.error.details).toEqual({ key_prefix: "svc_live_xxx" });
		expect(JSON.stringify(res.body)).not.toContain(key);
	});

	it("refuses a malformed key as invalid", async () => {
		const res = await call("GET", "/v1/interviews", { key: "not-a-key" });
		expect(res.status).toBe(401);
		expect(res.body.error.code).toBe("INVALID_API_KEY");
	});

	it("refuses a revoked key at once", async () => {
		const account = await newAccount();
		const key = await account.key("live");
		expect((await call("GET", "/v1/account/profile", { key })).status).toBe(200);
		const keys = await admin("GET", `/accounts/${account.id}`);
		const keyId = keys.body.data.keys.find((k: { key_prefix: string }) => key.startsWith(k.key_prefix)).id;
		const revoked = await admin("DELETE", `/accounts/${account.id}/keys/${keyId}`);
		expect(revoked.status).toBe(200);
		expect(revoked.body.data.revoked_at).not.toBeNull();
		const res = await call("GET", "/v1/account/profile", { key });
		expect(res.status).toBe(401);
		expect(res.body.error.code).toBe("INVALID_API_KEY");
	});

	it("refuses a key that expires after it was cached, on its first request past the time", async () => {
		const account = await newAccount();
		const expiresAt = Date.now() + 1_500;
		const key = await account.key("live", { expires_at: new Date(expiresAt).toISOString() });
		expect((await call("GET", "/v1/auth/verify", { key })).status).toBe(200);
		expect((await call("GET", "/v1/auth/verify", { key })).status).toBe(200);
		await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 100));
		const res = await call("GET", "/v1/auth/verify", { key });
		expect([res.status, res.body.error?.code]).toEqual([401, "API_KEY_EXPIRED"]);
	});

	it("refuses an expired key with when it expired and where to renew", async () => {
		const account = await newAccount();
		// The admin API refuses a past expires_at: the key is made with a future one, then moved back.
		const key = await account.key("live", { expires_at: new Date(Date.now() + 3_600_000).toISOString() });
		const expiresAt = new Date(Date.now() - 60_000).toISOString();
		await env.DB.prepare("UPDATE api_keys SET expires_at = ? WHERE key_prefix = ?")
			.bind(Date.parse(expiresAt), key.slice(0, 12))
			.run();
		const res = await call("GET", "/v1/interviews", { key });
		expect(res.status).toBe(401);
		expect(res.body.error.code).toBe("API_KEY_EXPIRED");
		expect(res.body.error.details).toEqual({
			expired_at: expiresAt,
			renewal_url: "http://service.test/settings/api-keys",
		});
	});

	it("accepts a key until its expiry", async () => {
		const account = await newAccount();
		const key = await account.key("live", { expires_at: new Date(Date.now() + 3_600_000).toISOString() });
		expect((await call("GET", "/v1/interviews", { key })).status).toBe(200);
	});

	it("refuses a missing scope with the permission needed and the key's own", async () => {
		const account = await newAccount();
		const key = await account.key("live", { permissions: ["interviews:read"] });
		const res = await call("POST", "/v1/interviews", { key, body: validInterview() });
		expect(res.status).toBe(403);
		expect(res.body.error).toMatchObject({
			code: "INSUFFICIENT_PERMISSIONS",
			details: { required_permission: "interviews:write", current_permissions: ["interviews:read"] },
		});
		const writeOnly = await account.key("live", { permissions: ["interviews:write"] });
		const list = await call("GET", "/v1/interviews", { key: writeOnly });
		expect(list.body.error.details.required_permission).toBe("interviews:read");
	});

	it("checks scope before validation", async () => {
		const account = await newAccount();
		const key = await account.key("live", { permissions: ["interviews:read"] });
		const res = await call("POST", "/v1/interviews", { key, body: { nonsense: true } });
		expect(res.status).toBe(403);
	});

	it("requires interviews:read_recordings for include_recordings", async () => {
		const account = await newAccount();
		const key = await account.key("live", { permissions: ["interviews:read", "interviews:write"] });
		const created = await call("POST", "/v1/interviews", { key, body: validInterview() });
		const res = await call("GET", `/v1/interviews/${created.body.data.id}?include_recordings=true`, { key });
		expect(res.status).toBe(403);
		expect(res.body.error.details.required_permission).toBe("interviews:read_recordings");
		// Scope before validation: the flag refuses even when the rest of the query is wrong.
		for (const rest of ["bogus=1", "include_results=maybe"]) {
			const refused = await call(
				"GET",
				`/v1/interviews/${created.body.data.id}?include_recordings=true&${rest}`,
				{ key },
			);
			expect([rest, refused.status, refused.body.error.code]).toEqual([
				rest,
				403,
				"INSUFFICIENT_PERMISSIONS",
			]);
		}
		// Without the flag the same mistakes are validation errors, and a wrong flag value too.
		for (const query of ["bogus=1", "include_recordings=yes"]) {
			const invalid = await call("GET", `/v1/interviews/${created.body.data.id}?${query}`, { key });
			expect([query, invalid.status]).toEqual([query, 400]);
		}
	});

	it("keeps no plaintext key in D1", async () => {
		const account = await newAccount();
		const rows = await env.DB.prepare("SELECT * FROM api_keys WHERE account_id = ?").bind(account.id).all();
		expect(rows.results).toHaveLength(3);
		const stored = JSON.stringify(rows.results);
		for (const key of [account.live, account.test, account.dev]) expect(stored).not.toContain(key);
		for (const row of rows.results) expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
	});

	it("lets any valid key verify itself and read its permissions", async () => {
		const account = await newAccount();
		const key = await account.key("test", { permissions: ["webhooks:read"] });
		const verify = await call("GET", "/api/v1/auth/verify/", { key });
		expect(verify.status).toBe(200);
		expect(verify.body.data).toMatchObject({
			valid: true,
			account: { id: account.id, plan: "enterprise" },
			key: { environment: "test", test_mode: true },
		});
		const permissions = await call("GET", "/api/v1/auth/permissions", { key });
		expect(permissions.body.data.permissions).toEqual(["webhooks:read"]);
		const profile = await call("GET", "/v1/account/profile", { key });
		expect(profile.body.data).toMatchObject({
			company_name: "Acme Testing",
			plan: "enterprise",
			api_key_permissions: ["webhooks:read"],
			rate_limit: { requests_per_minute: 1000 },
		});
	});
});
