import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DEV_DATA_TTL_MS } from "../../../src/accounts/sweeps";
import { listInterviews } from "../../../src/interviews/db/interviews-repo";
import { getDb } from "../../../src/platform/db/client";
import { runHousekeeping } from "../../../src/scheduled";
import { call, newAccount, type TestAccount, validInterview } from "../../support/helpers";

const STATUSES = ["scheduled", "in_progress", "completed", "cancelled"] as const;

/** Counting the rows, as the list did before the counters. */
async function counted(accountId: string, environment: string, status?: string): Promise<number> {
	const row = await env.DB.prepare(
		`SELECT count(*) AS n FROM interviews WHERE account_id = ? AND environment = ?${status ? " AND status = ?" : ""}`,
	)
		.bind(...[accountId, environment, ...(status ? [status] : [])])
		.first<{ n: number }>();
	return row?.n ?? 0;
}

async function totalCount(key: string, query = ""): Promise<number> {
	const res = await call("GET", `/v1/interviews?limit=1${query}`, { key });
	expect(res.status).toBe(200);
	return res.body.pagination?.total_count as number;
}

/** Every list total the counters answer agrees with counting rows, for both environments. */
async function expectCountersExact(account: TestAccount): Promise<void> {
	for (const [key, environment] of [
		[account.test, "production"],
		[account.dev, "dev"],
	] as const) {
		expect(await totalCount(key)).toBe(await counted(account.id, environment));
		for (const status of STATUSES) {
			expect(await totalCount(key, `&status=${status}`)).toBe(await counted(account.id, environment, status));
		}
	}
}

async function create(key: string): Promise<string> {
	const res = await call("POST", "/v1/interviews", { key, body: validInterview() });
	expect(res.status).toBe(201);
	return res.body.data.id;
}

const advance = async (key: string, id: string, to: string) =>
	expect((await call("POST", `/v1/interviews/${id}/test/advance`, { key, body: { to } })).status).toBe(200);

describe("interview counters kept with the projection", () => {
	it("stay exact through creation, bulk creation, status changes and cancellation", async () => {
		const account = await newAccount();
		const ids = [
			await create(account.live),
			await create(account.test),
			await create(account.test),
			await create(account.test),
		];
		const devIds = [await create(account.dev), await create(account.dev)];
		const bulk = await call("POST", "/v1/interviews/bulk", {
			key: account.test,
			body: { interviews: [validInterview(), validInterview(), { candidate_email: "not-an-address" }] },
		});
		expect(bulk.status).toBe(200);
		await expectCountersExact(account);

		// Two moves into the same status: the second finds that status's counter row already there.
		await advance(account.test, ids[1] as string, "in_progress");
		await advance(account.test, ids[3] as string, "in_progress");
		await advance(account.test, ids[2] as string, "completed");
		await advance(account.dev, devIds[0] as string, "completed");
		expect((await call("DELETE", `/v1/interviews/${ids[0]}`, { key: account.live })).status).toBe(200);
		expect((await call("DELETE", `/v1/interviews/${devIds[1]}`, { key: account.dev })).status).toBe(200);
		await expectCountersExact(account);
		expect(await totalCount(account.test, "&status=scheduled")).toBe(2);
		expect(await totalCount(account.test, "&status=in_progress")).toBe(2);
		expect(await totalCount(account.test, "&status=completed")).toBe(1);
		expect(await totalCount(account.test, "&status=cancelled")).toBe(1);
		expect(await totalCount(account.dev, "&status=completed")).toBe(1);
		expect(await totalCount(account.dev, "&status=cancelled")).toBe(1);
		expect(await totalCount(account.dev, "&status=scheduled")).toBe(0);
	});

	it("stay exact when the dev-data purge deletes projection rows", async () => {
		const account = await newAccount();
		await create(account.dev);
		await create(account.dev);
		await create(account.test);
		expect(await totalCount(account.dev)).toBe(2);
		await runHousekeeping(env, Date.now() + DEV_DATA_TTL_MS + 60_000);
		expect(await counted(account.id, "dev")).toBe(0);
		await expectCountersExact(account);
		expect(await totalCount(account.test)).toBe(1);
	});

	it("follow rows written straight into D1, and an older version never moves them", async () => {
		const account = await newAccount();
		const id = await create(account.test);
		// A newer version changes the status: the update trigger moves the count.
		await env.DB.prepare("UPDATE interviews SET status = 'completed', version = version + 10 WHERE id = ?")
			.bind(id)
			.run();
		await expectCountersExact(account);
		expect(await totalCount(account.test, "&status=completed")).toBe(1);
		// A rewrite with the same status changes nothing.
		await env.DB.prepare("UPDATE interviews SET status = 'completed' WHERE id = ?").bind(id).run();
		await env.DB.prepare("DELETE FROM interviews WHERE id = ?").bind(id).run();
		await expectCountersExact(account);
		expect(await totalCount(account.test)).toBe(0);
	});

	it("tell test-mode interviews from live ones, as the dashboard's two views count them", async () => {
		const account = await newAccount();
		const live = [await create(account.live), await create(account.live)];
		const test = [await create(account.test), await create(account.test), await create(account.test)];
		await advance(account.test, test[0] as string, "completed");
		expect((await call("DELETE", `/v1/interviews/${live[0]}`, { key: account.live })).status).toBe(200);
		// A row whose test mode changes straight in D1 moves between the two counters.
		await env.DB.prepare("UPDATE interviews SET test_mode = 1 WHERE id = ?").bind(live[1]).run();
		const rows = async (testMode: boolean, status?: string) => {
			const row = await env.DB.prepare(
				`SELECT count(*) AS n FROM interviews WHERE account_id = ? AND environment = 'production' AND test_mode = ?${status ? " AND status = ?" : ""}`,
			)
				.bind(...[account.id, testMode ? 1 : 0, ...(status ? [status] : [])])
				.first<{ n: number }>();
			return row?.n ?? 0;
		};
		for (const testMode of [true, false]) {
			for (const status of [undefined, ...STATUSES]) {
				const { total } = await listInterviews(
					getDb(env.DB),
					account.id,
					"production",
					{ status, testMode },
					1,
					null,
				);
				expect(total).toBe(await rows(testMode, status));
			}
		}
		expect(
			(await listInterviews(getDb(env.DB), account.id, "production", { testMode: true }, 1, null)).total,
		).toBe(4);
		expect(
			(await listInterviews(getDb(env.DB), account.id, "production", { testMode: false }, 1, null)).total,
		).toBe(1);
		await expectCountersExact(account);
	});

	it("leave totals with other filters to counting rows", async () => {
		const account = await newAccount();
		await call("POST", "/v1/interviews", {
			key: account.test,
			body: validInterview({ position: "Data Engineer" }),
		});
		await call("POST", "/v1/interviews", {
			key: account.test,
			body: validInterview({ position: "Designer" }),
		});
		expect(await totalCount(account.test, "&position=engineer")).toBe(1);
		expect(await totalCount(account.test, "&status=scheduled&position=design")).toBe(1);
		expect(await totalCount(account.test, "&status=scheduled")).toBe(2);
	});
});
