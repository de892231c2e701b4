import { describe, expect, it } from "vitest";
import { call, newAccount, validInterview } from "./helpers";

describe("smoke", () => {
	it("creates and fetches an interview", async () => {
		const account = await newAccount();
		const created = await call("POST", "/v1/interviews", {
			key: account.live,
			body: validInterview(),
		});
		expect(created.status).toBe(201);
		const fetched = await call("GET", `/v1/interviews/${created.body.data.id}`, { key: account.live });
		expect(fetched.status).toBe(200);
		expect(fetched.body.data.id).toBe(created.body.data.id);
	});
});
