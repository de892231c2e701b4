import { describe, expect, it } from "vitest";
import { wranglerEnv } from "../../scripts/wrangler-env.mjs";

describe("the environment npm start gives wrangler", () => {
	it("turns wrangler's local trace collector off unless it is asked for", () => {
		expect(wranglerEnv({}).X_LOCAL_OBSERVABILITY).toBe("false");
		expect(wranglerEnv({ X_LOCAL_OBSERVABILITY: "" }).X_LOCAL_OBSERVABILITY).toBe("false");
		expect(wranglerEnv({ X_LOCAL_OBSERVABILITY: "true" }).X_LOCAL_OBSERVABILITY).toBe("true");
	});

	it("stays offline and quiet, and keeps the rest of the caller's environment", () => {
		const env = wranglerEnv({
			PORT: "9000",
			WRANGLER_SEND_METRICS: "true",
			WRANGLER_HIDE_BANNER: "false",
			CLOUDFLARE_CF_FETCH_ENABLED: "true",
		});
		expect(env).toMatchObject({
			PORT: "9000",
			WRANGLER_SEND_METRICS: "false",
			WRANGLER_HIDE_BANNER: "true",
			CLOUDFLARE_CF_FETCH_ENABLED: "false",
			CI: "",
		});
		expect(wranglerEnv({ CI: "true" }).CI).toBe("true");
	});
});
