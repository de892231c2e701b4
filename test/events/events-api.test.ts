import { describe, expect, it } from "vitest";
import { call, newAccount } from "../support/helpers";
import { createInterview } from "../support/lifecycle-helpers";

describe("the event log API", () => {
	it("lists the account's events newest first, filters by type and interview, and pages", async () => {
		const account = await newAccount();
		const a = await createInterview(account.live);
		const b = await createInterview(account.live);
		await call("DELETE", `/v1/interviews/${a.id}?reason=Filled`, { key: account.live });
		const all = await call("GET", "/v1/events", { key: account.live });
		expect(all.status).toBe(200);
		expect(all.body.data.map((e: any) => [e.type, e.interview_id])).toEqual([
			["credits.refunded", a.id],
			["interview.cancelled", a.id],
			["interview.scheduled", b.id],
			["interview.scheduled", a.id],
		]);
		expect(all.body.data[0]).toMatchObject({
			id: expect.stringMatching(/^evt_/),
			test_mode: false,
			created_at: expect.any(String),
		});

		const scheduled = await call("GET", "/v1/events?type=interview.scheduled", { key: account.live });
		expect(scheduled.body.data).toHaveLength(2);
		const ofA = await call("GET", `/v1/events?interview_id=${a.id}`, { key: account.live });
		expect(ofA.body.data).toHaveLength(3);

		const first = await call("GET", "/v1/events?limit=3", { key: account.live });
		expect(first.body.pagination).toMatchObject({ has_more: true });
		const second = await call("GET", `/v1/events?limit=3&cursor=${first.body.pagination?.next_cursor}`, {
			key: account.live,
		});
		expect(second.body.data.map((e: any) => e.id)).toEqual([all.body.data[3].id]);
		expect(second.body.pagination).toMatchObject({ has_more: false, next_cursor: null });

		const one = await call("GET", `/v1/events/${all.body.data[1].id}`, { key: account.live });
		expect(one.body.data).toEqual(all.body.data[1]);
		expect(one.body.data.data).toMatchObject({ id: a.id, reason: "Filled", previous_status: "scheduled" });
	});

	it("keeps accounts and environments apart and refuses unknown types", async () => {
		const account = await newAccount();
		const other = await newAccount();
		await createInterview(account.live);
		const { id } = await createInterview(account.dev);
		expect((await call("GET", "/v1/events", { key: other.live })).body.data).toEqual([]);
		const dev = await call("GET", "/v1/events", { key: account.dev });
		expect(dev.body.data.map((e: any) => e.interview_id)).toEqual([id]);
		const live = await call("GET", "/v1/events", { key: account.live });
		const evtId = live.body.data[0].id;
		expect((await call("GET", `/v1/events/${evtId}`, { key: other.live })).status).toBe(404);
		expect((await call("GET", `/v1/events/${evtId}`, { key: account.dev })).status).toBe(404);
		const bad = await call("GET", "/v1/events?type=interview.exploded", { key: account.live });
		expect(bad.status).toBe(400);
		expect(bad.body.error.details).toHaveProperty("type");
	});
});

describe("the event log API's refusals", () => {
	it("needs interviews:read, names an unknown event, and validates its query", async () => {
		const account = await newAccount();
		const created = await createInterview(account.test);
		const writeOnly = await account.key("live", { permissions: ["interviews:write"] });
		const denied = await call("GET", "/v1/events", { key: writeOnly });
		expect([denied.status, denied.body.error?.details?.required_permission]).toEqual([
			403,
			"interviews:read",
		]);
		const missing = await call("GET", "/v1/events/evt_AAAAAAAAAAAAAAAAAAAAAAAA", { key: account.live });
		expect([missing.status, missing.body.error?.code]).toEqual([404, "EVENT_NOT_FOUND"]);
		// An interviews list's cursor is another list's: refused, not read as an event position.
		await createInterview(account.live);
		const interviews = await call("GET", "/v1/interviews?limit=1", { key: account.live });
		const otherList = interviews.body.pagination?.next_cursor as string;
		expect(otherList).toEqual(expect.any(String));
		for (const query of [
			"limit=0",
			"limit=101",
			"limit=abc",
			"cursor=%%%",
			`cursor=${otherList}`,
			"type=interview.exploded",
			"interview_id=",
		]) {
			const res = await call("GET", `/v1/events?${query}`, { key: account.live });
			expect([res.status, res.body.error?.code], query).toEqual([400, "VALIDATION_ERROR"]);
		}
		// A test-mode interview's events are production data, marked as test.
		const events = await call("GET", `/v1/events?interview_id=${created.id}`, { key: account.live });
		expect(events.body.data.map((e: any) => [e.type, e.test_mode])).toEqual([["interview.scheduled", true]]);
	});
});
