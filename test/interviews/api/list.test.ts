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

	it("writes every item as the contract's list item, from the projection's row", async () => {
		const account = await newAccount();
		const ids = await createMany(account.live, 4, (i) => ({
			candidate_email: `Mixed.Case+${i}@Example.com`,
			position: `Senior "Back\\end" Éngineer — ${i} \u{1F680}`,
			skills: ["C++", 'say "hi"', "Ω\\path"],
		}));
		const [plain, scored, unscored, cancelled] = ids as [string, string, string, string];
		const set = (sql: string, ...values: unknown[]) =>
			env.DB.prepare(sql)
				.bind(...values)
				.run();
		// Milliseconds of every size, so that the timestamps' fractions are written exactly.
		await set(
			"UPDATE interviews SET created_at = 1900000000007, scheduled_at = 1900000123450 WHERE id = ?",
			plain,
		);
		await set(
			"UPDATE interviews SET status = 'completed', overall_score = 87, recommendation = 'hire', created_at = 1900000000999 WHERE id = ?",
			scored,
		);
		await set(
			"UPDATE interviews SET status = 'completed', created_at = 1900000000000 WHERE id = ?",
			unscored,
		);
		await set("UPDATE interviews SET status = 'cancelled', overall_score = 5 WHERE id = ?", cancelled);
		const expected = async (id: string, includeResults: boolean) => {
			const row = (await env.DB.prepare("SELECT * FROM interviews WHERE id = ?").bind(id).first()) as Record<
				string,
				any
			>;
			return {
				id,
				status: row.status,
				candidate_email: row.candidate_email,
				position: row.position,
				skills: JSON.parse(row.skills),
				scheduled_at: new Date(row.scheduled_at).toISOString(),
				created_at: new Date(row.created_at).toISOString(),
				test_mode: row.test_mode === 1,
				...(includeResults && row.status === "completed" && row.overall_score !== null
					? { results: { overall_score: row.overall_score, recommendation: row.recommendation } }
					: {}),
			};
		};
		for (const includeResults of [false, true]) {
			const res = await call("GET", `/v1/interviews?limit=10&include_results=${includeResults}`, {
				key: account.live,
			});
			expect(res.status).toBe(200);
			expect(res.headers.get("content-type")).toBe("application/json");
			expect(res.body).toMatchObject({ success: true, meta: { request_id: expect.any(String) } });
			const items = res.body.data as Record<string, unknown>[];
			expect(items.map((item) => item.id)).toEqual([scored, plain, unscored, cancelled]);
			for (const item of items) {
				const want = await expected(item.id as string, includeResults);
				expect(item).toStrictEqual(want);
				expect(Object.keys(item)).toEqual(Object.keys(want));
			}
			expect(items.filter((item) => "results" in item).map((item) => item.id)).toEqual(
				includeResults ? [scored] : [],
			);
		}
		const empty = await call("GET", "/v1/interviews?status=in_progress", { key: account.live });
		expect(empty.body.data).toEqual([]);
		expect(empty.body.pagination).toEqual({ next_cursor: null, has_more: false, total_count: 0 });
		// A page exactly as long as what is left has no next page; one shorter has.
		const exact = await call("GET", "/v1/interviews?limit=4", { key: account.live });
		expect(exact.body.pagination).toEqual({ next_cursor: null, has_more: false, total_count: 4 });
		const short = await call("GET", "/v1/interviews?limit=3", { key: account.live });
		expect(short.body.pagination).toMatchObject({ has_more: true, total_count: 4 });
		const rest = await call("GET", `/v1/interviews?limit=3&cursor=${short.body.pagination?.next_cursor}`, {
			key: account.live,
		});
		expect(rest.body.data.map((item: { id: string }) => item.id)).toEqual([cancelled]);
	});

	it("gives the total with an empty page past the last matching interview, filtered or not", async () => {
		const account = await newAccount();
		const ids = await createMany(account.live, 3, (i) => ({ position: `Role ${i}` }));
		// Newest first: a page of one ends at the second-newest; cancelling the oldest empties the rest.
		const first = await call("GET", "/v1/interviews?status=scheduled&limit=2", { key: account.live });
		const byPosition = await call("GET", "/v1/interviews?position=role&limit=2", { key: account.live });
		expect(first.body.pagination).toMatchObject({ has_more: true, total_count: 3 });
		expect(byPosition.body.pagination).toMatchObject({ has_more: true, total_count: 3 });
		expect((await call("DELETE", `/v1/interviews/${ids[0]}`, { key: account.live })).status).toBe(200);
		// The counters' total (status only) and the counted one (another filter) both come without rows.
		const rest = await call(
			"GET",
			`/v1/interviews?status=scheduled&limit=2&cursor=${first.body.pagination?.next_cursor}`,
			{
				key: account.live,
			},
		);
		expect(rest.status).toBe(200);
		expect(rest.body.data).toEqual([]);
		expect(rest.body.pagination).toEqual({ next_cursor: null, has_more: false, total_count: 2 });
		const cancelled = await call(
			"GET",
			`/v1/interviews?position=role&status=scheduled&limit=2&cursor=${byPosition.body.pagination?.next_cursor}`,
			{ key: account.live },
		);
		expect(cancelled.status).toBe(200);
		expect(cancelled.body.data).toEqual([]);
		expect(cancelled.body.pagination).toEqual({ next_cursor: null, has_more: false, total_count: 2 });
	});

	it("refuses a parameter whose percent-encoding cannot be decoded, naming it, instead of matching its raw text", async () => {
		const account = await newAccount();
		await call("POST", "/v1/interviews", {
			key: account.live,
			body: validInterview({ position: "Take 100% ownership" }),
		});
		const message =
			"Must be percent-encoded UTF-8: each % followed by two hexadecimal digits (write a literal % as %25)";
		for (const [query, name] of [
			["position=%ZZ", "position"],
			["position=50%", "position"],
			["position=%ED%A0%80", "position"],
			["status=scheduled&position=a%2", "position"],
			["%ZZ=1", "%ZZ"],
		]) {
			const res = await call("GET", `/v1/interviews?${query}`, { key: account.live });
			expect(res.status, query).toBe(400);
			expect(res.body.error, query).toMatchObject({
				code: "VALIDATION_ERROR",
				details: { [name as string]: message },
			});
		}
		const literal = await call("GET", "/v1/interviews?position=100%25%20own", { key: account.live });
		expect(literal.status).toBe(200);
		expect(literal.body.pagination?.total_count).toBe(1);
		const webhooks = await call("GET", "/v1/webhooks?limit=%G1", { key: account.live });
		expect(webhooks.status).toBe(400);
		expect(webhooks.body.error.details).toEqual({ limit: message });
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

	it("trims the e-mail filter as the create trims the address it stores", async () => {
		const account = await newAccount();
		const sent = " Mixed.Case@Example.com\t";
		const [id] = await createMany(account.live, 1, () => ({ candidate_email: sent }));
		for (const value of [sent, ` ${sent.trim().toLowerCase()}  `]) {
			const res = await call("GET", `/v1/interviews?candidate_email=${encodeURIComponent(value)}`, {
				key: account.live,
			});
			expect([res.status, res.body.data?.map((i: any) => i.id)], JSON.stringify(value)).toEqual([200, [id]]);
		}
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

	it("refuses a query parameter sent twice in words, not as a list it never asked for", async () => {
		const account = await newAccount();
		const res = await call("GET", "/v1/interviews?limit=5&limit=6", { key: account.live });
		expect([res.status, res.body.error?.details]).toEqual([400, { limit: "Must be given once" }]);
	});
});
