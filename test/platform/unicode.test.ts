import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseClientFrame } from "../../src/interviews/room/frames";
import { interviewStub } from "../../src/interviews/stub";
import { illFormedPath } from "../../src/platform/http/validation";
import { admin, call, newAccount, validInterview } from "../support/helpers";

const LONE = "x\ud800y";
const MESSAGE = "Must be well-formed Unicode text (no unpaired surrogate code points)";

async function listTotal(key: string): Promise<number> {
	const list = await call("GET", "/v1/interviews?limit=1", { key });
	return list.body.pagination?.total_count ?? -1;
}

describe("text that is not well-formed Unicode", () => {
	it("is refused on create, naming the field, and nothing is created", async () => {
		const account = await newAccount();
		const res = await call("POST", "/v1/interviews", {
			key: account.live,
			body: validInterview({ position: LONE }),
		});
		expect(res.status).toBe(400);
		expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { position: MESSAGE } });
		const low = await call("POST", "/v1/interviews", {
			key: account.live,
			body: validInterview({ skills: ["Go", "a\udc00"] }),
		});
		expect(low.body.error.details).toEqual({ "skills.1": MESSAGE });
		expect(await listTotal(account.live)).toBe(0);
	});

	it("is refused in a bulk item (that item alone), a PATCH, a webhook endpoint and an admin body", async () => {
		const account = await newAccount();
		const bulk = await call("POST", "/v1/interviews/bulk", {
			key: account.live,
			body: {
				interviews: [
					validInterview(),
					validInterview({ instructions: LONE }),
					{ ...validInterview(), "k\udbff": 1 },
				],
			},
		});
		expect(bulk.status).toBe(200);
		expect(bulk.body.data.successful.map((c: { index: number }) => c.index)).toEqual([0]);
		expect(bulk.body.data.failed).toEqual([
			expect.objectContaining({
				index: 1,
				error: expect.objectContaining({ code: "VALIDATION_ERROR", details: { instructions: MESSAGE } }),
			}),
			expect.objectContaining({
				index: 2,
				error: expect.objectContaining({ code: "VALIDATION_ERROR", details: { "k\ufffd": MESSAGE } }),
			}),
		]);
		expect(await listTotal(account.live)).toBe(1);
		// Outside the items, the request itself is refused and nothing is created.
		const badDefaults = await call("POST", "/v1/interviews/bulk", {
			key: account.live,
			body: { defaults: { position: LONE }, interviews: [validInterview()] },
		});
		expect([badDefaults.status, badDefaults.body.error?.code]).toEqual([400, "VALIDATION_ERROR"]);
		expect(badDefaults.body.error.details).toEqual({ "defaults.position": MESSAGE });
		expect(await listTotal(account.live)).toBe(1);

		const created = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		const id = created.body.data.id;
		const patched = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { company_name: LONE },
		});
		expect([patched.status, patched.body.error?.code]).toEqual([400, "VALIDATION_ERROR"]);
		expect(patched.body.error.details).toEqual({ company_name: MESSAGE });
		expect((await interviewStub(env, id).get())?.companyName).not.toBe(LONE);

		const hook = await call("POST", "/v1/webhooks", {
			key: account.live,
			body: { url: `https://example.com/${LONE}`, events: ["interview.completed"] },
		});
		expect([hook.status, hook.body.error?.code]).toEqual([400, "VALIDATION_ERROR"]);
		expect(hook.body.error.details).toEqual({ url: MESSAGE });

		const acct = await admin("POST", "/accounts", { company_name: LONE, plan: "free" });
		expect([acct.status, acct.body.error?.code]).toEqual([400, "VALIDATION_ERROR"]);
		expect(acct.body.error.details).toEqual({ company_name: MESSAGE });
	});

	it("is found however deeply the body nests, without a 500", async () => {
		const account = await newAccount();
		for (const depth of [5_000, 100_000]) {
			const body = `{"a":${"[".repeat(depth)}${"]".repeat(depth)},"position":"\\ud800"}`;
			const res = await call("POST", "/v1/interviews", { key: account.live, rawBody: body });
			expect([res.status, res.body.error?.code]).toEqual([400, "VALIDATION_ERROR"]);
			expect(res.body.error.details).toEqual({ position: MESSAGE });
		}
		const deep = { value: "x\ud800" as unknown };
		for (let i = 0; i < 20_000; i++) deep.value = [deep.value];
		expect(illFormedPath({ a: deep.value })).toBe(`a${".0".repeat(20_000)}`);
		expect(illFormedPath({ b: ["ok", { c: "\udc00" }], a: "\ud800" })).toBe("b.1.c");
		expect(illFormedPath({ "\ud800": 1, a: "\udc00" })).toBe("\ufffd");
		expect(illFormedPath("ok", ["x", "y"])).toBeNull();
		expect(illFormedPath("\ud800", ["x", "y"])).toBe("x.y");
		expect(await listTotal(account.live)).toBe(0);
	});

	it("names a member name that is not well-formed", async () => {
		const account = await newAccount();
		const res = await call("POST", "/v1/interviews", {
			key: account.live,
			body: { ...validInterview(), "k\udbff": 1 },
		});
		expect(res.status).toBe(400);
		expect(res.body.error.details).toEqual({ "k\ufffd": MESSAGE });
	});

	it("accepts paired surrogates (an emoji) and keeps them as sent", async () => {
		const account = await newAccount();
		const res = await call("POST", "/v1/interviews", {
			key: account.live,
			body: validInterview({ position: "Engineer \u{1F680}" }),
		});
		expect(res.status).toBe(201);
		const list = await call("GET", "/v1/interviews", { key: account.live });
		expect(list.body.data[0].position).toBe("Engineer \u{1F680}");
	});

	it("cannot reach a query string: percent-encoded surrogate halves are refused as not UTF-8", async () => {
		const account = await newAccount();
		// Over HTTP a query cannot carry a lone surrogate: percent-encoded halves are not UTF-8, so
		// the parameter cannot be decoded and is refused under its name (docs/api.md).
		const encoded = await call("GET", "/v1/interviews?position=x%ED%A0%80y", { key: account.live });
		expect(encoded.status).toBe(400);
		expect(encoded.body.error).toMatchObject({
			code: "VALIDATION_ERROR",
			details: { position: expect.stringContaining("Must be percent-encoded UTF-8") },
		});
	});

	it("is refused in the candidate's WebSocket frames", () => {
		const frame = JSON.stringify({
			type: "candidate_response",
			session_id: "int_x",
			question_id: "q1",
			response: LONE,
			timestamp: new Date().toISOString(),
		});
		const parsed = parseClientFrame(frame);
		expect(parsed.ok).toBe(false);
		if (!parsed.ok)
			expect(parsed.error).toMatchObject({
				code: "BAD_MESSAGE",
				message: expect.stringContaining("response"),
			});
		const fine = parseClientFrame(frame.replace("\\ud800", "\\ud83d\\ude80"));
		expect(fine.ok).toBe(true);
	});
});

describe("text with control characters", () => {
	const CONTROL =
		"Must not contain control characters (U+0000 to U+001F other than tab, line feed and carriage return)";

	it("is refused on create, in a bulk item alone and in a PATCH, naming the field; tab and new lines are kept", async () => {
		const account = await newAccount();
		for (const [body, field] of [
			[validInterview({ position: "\u0000" }), "position"],
			[validInterview({ candidate_name: "Bob\u0000" }), "candidate_name"],
			[validInterview({ skills: ["Go", "a\u0007b"] }), "skills.1"],
			[validInterview({ company_name: "Acme\bCo" }), "company_name"],
		] as const) {
			const res = await call("POST", "/v1/interviews", { key: account.live, body });
			expect([res.status, res.body.error?.details], field).toEqual([400, { [field]: CONTROL }]);
		}
		expect(await listTotal(account.live)).toBe(0);
		const bulk = await call("POST", "/v1/interviews/bulk", {
			key: account.live,
			body: { interviews: [validInterview(), validInterview({ position: "Eng\u001bineer" })] },
		});
		expect(bulk.body.data.successful.map((c: { index: number }) => c.index)).toEqual([0]);
		expect(bulk.body.data.failed[0].error.details).toEqual({ position: CONTROL });
		const kept = await call("POST", "/v1/interviews", {
			key: account.live,
			body: validInterview({ instructions: "Line one\n\tindented\r\nline two" }),
		});
		expect(kept.status).toBe(201);
		const id = kept.body.data.id as string;
		expect((await call("GET", `/v1/interviews/${id}`, { key: account.live })).body.data.instructions).toBe(
			"Line one\n\tindented\r\nline two",
		);
		const patch = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { position: "x\u0000" },
		});
		expect([patch.status, patch.body.error?.details]).toEqual([400, { position: CONTROL }]);
		expect(await listTotal(account.live)).toBe(2);
	});
});
