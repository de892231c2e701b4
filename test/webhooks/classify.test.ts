import { describe, expect, it } from "vitest";
import { DISABLE_AFTER_MS, DISABLE_MIN_FAILURES, shouldDisable } from "../../src/webhooks/auto-disable";
import { classifyAttempt } from "../../src/webhooks/classify";

describe("webhook attempt classification", () => {
	it.each([200, 201, 202, 204, 299])("counts HTTP %i as delivered", (status) => {
		expect(classifyAttempt({ kind: "response", status })).toEqual({
			outcome: "succeeded",
			statusCode: status,
			errorType: null,
			error: null,
		});
	});

	it.each([
		[301, "redirect"],
		[302, "redirect"],
		[307, "redirect"],
		[308, "redirect"],
		[400, "client_error"],
		[401, "client_error"],
		[404, "client_error"],
		[410, "client_error"],
		[429, "client_error"],
		[500, "server_error"],
		[502, "server_error"],
		[503, "server_error"],
		[100, "unexpected_status"],
		[600, "unexpected_status"],
	])("counts HTTP %i as a failed attempt (%s)", (status, errorType) => {
		const c = classifyAttempt({ kind: "response", status });
		expect(c).toMatchObject({ outcome: "failed", statusCode: status, errorType });
		expect(c.error).toContain(String(status));
	});

	it("says a redirect was not followed", () => {
		expect(classifyAttempt({ kind: "response", status: 302 }).error).toContain("not followed");
	});

	it("counts a timeout, a connection error and a refused URL as failures without a status", () => {
		expect(classifyAttempt({ kind: "timeout", afterMs: 10_000 })).toEqual({
			outcome: "failed",
			statusCode: null,
			errorType: "timeout",
			error: "No answer within 10000 ms",
		});
		expect(classifyAttempt({ kind: "network", message: "Network connection lost." })).toMatchObject({
			outcome: "failed",
			statusCode: null,
			errorType: "connection_error",
		});
		expect(classifyAttempt({ kind: "refused", reason: "URL refused: loopback" })).toMatchObject({
			outcome: "failed",
			errorType: "url_refused",
			error: "URL refused: loopback",
		});
	});

	it("keeps connection error messages short", () => {
		const c = classifyAttempt({ kind: "network", message: "x".repeat(5000) });
		expect(c.error?.length).toBe(500);
	});
});

describe("automatic disabling of failing endpoints", () => {
	const start = Date.UTC(2026, 0, 1);

	it("disables after three days of nothing but failures, ten attempts at least", () => {
		expect(DISABLE_AFTER_MS).toBe(3 * 24 * 3600 * 1000);
		expect(DISABLE_MIN_FAILURES).toBe(10);
		expect(shouldDisable({ consecutiveFailures: 10, failingSince: start }, start + DISABLE_AFTER_MS)).toBe(
			true,
		);
	});

	it("keeps an endpoint whose failures are recent, however many", () => {
		expect(
			shouldDisable({ consecutiveFailures: 500, failingSince: start }, start + DISABLE_AFTER_MS - 1),
		).toBe(false);
	});

	it("keeps an endpoint with few failures, however old the first", () => {
		expect(
			shouldDisable({ consecutiveFailures: 9, failingSince: start }, start + 30 * DISABLE_AFTER_MS),
		).toBe(false);
	});

	it("keeps a healthy endpoint", () => {
		expect(shouldDisable({ consecutiveFailures: 0, failingSince: null }, start)).toBe(false);
	});
});
