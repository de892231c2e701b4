import { describe, expect, it } from "vitest";
import { bearerToken } from "../../src/accounts/auth";
import { dataEnvironmentOf, generateApiKey, hashApiKey, parseApiKey } from "../../src/accounts/keys";
import { constantTimeEqual } from "../../src/platform/lib/crypto";

describe("API keys", () => {
	it("generates keys with the environment prefix and 32 random base62 characters", () => {
		for (const env of ["live", "test", "dev"] as const) {
			const key = generateApiKey(env);
			expect(key).toMatch(new RegExp(`^svc_${env}_[0-9A-Za-z]{32}$`));
			expect(parseApiKey(key)).toEqual({ environment: env });
		}
		expect(generateApiKey("live")).not.toBe(generateApiKey("live"));
	});

	it("refuses values that are not keys", () => {
		for (const value of [
			"",
			"svc_prod_abc",
			"svc_live_short",
			`sk_live_${"a".repeat(32)}`,
			`svc_live_${"a".repeat(31)}!`,
		]) {
			expect(parseApiKey(value)).toBeNull();
		}
	});

	it("hashes keys with SHA-256 as lowercase hex", async () => {
		expect(await hashApiKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	});

	it("maps live and test keys to production data and dev keys to the sandbox", () => {
		expect(dataEnvironmentOf("live")).toBe("production");
		expect(dataEnvironmentOf("test")).toBe("production");
		expect(dataEnvironmentOf("dev")).toBe("dev");
	});

	it("reads only well-formed Bearer headers", () => {
		expect(bearerToken("Bearer abc")).toBe("abc");
		expect(bearerToken("bearer abc")).toBe("abc");
		expect(bearerToken("Basic abc")).toBeNull();
		expect(bearerToken("Bearer")).toBeNull();
		expect(bearerToken("Bearer a b")).toBeNull();
		expect(bearerToken(undefined)).toBeNull();
	});

	it("compares secrets by content whatever their length", () => {
		expect(constantTimeEqual("secret", "secret")).toBe(true);
		expect(constantTimeEqual("secret", "secreT")).toBe(false);
		expect(constantTimeEqual("secret", "secrets")).toBe(false);
	});
});
