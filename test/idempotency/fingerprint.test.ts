import { describe, expect, it } from "vitest";
import {
	canonicalJson,
	IDEMPOTENCY_KEY_PATTERN,
	requestFingerprint,
} from "../../src/idempotency/fingerprint";

const fingerprint = (
	overrides: Partial<{ method: string; path: string; query: string; body: string }> = {},
) =>
	requestFingerprint({
		method: overrides.method ?? "POST",
		path: overrides.path ?? "/v1/interviews",
		query: new URLSearchParams(overrides.query ?? ""),
		body: overrides.body ?? '{"a":1,"b":[1,{"d":2,"c":3}]}',
	});

describe("idempotency request fingerprints", () => {
	it("writes JSON with sorted keys at every level", () => {
		expect(canonicalJson({ b: 1, a: { d: [3, { f: 1, e: 2 }], c: null } })).toBe(
			'{"a":{"c":null,"d":[3,{"e":2,"f":1}]},"b":1}',
		);
	});

	it("ignores key order, whitespace, a trailing slash and query order", async () => {
		const base = await fingerprint({ query: "a=1&b=2" });
		expect(await fingerprint({ body: '{ "b": [1, {"c":3, "d":2}], "a": 1 }', query: "b=2&a=1" })).toBe(base);
		expect(await fingerprint({ path: "/v1/interviews/", query: "a=1&b=2" })).toBe(base);
	});

	it("tells apart the method, the path, the query and the body", async () => {
		const base = await fingerprint();
		const variants = await Promise.all([
			fingerprint({ method: "PATCH" }),
			fingerprint({ path: "/api/v1/interviews" }),
			fingerprint({ query: "reason=x" }),
			fingerprint({ body: '{"a":2,"b":[1,{"d":2,"c":3}]}' }),
		]);
		for (const v of variants) expect(v).not.toBe(base);
	});

	it("accepts 1 to 255 printable ASCII characters without spaces", () => {
		expect(IDEMPOTENCY_KEY_PATTERN.test("order-42_retry:1")).toBe(true);
		expect(IDEMPOTENCY_KEY_PATTERN.test("a".repeat(255))).toBe(true);
		for (const bad of ["", "a".repeat(256), "a b", "tab\tkey", "é"]) {
			expect(IDEMPOTENCY_KEY_PATTERN.test(bad)).toBe(false);
		}
	});
});
