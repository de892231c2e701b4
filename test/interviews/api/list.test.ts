import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, newAccount, validInterview } from "../../support/helpers";

async function createMany(key: string, n: number, body: (i: number) => Record<string, unknown> = () => ({})) {
	const ids: string[] = [];
	for (let i = 0; i < n; i++) {
		const res = await call("POST", "/v1/interviews", { key, body: validInterview(body(i)) });
		if (res.status !== 201) throw new Error(JSON.stringify(res.body));
		ids.push(res.body.data.id);
	}
	return ids;
}

describe("GET /v1/interviews", () => {
	it("walks 60 interviews with limit 25, each exactly once, newest first", async () => {
		const account = await newAccount();
		const ids = await createMany(account.live, 60);
		// Give a few the same created_at so the id tiebreak is exercised.
		await env.DB.prepare("UPDATE interviews SET created_at = 1900000000000 WHERE id IN (?, ?, ?)")
			.bind(ids[10], ids[11], ids[12])
			.run();
		const seen: { id: string; created_at: string }[] = [];
		let cursor: string | null = null;
		for (let page = 0; page < 5; page++) {
			const res: any = await call("GET", `/v1/interviews?limit=25${cursor ? `&cursor=${cursor}` : ""}`, {
				key: account.live,
			});
			expect(res.status).toBe(200);
			expect(res.body.pagination.total_count).toBe(60);
			seen.push(...res.body.data);
			cursor = res.body.pagination.next_cursor;
			expect(res.body.pagination.has_more).toBe(cursor !== null);
			if (!cursor) break;
		}
		expect(cursor).toBeNull();
		expect(seen).toHaveLength(60);
		expect(new Set(seen.map((s) => s.id)).size).toBe(60);
		expect(new Set(seen.map((s) => s.id))).toEqual(new Set(ids));
		const keys = seen.map((s) => [Date.parse(s.created_at), s.id] as const);
		for (let i = 1; i < keys.length; i++) {
			const [t0, id0] = keys[i - 1]!;
			const [t1, id1] = keys[i]!;
			expect(t0 > t1 || (t0 === t1 && id0 > id1)).toBe(true);
		}
	});

	it("refuses limit 0 and 101 and a forged cursor", async () => {
		const account = await newAccount();
		for (const query of ["limit=0", "limit=101", "cursor=garbage", "status=done", "include_results=maybe"]) {
			const res = await call("GET", `/v1/interviews?${query}`, { key: account.live });
			expect(res.status).toBe(400);
			expect(res.body.error?.code).toBe("VALIDATION_ERROR");
			expect(Object.keys(res.body.error?.details ?? {})).toEqual([query.split("=")[0]]);
		}
	});

	it("filters by exact case-insensitive e-mail and by position substring", async () => {
		const account = await newAccount();
		await createMany(account.live, 4, (i) => ({
			candidate_email: i % 2 ? "Grace@Example.com" : "linus@example.com",
			position: i < 2 ? "Senior Platform Engineer" : "Designer",
		}));
		const byEmail = await call("GET", "/v1/interviews?candidate_email=grace@EXAMPLE.com", {
			key: account.live,
		});
		expect(byEmail.body.pagination?.total_count).toBe(2);
		expect(byEmail.body.data.every((i: any) => i.candidate_email === "Grace@Example.com")).toBe(true);
		const partial = await call("GET", "/v1/interviews?candidate_email=grace", { key: account.live });
		expect(partial.body.pagination?.total_count).toBe(0);
		const byPosition = await call("GET", "/v1/interviews?position=platform", { key: account.live });
		expect(byPosition.body.pagination?.total_count).toBe(2);
		const wildcard = await call("GET", "/v1/interviews?position=%25", { key: account.live });
		expect(wildcard.body.pagination?.total_count).toBe(0);
	});

	it("matches the position case-insensitively beyond ASCII", async () => {
		const account = await newAccount();
		await createMany(account.live, 3, (i) => ({
			position: ["ÄRZTIN (Kardiologie)", "Ingénieur Données", "Backend Engineer"][i],
		}));
		const count = async (position: string) =>
			(
				await call("GET", `/v1/interviews?position=${encodeURIComponent(position)}`, {
					key: account.live,
				})
			).body.pagination?.total_count;
		expect(await count("ärztin")).toBe(1);
		expect(await count("KARDIO")).toBe(1);
		expect(await count("INGÉNIEUR")).toBe(1);
		expect(await count("données")).toBe(1);
		expect(await count("engineer")).toBe(1);
		// PATCH keeps the folded column in step with the position.
		const [first] = (await call("GET", "/v1/interviews?position=ärztin", { key: account.live })).body.data;
		const moved = await call("PATCH", `/v1/interviews/${first.id}`, {
			key: account.live,
			body: { position: "Ökonomin" },
		});
		expect(moved.status).toBe(200);
		expect(await count("ärztin")).toBe(0);
		expect(await count("ÖKONOM")).toBe(1);
	});

	it("filters by status and by creation and schedule windows", async () => {
		const account = await newAccount();
		const soon = new Date(Date.now() + 3_600_000).toISOString();
		const later = new Date(Date.now() + 10 * 86_400_000).toISOString();
		const [a, b] = await createMany(account.live, 2, (i) => ({ scheduled_at: i === 0 ? soon : later }));
		const mid = new Date(Date.now() + 5 * 86_400_000).toISOString();
		const before = await call("GET", `/v1/interviews?scheduled_before=${mid}`, { key: account.live });
		expect(before.body.data.map((i: any) => i.id)).toEqual([a]);
		const after = await call("GET", `/v1/interviews?scheduled_after=${mid}`, { key: account.live });
		expect(after.body.data.map((i: any) => i.id)).toEqual([b]);
		const created = await call(
			"GET",
			`/v1/interviews?created_after=${new Date(Date.now() + 60_000).toISOString()}`,
			{
				key: account.live,
			},
		);
		expect(created.body.pagination?.total_count).toBe(0);
		const scheduled = await call("GET", "/v1/interviews?status=scheduled", { key: account.live });
		expect(scheduled.body.pagination?.total_count).toBe(2);
		const completed = await call("GET", "/v1/interviews?status=completed", { key: account.live });
		expect(completed.body.pagination?.total_count).toBe(0);
	});

	it("shows only the caller's own interviews", async () => {
		const a = await newAccount();
		const b = await newAccount();
		await createMany(a.live, 2);
		const res = await call("GET", "/v1/interviews", { key: b.live });
		expect(res.body.data).toEqual([]);
		expect(res.body.pagination).toEqual({ next_cursor: null, has_more: false, total_count: 0 });
	});

	it("uses an index for every filter and the sort", async () => {
		const plan = await env.DB.prepare(
			"EXPLAIN QUERY PLAN SELECT * FROM interviews WHERE account_id = ? AND environment = ? AND status = ? ORDER BY created_at DESC, id DESC LIMIT 26",
		)
			.bind("a", "production", "scheduled")
			.all<{ detail: string }>();
		const details = plan.results.map((r) => r.detail).join("\n");
		expect(details).toContain("interviews_account_status_created_idx");
		expect(details).not.toContain("TEMP B-TREE");
	});
});
