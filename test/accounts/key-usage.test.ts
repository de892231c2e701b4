import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { KeyUseThrottle, LAST_USED_WINDOW_MS } from "../../src/accounts/key-usage";
import { hashApiKey } from "../../src/accounts/keys";
import { dashboardAccount, signedIn } from "../support/dashboard-helpers";
import { BASE, call, validInterview } from "../support/helpers";
import { connect } from "../support/room-helpers";

vi.setConfig({ testTimeout: 30_000 });

async function lastUsedOf(key: string): Promise<{ id: string; last_used_at: number | null }> {
	const row = await env.DB.prepare("SELECT id, last_used_at FROM api_keys WHERE key_hash = ?")
		.bind(await hashApiKey(key))
		.first<{ id: string; last_used_at: number | null }>();
	if (!row) throw new Error("no such key");
	return row;
}

/** Polls until `check` holds or about two seconds have passed (the write runs after the response). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
	let value = await read();
	for (let i = 0; i < 20 && !check(value); i++) {
		await new Promise((resolve) => setTimeout(resolve, 100));
		value = await read();
	}
	return value;
}

describe("KeyUseThrottle", () => {
	it("lets one write per key through per window", () => {
		const throttle = new KeyUseThrottle(LAST_USED_WINDOW_MS, 3);
		const t0 = 1_000_000;
		expect(throttle.shouldWrite("key_a", t0)).toBe(true);
		expect(throttle.shouldWrite("key_a", t0 + 1)).toBe(false);
		expect(throttle.shouldWrite("key_a", t0 + LAST_USED_WINDOW_MS - 1)).toBe(false);
		expect(throttle.shouldWrite("key_b", t0 + 1)).toBe(true);
		expect(throttle.shouldWrite("key_a", t0 + LAST_USED_WINDOW_MS)).toBe(true);
		expect(throttle.shouldWrite("key_a", t0 + LAST_USED_WINDOW_MS + 1)).toBe(false);
	});

	it("stays bounded, forgetting the oldest key first", () => {
		const throttle = new KeyUseThrottle(LAST_USED_WINDOW_MS, 2);
		expect(throttle.shouldWrite("key_a", 0)).toBe(true);
		expect(throttle.shouldWrite("key_b", 0)).toBe(true);
		expect(throttle.shouldWrite("key_c", 0)).toBe(true);
		// key_a was dropped to make room: written again (a harmless conditional UPDATE).
		expect(throttle.shouldWrite("key_a", 1)).toBe(true);
		expect(throttle.shouldWrite("key_c", 1)).toBe(false);
	});
});

describe("a key's last use", () => {
	it("is written by a request, not again within the window, and shown on the API keys page", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const before = await owner.get("/dashboard/settings/api-keys");
		const first = await lastUsedOf(a.live);
		expect(first.last_used_at).toBeNull();
		expect(before.text).toContain(`data-key-id="${first.id}"`);
		expect(rowOf(before.text, first.id)).toContain('data-last-used="never"');

		const started = Date.now();
		expect((await call("GET", "/v1/interviews", { key: a.live })).status).toBe(200);
		const written = await eventually(
			() => lastUsedOf(a.live),
			(row) => row.last_used_at !== null,
		);
		expect(written.last_used_at).toBeGreaterThanOrEqual(started - 1000);
		expect(written.last_used_at).toBeLessThanOrEqual(Date.now());
		// Another key of the account is untouched.
		expect((await lastUsedOf(a.test)).last_used_at).toBeNull();

		// Within the window the next requests write nothing: a marker set by hand stays. (Had they
		// written, the conditional UPDATE would have replaced a value this old.)
		await env.DB.prepare("UPDATE api_keys SET last_used_at = 1 WHERE id = ?").bind(first.id).run();
		for (let i = 0; i < 3; i++) {
			expect((await call("GET", "/v1/interviews", { key: a.live })).status).toBe(200);
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
		expect((await lastUsedOf(a.live)).last_used_at).toBe(1);

		await env.DB.prepare("UPDATE api_keys SET last_used_at = ? WHERE id = ?")
			.bind(written.last_used_at, first.id)
			.run();
		const page = await owner.get("/dashboard/settings/api-keys");
		const shown = new Date(written.last_used_at as number).toISOString().replace("T", " ").slice(0, 16);
		expect(rowOf(page.text, first.id)).toContain(`${shown} UTC`);
		expect(page.text).toContain("Last used");
	});

	it("is written when the key opens an observer connection", async () => {
		const a = await dashboardAccount();
		const created = await call("POST", "/v1/interviews", { key: a.test, body: validInterview() });
		expect(created.status).toBe(201);
		const observerKey = await a.key("live", { permissions: ["interviews:read"] });
		expect((await lastUsedOf(observerKey)).last_used_at).toBeNull();
		const opened = await connect(created.body.data.id, observerKey);
		expect(opened.status).toBe(101);
		opened.room?.close();
		const written = await eventually(
			() => lastUsedOf(observerKey),
			(row) => row.last_used_at !== null,
		);
		expect(written.last_used_at).not.toBeNull();
	});

	it("is written when the key opens an observer namespace over Socket.IO", async () => {
		const a = await dashboardAccount();
		const created = await call("POST", "/v1/interviews", { key: a.test, body: validInterview() });
		expect(created.status).toBe(201);
		const observerKey = await a.key("live", { permissions: ["interviews:read"] });
		expect((await lastUsedOf(observerKey)).last_used_at).toBeNull();
		// Engine.IO over long-polling, as socket.io-client starts: handshake, then the namespace.
		const engine = `${BASE}/socket.io/?EIO=4&transport=polling`;
		const opened = await (await exports.default.fetch(engine)).text();
		const sid = JSON.parse(opened.slice(1)).sid as string;
		const nsp = `/interview/${created.body.data.id}/`;
		const sent = await exports.default.fetch(`${engine}&sid=${sid}`, {
			method: "POST",
			body: `40${nsp},${JSON.stringify({ token: observerKey })}`,
		});
		expect(sent.status).toBe(200);
		await sent.text();
		const answer = await (await exports.default.fetch(`${engine}&sid=${sid}`)).text();
		expect(answer).toMatch(new RegExp(`^40${nsp},\\{"sid":`));
		const written = await eventually(
			() => lastUsedOf(observerKey),
			(row) => row.last_used_at !== null,
		);
		expect(written.last_used_at).not.toBeNull();
		await (await exports.default.fetch(`${engine}&sid=${sid}`, { method: "POST", body: "1" })).text();
	});

	it("is not written for a refused key", async () => {
		const a = await dashboardAccount();
		const { id } = await lastUsedOf(a.dev);
		await call("DELETE", `/admin/accounts/${a.id}/keys/${id}`, { key: "test-admin-token" });
		expect((await call("GET", "/v1/interviews", { key: a.dev })).status).toBe(401);
		await new Promise((resolve) => setTimeout(resolve, 500));
		expect((await lastUsedOf(a.dev)).last_used_at).toBeNull();
	});
});

function rowOf(html: string, keyId: string): string {
	const start = html.indexOf(`data-key-id="${keyId}"`);
	return html.slice(start, html.indexOf("</tr>", start));
}
