import { describe, expect, it } from "vitest";
import { call, newAccount } from "../support/helpers";
import { REFUSED_URLS } from "../support/ssrf-cases";

const URL_A = "https://hooks.example.com/a";
const URL_B = "https://hooks.example.com/b";

describe("webhook endpoints API", () => {
	it("creates an endpoint and returns the stored record", async () => {
		const account = await newAccount();
		const res = await call("POST", "/v1/webhooks", {
			key: account.live,
			body: { url: URL_A, events: ["interview.scheduled", "interview.completed", "interview.scheduled"] },
		});
		expect(res.status).toBe(201);
		expect(res.body.meta?.request_id).toBe(res.headers.get("x-request-id"));
		expect(res.body.data).toEqual({
			id: expect.stringMatching(/^wh_[0-9A-Za-z]{24}$/),
			url: URL_A,
			events: ["interview.scheduled", "interview.completed"],
			active: true,
			environment: "production",
			test_mode: false,
			disabled_reason: null,
			disabled_at: null,
			failure_counts: {
				consecutive: 0,
				failing_since: null,
				total_failed_attempts: 0,
				total_succeeded_attempts: 0,
			},
			last_delivery: null,
			created_at: res.body.meta?.timestamp,
			updated_at: res.body.meta?.timestamp,
		});
		const fetched = await call("GET", `/v1/webhooks/${res.body.data.id}`, { key: account.live });
		expect(fetched.status).toBe(200);
		expect(fetched.body.data).toEqual(res.body.data);
		expect(fetched.body.meta).toBeDefined();
	});

	it("lists endpoints newest first with a cursor", async () => {
		const account = await newAccount();
		const ids: string[] = [];
		for (let i = 0; i < 5; i++) {
			const res = await call("POST", "/v1/webhooks", {
				key: account.live,
				body: { url: `${URL_A}/${i}`, events: ["*"] },
			});
			ids.push(res.body.data.id);
		}
		const first = await call("GET", "/v1/webhooks?limit=2", { key: account.live });
		expect(first.status).toBe(200);
		expect(first.body.pagination).toMatchObject({ has_more: true, total_count: 5 });
		const seen: string[] = first.body.data.map((w: { id: string }) => w.id);
		let cursor = first.body.pagination?.next_cursor;
		for (let guard = 0; cursor && guard < 5; guard++) {
			const next = await call("GET", `/v1/webhooks?limit=2&cursor=${cursor}`, { key: account.live });
			seen.push(...next.body.data.map((w: { id: string }) => w.id));
			cursor = next.body.pagination?.next_cursor;
		}
		expect(new Set(seen)).toEqual(new Set(ids));
		expect(seen).toHaveLength(5);
		const bad = await call("GET", "/v1/webhooks?cursor=!!", { key: account.live });
		expect(bad.status).toBe(400);
		expect(bad.body.error?.details).toHaveProperty("cursor");
	});

	it("updates url, events and active, and re-checks the URL", async () => {
		const account = await newAccount();
		const created = await call("POST", "/v1/webhooks", {
			key: account.live,
			body: { url: URL_A, events: ["*"] },
		});
		const id = created.body.data.id;
		const patched = await call("PATCH", `/v1/webhooks/${id}`, {
			key: account.live,
			body: { url: URL_B, events: ["interview.cancelled"], active: false },
		});
		expect(patched.status).toBe(200);
		expect(patched.body.data).toMatchObject({ url: URL_B, events: ["interview.cancelled"], active: false });
		const refused = await call("PATCH", `/v1/webhooks/${id}`, {
			key: account.live,
			body: { url: "https://169.254.169.254/" },
		});
		expect(refused.status).toBe(400);
		expect(refused.body.error?.details).toHaveProperty("url");
		const empty = await call("PATCH", `/v1/webhooks/${id}`, { key: account.live, body: {} });
		expect(empty.status).toBe(400);
		expect(empty.body.error?.code).toBe("VALIDATION_ERROR");
		expect((await call("GET", `/v1/webhooks/${id}`, { key: account.live })).body.data.url).toBe(URL_B);
	});

	it("deletes an endpoint", async () => {
		const account = await newAccount();
		const created = await call("POST", "/v1/webhooks", {
			key: account.live,
			body: { url: URL_A, events: ["*"] },
		});
		const id = created.body.data.id;
		const deleted = await call("DELETE", `/v1/webhooks/${id}`, { key: account.live });
		expect(deleted.status).toBe(200);
		expect(deleted.body.data).toEqual({ id, deleted: true });
		const gone = await call("GET", `/v1/webhooks/${id}`, { key: account.live });
		expect(gone.status).toBe(404);
		expect(gone.body.error?.code).toBe("WEBHOOK_NOT_FOUND");
	});

	it("deletes an endpoint once when it is deleted in parallel: one 200, the others the 404 of a later DELETE", async () => {
		const account = await newAccount();
		const ids: string[] = [];
		for (let i = 0; i < 5; i++) {
			const created = await call("POST", "/v1/webhooks", {
				key: account.live,
				body: { url: `${URL_A}/${i}`, events: ["*"] },
			});
			ids.push(created.body.data.id);
		}
		const deleteWith = (id: string, n: number) =>
			call("DELETE", `/v1/webhooks/${id}`, {
				key: account.live,
				headers: { "Idempotency-Key": `delete-${id}-${n}` },
			});
		const rounds = await Promise.all(
			ids.map((id) => Promise.all(Array.from({ length: 6 }, (_, n) => deleteWith(id, n)))),
		);
		for (const [i, responses] of rounds.entries()) {
			const id = ids[i] as string;
			const later = await call("DELETE", `/v1/webhooks/${id}`, { key: account.live });
			expect(later.status).toBe(404);
			expect(responses.map((r) => r.status).sort()).toEqual([200, 404, 404, 404, 404, 404]);
			const winner = responses.findIndex((r) => r.status === 200);
			expect(responses[winner]?.body.data).toEqual({ id, deleted: true });
			for (const [n, res] of responses.entries()) {
				const retried = await deleteWith(id, n);
				// The deletion's answer is kept for its key; a 404 is not (docs/api.md, Idempotency).
				expect([retried.status, retried.headers.get("Idempotent-Replayed")]).toEqual(
					n === winner ? [200, "true"] : [404, null],
				);
				if (n !== winner) expect(res.body.error).toEqual(later.body.error);
			}
		}
		const listed = await call("GET", "/v1/webhooks", { key: account.live });
		expect(listed.body.pagination?.total_count).toBe(0);
	});

	it("refuses unknown event names, '*' mixed with names, unknown fields and bad types", async () => {
		const account = await newAccount();
		const cases: [unknown, string][] = [
			[{ url: URL_A, events: ["interview.exploded"] }, "events.0"],
			[{ url: URL_A, events: ["*", "interview.scheduled"] }, "events"],
			[{ url: URL_A, events: [] }, "events"],
			[{ url: URL_A }, "events"],
			[{ events: ["*"] }, "url"],
			[{ url: URL_A, events: ["*"], secret: "x" }, "secret"],
			[{ url: URL_A, events: ["*"], active: "yes" }, "active"],
			[{ url: 42, events: ["*"] }, "url"],
			["not an object", "body"],
		];
		for (const [body, field] of cases) {
			const res = await call("POST", "/v1/webhooks", { key: account.live, body });
			expect(res.status, JSON.stringify(body)).toBe(400);
			expect(res.body.error?.code).toBe("VALIDATION_ERROR");
			expect(res.body.error?.details, JSON.stringify(body)).toHaveProperty([field]);
		}
	});

	it.each(REFUSED_URLS.filter((c) => c.environment === "development" || !c.url.startsWith("http://")))(
		"refuses $url with VALIDATION_ERROR ($why)",
		async ({ url }) => {
			const account = await newAccount();
			const res = await call("POST", "/v1/webhooks", { key: account.live, body: { url, events: ["*"] } });
			expect(res.status).toBe(400);
			expect(res.body.error?.code).toBe("VALIDATION_ERROR");
			expect(res.body.error?.details?.url).toEqual(expect.any(String));
		},
	);

	it("accepts plain http to a literal loopback host in development", async () => {
		const account = await newAccount();
		for (const url of ["http://localhost:9999/x", "http://127.0.0.1:9999/x", "http://[::1]:9999/x"]) {
			const res = await call("POST", "/v1/webhooks", { key: account.live, body: { url, events: ["*"] } });
			expect(res.status).toBe(201);
			expect(res.body.data.url).toBe(url);
		}
	});

	it("keeps endpoints in the environment of the key that made them", async () => {
		const account = await newAccount();
		const dev = await call("POST", "/v1/webhooks", { key: account.dev, body: { url: URL_A, events: ["*"] } });
		expect(dev.body.data.environment).toBe("dev");
		const prod = await call("POST", "/v1/webhooks", {
			key: account.test,
			body: { url: URL_B, events: ["*"] },
		});
		expect(prod.body.data.environment).toBe("production");
		const devList = await call("GET", "/v1/webhooks", { key: account.dev });
		expect(devList.body.data.map((w: { id: string }) => w.id)).toEqual([dev.body.data.id]);
		const liveList = await call("GET", "/v1/webhooks", { key: account.live });
		expect(liveList.body.data.map((w: { id: string }) => w.id)).toEqual([prod.body.data.id]);
		expect((await call("GET", `/v1/webhooks/${dev.body.data.id}`, { key: account.live })).status).toBe(404);
		expect((await call("DELETE", `/v1/webhooks/${prod.body.data.id}`, { key: account.dev })).status).toBe(
			404,
		);
	});

	it("answers 404 for another account's endpoint and for malformed ids", async () => {
		const owner = await newAccount();
		const stranger = await newAccount();
		const created = await call("POST", "/v1/webhooks", {
			key: owner.live,
			body: { url: URL_A, events: ["*"] },
		});
		const id = created.body.data.id;
		for (const [method, path, body] of [
			["GET", `/v1/webhooks/${id}`, undefined],
			["PATCH", `/v1/webhooks/${id}`, { active: false }],
			["DELETE", `/v1/webhooks/${id}`, undefined],
			["GET", `/v1/webhooks/${id}/deliveries`, undefined],
			["POST", `/v1/webhooks/${id}/test`, undefined],
			["GET", "/v1/webhooks/not-an-id", undefined],
		] as const) {
			const res = await call(method, path, { key: stranger.live, body });
			expect(res.status, `${method} ${path}`).toBe(404);
			expect(res.body.error?.code).toBe("WEBHOOK_NOT_FOUND");
		}
		expect((await call("GET", `/v1/webhooks/${id}`, { key: owner.live })).body.data.active).toBe(true);
	});

	it("requires webhooks:read to read and webhooks:write to change", async () => {
		const account = await newAccount();
		const reader = await account.key("live", { permissions: ["webhooks:read"] });
		const writer = await account.key("live", { permissions: ["webhooks:write"] });
		const created = await call("POST", "/v1/webhooks", { key: writer, body: { url: URL_A, events: ["*"] } });
		expect(created.status).toBe(201);
		const id = created.body.data.id;
		expect((await call("GET", "/v1/webhooks", { key: reader })).status).toBe(200);
		expect((await call("GET", `/v1/webhooks/${id}/deliveries`, { key: reader })).status).toBe(200);
		for (const [method, path] of [
			["POST", "/v1/webhooks"],
			["PATCH", `/v1/webhooks/${id}`],
			["DELETE", `/v1/webhooks/${id}`],
			["POST", `/v1/webhooks/${id}/test`],
			["POST", "/v1/webhooks/secret/rotate"],
		] as const) {
			const res = await call(method, path, { key: reader, body: { url: URL_A, events: ["*"] } });
			expect(res.status, `${method} ${path}`).toBe(403);
			expect(res.body.error?.details?.required_permission).toBe("webhooks:write");
		}
		const denied = await call("GET", "/v1/webhooks", { key: writer });
		expect(denied.status).toBe(403);
		expect(denied.body.error?.details?.required_permission).toBe("webhooks:read");
	});

	it("limits an account to 20 endpoints per environment", async () => {
		const account = await newAccount();
		for (let i = 0; i < 20; i++) {
			const res = await call("POST", "/v1/webhooks", {
				key: account.live,
				body: { url: `${URL_A}/${i}`, events: ["*"] },
			});
			expect(res.status).toBe(201);
		}
		const over = await call("POST", "/v1/webhooks", {
			key: account.live,
			body: { url: URL_B, events: ["*"] },
		});
		expect(over.status).toBe(409);
		expect(over.body.error).toMatchObject({ code: "INVALID_OPERATION", details: { limit: 20 } });
		const dev = await call("POST", "/v1/webhooks", { key: account.dev, body: { url: URL_B, events: ["*"] } });
		expect(dev.status).toBe(201);
	});

	it("never passes 20 endpoints, even when the last ones are created in parallel", async () => {
		const account = await newAccount();
		for (let i = 0; i < 17; i++) {
			const res = await call("POST", "/v1/webhooks", {
				key: account.live,
				body: { url: `${URL_A}/${i}`, events: ["*"] },
			});
			expect(res.status).toBe(201);
		}
		const parallel = await Promise.all(
			Array.from({ length: 8 }, (_, i) =>
				call("POST", "/v1/webhooks", { key: account.live, body: { url: `${URL_B}/${i}`, events: ["*"] } }),
			),
		);
		expect(parallel.filter((r) => r.status === 201)).toHaveLength(3);
		expect(parallel.filter((r) => r.status === 409)).toHaveLength(5);
		const listed = await call("GET", "/v1/webhooks?limit=100", { key: account.live });
		expect(listed.body.pagination?.total_count).toBe(20);
	});

	it("serves the same routes under /api/v1 with or without a trailing slash", async () => {
		const account = await newAccount();
		const created = await call("POST", "/api/v1/webhooks/", {
			key: account.live,
			body: { url: URL_A, events: ["*"] },
		});
		expect(created.status).toBe(201);
		const listed = await call("GET", "/api/v1/webhooks/", { key: account.live });
		expect(listed.body.data.map((w: { id: string }) => w.id)).toEqual([created.body.data.id]);
		const wrongMethod = await call("PUT", `/v1/webhooks/${created.body.data.id}`, {
			key: account.live,
			body: {},
		});
		expect(wrongMethod.status).toBe(405);
	});
});
