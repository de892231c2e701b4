import { describe, expect, it } from "vitest";
import { checkWebhookUrl, parseIpv6, refusedIpv4Range } from "../../src/webhooks/url-policy";
import { ACCEPTED_URLS, REFUSED_URLS } from "../support/ssrf-cases";

describe("webhook URL policy", () => {
	it("has a table of at least 30 refused spellings", () => {
		expect(REFUSED_URLS.length).toBeGreaterThanOrEqual(30);
	});

	it.each(REFUSED_URLS)("refuses $url in $environment ($why)", ({ url, environment, reason }) => {
		expect(checkWebhookUrl(url, environment)).toEqual({ ok: false, reason: expect.stringContaining(reason) });
	});

	it.each(ACCEPTED_URLS)("accepts $url in $environment", ({ url, environment, stored }) => {
		expect(checkWebhookUrl(url, environment)).toEqual({ ok: true, url: stored });
	});

	it.each([
		"https:///evil.example.com/hook",
		"https:////evil.example.com/hook",
		"HTTPS:///evil.example.com/hook",
		"https:///127.0.0.1/hook",
	])("refuses %s, which the parser would repair into https://host", (url) => {
		expect(checkWebhookUrl(url, "production")).toEqual({
			ok: false,
			reason: "Must have the host right after https:// (no third slash)",
		});
	});

	it.each(["https://example.com:0/h", "https://example.com:00/h", "https://[2606:4700::1]:0/h"])(
		"refuses %s, on port 0, where nothing can be delivered",
		(url) => {
			expect(checkWebhookUrl(url, "production")).toEqual({ ok: false, reason: "Must not use port 0" });
		},
	);

	it("accepts another explicit port", () => {
		expect(checkWebhookUrl("https://example.com:8443/h", "production")).toEqual({
			ok: true,
			url: "https://example.com:8443/h",
		});
	});

	it("refuses a backslash where the host should start", () => {
		expect(checkWebhookUrl("https://\\evil.example.com/hook", "production")).toEqual({
			ok: false,
			reason: expect.stringContaining("backslashes"),
		});
	});

	it.each([
		["https://metadata.google.internal../computeMetadata/v1/", "metadata.google.internal.."],
		["https://localhost../hook", "localhost.."],
		["https://foo.localhost../hook", "foo.localhost.."],
		["https://intranet../hook", "intranet.."],
		["https://127.0.0.1../hook", "127.0.0.1.."],
		["https://example.com../hook", "example.com.."],
		["https://a..example.com/hook", "a..example.com"],
		["https://.example.com/hook", ".example.com"],
		["https://example.com%2e%2e/hook", "example.com.."],
	])("refuses %s, whose host name has an empty label", (url, host) => {
		expect(checkWebhookUrl(url, "production")).toEqual({
			ok: false,
			reason: `Must not have an empty label in the host name (${host}): no leading dot, no two dots in a row, at most one trailing dot`,
		});
	});

	it("still accepts one trailing dot on a public host name", () => {
		expect(checkWebhookUrl("https://example.com./hook", "production")).toEqual({
			ok: true,
			url: "https://example.com./hook",
		});
		expect(checkWebhookUrl("https://metadata.google.internal./", "production")).toEqual({
			ok: false,
			reason: expect.stringContaining("local or internal host name"),
		});
	});

	it("refuses the names private networks use by convention, and not public names that share words", () => {
		for (const host of [
			"api.default.svc",
			"db.cluster.local",
			"printer.lan",
			"wiki.intranet",
			"hooks.corp",
			"box.private",
			"HOOKS.CORP.",
		]) {
			expect(checkWebhookUrl(`https://${host}/hook`, "production"), host).toEqual({
				ok: false,
				reason: expect.stringContaining("local or internal host name"),
			});
		}
		for (const host of [
			"svc.example.com",
			"lan.example.com",
			"corp.example.com",
			"example.private.example.com",
		]) {
			expect(checkWebhookUrl(`https://${host}/hook`, "production").ok, host).toBe(true);
		}
	});

	it("accepts the literal loopback hosts over http only in development", () => {
		for (const url of ["http://localhost:1/", "http://127.0.0.1:1/", "http://[::1]:1/"]) {
			expect(checkWebhookUrl(url, "development").ok).toBe(true);
			expect(checkWebhookUrl(url, "production").ok).toBe(false);
		}
	});

	it("names the address range it refused", () => {
		const verdict = checkWebhookUrl("https://0xa9fea9fe/", "production");
		expect(verdict).toEqual({ ok: false, reason: expect.stringContaining("link-local") });
		expect(checkWebhookUrl("https://100.64.1.1/", "production")).toEqual({
			ok: false,
			reason: expect.stringContaining("carrier-grade NAT"),
		});
	});

	it("parses IPv6 in compressed, full and dotted-tail forms", () => {
		expect(parseIpv6("::1")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
		expect(parseIpv6("2001:db8:0:0:0:0:2:1")).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 2, 1]);
		expect(parseIpv6("::ffff:10.1.2.3")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0a01, 0x0203]);
		expect(parseIpv6("1::2::3")).toBeNull();
		expect(parseIpv6("12345::")).toBeNull();
		expect(parseIpv6("1:2:3:4:5:6:7")).toBeNull();
	});

	it("leaves public IPv4 addresses alone at the edges of refused ranges", () => {
		const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
		expect(refusedIpv4Range(v4(172, 15, 255, 255))).toBeNull();
		expect(refusedIpv4Range(v4(172, 32, 0, 0))).toBeNull();
		expect(refusedIpv4Range(v4(100, 63, 255, 255))).toBeNull();
		expect(refusedIpv4Range(v4(100, 128, 0, 0))).toBeNull();
		expect(refusedIpv4Range(v4(11, 0, 0, 1))).toBeNull();
		expect(refusedIpv4Range(v4(223, 255, 255, 255))).toBeNull();
		expect(refusedIpv4Range(v4(172, 16, 0, 0))).toBe("a private");
	});
});
