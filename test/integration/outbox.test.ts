import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { interviewStub } from "../../src/interview/service";
import { call, newAccount, validInterview, withTableRenamed } from "./helpers";

describe("the outbox between the interview object and D1", () => {
	it("answers from the committed state when the projection write fails, then heals it on the alarm", async () => {
		const account = await newAccount();
		const created = await withTableRenamed("interviews", () =>
			call("POST", "/v1/interviews", { key: account.live, body: validInterview() }),
		);
		expect(created.status).toBe(201);
		const id = created.body.data.id;

		const fetched = await call("GET", `/v1/interviews/${id}`, { key: account.live });
		expect(fetched.status).toBe(200);
		const before = await call("GET", "/v1/interviews", { key: account.live });
		expect(before.body.pagination?.total_count).toBe(0);

		const stub = env.INTERVIEW.get(env.INTERVIEW.idFromName(id));
		expect(await runDurableObjectAlarm(stub)).toBe(true);

		const after = await call("GET", "/v1/interviews", { key: account.live });
		expect(after.body.data.map((i: { id: string }) => i.id)).toEqual([id]);
		const events = await env.DB.prepare("SELECT COUNT(*) AS n FROM events WHERE interview_id = ?")
			.bind(id)
			.first<{ n: number }>();
		expect(events?.n).toBe(1);
	});

	it("heals a failed event write without duplicating the event", async () => {
		const account = await newAccount();
		const created = await withTableRenamed("events", () =>
			call("POST", "/v1/interviews", { key: account.live, body: validInterview() }),
		);
		const id = created.body.data.id;
		const stub = env.INTERVIEW.get(env.INTERVIEW.idFromName(id));
		const none = await env.DB.prepare("SELECT COUNT(*) AS n FROM events WHERE interview_id = ?")
			.bind(id)
			.first<{ n: number }>();
		expect(none?.n).toBe(0);
		await runDurableObjectAlarm(stub);
		await runDurableObjectAlarm(stub);
		const events = await env.DB.prepare("SELECT type FROM events WHERE interview_id = ?")
			.bind(id)
			.all<{ type: string }>();
		expect(events.results.map((e) => e.type)).toEqual(["interview.scheduled"]);
	});

	it("never lets an older version overwrite a newer projection", async () => {
		const account = await newAccount();
		const created = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		const id = created.body.data.id;
		await env.DB.prepare("UPDATE interviews SET version = 99, position = 'Newer' WHERE id = ?")
			.bind(id)
			.run();
		const { upsertProjection } = await import("../../src/db/interviews-repo");
		const { getDb } = await import("../../src/db/client");
		const state = await interviewStub(env, id).get();
		await upsertProjection(getDb(env.DB), state!).run();
		const row = await env.DB.prepare("SELECT position, version FROM interviews WHERE id = ?")
			.bind(id)
			.first();
		expect(row).toEqual({ position: "Newer", version: 99 });
	});
});
