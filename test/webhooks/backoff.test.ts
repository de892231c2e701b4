import { describe, expect, it } from "vitest";
import {
	DEFAULT_RETRY_DELAYS_SECONDS,
	DEFAULT_TIMEOUT_MS,
	MAX_ATTEMPTS,
	parseRetryDelays,
	parseTimeoutMs,
	retryDelaySeconds,
} from "../../src/webhooks/backoff";
import { nextStep } from "../../src/webhooks/classify";

const DEFAULT = [...DEFAULT_RETRY_DELAYS_SECONDS];

describe("webhook retry schedule", () => {
	it("defaults to 1 min, 5 min, 30 min, 2 h and 12 h between six attempts", () => {
		expect(MAX_ATTEMPTS).toBe(6);
		expect(parseRetryDelays(undefined)).toEqual([60, 300, 1800, 7200, 43200]);
		expect(parseRetryDelays("")).toEqual([60, 300, 1800, 7200, 43200]);
	});

	it("reads WEBHOOK_RETRY_DELAYS as comma-separated seconds", () => {
		expect(parseRetryDelays("1,2,3,4,5")).toEqual([1, 2, 3, 4, 5]);
		expect(parseRetryDelays(" 1 , 1 ,1,1,1 ")).toEqual([1, 1, 1, 1, 1]);
	});

	it("repeats the last value of a short list and ignores extra values", () => {
		expect(parseRetryDelays("2")).toEqual([2, 2, 2, 2, 2]);
		expect(parseRetryDelays("1,2")).toEqual([1, 2, 2, 2, 2]);
		expect(parseRetryDelays("1,2,3,4,5,6,7")).toEqual([1, 2, 3, 4, 5]);
	});

	it("falls back to the default on malformed values", () => {
		for (const raw of ["abc", "1,,2", "-1", "1.5", "1;2", "1,2,x"])
			expect(parseRetryDelays(raw)).toEqual(DEFAULT);
	});

	it("caps each delay at the 12 hours Queues can delay a message", () => {
		expect(parseRetryDelays("90000")).toEqual([43200, 43200, 43200, 43200, 43200]);
	});

	it("gives the delay after each of the first five failures and none after the sixth", () => {
		expect([1, 2, 3, 4, 5].map((a) => retryDelaySeconds(a, DEFAULT))).toEqual([60, 300, 1800, 7200, 43200]);
		expect(retryDelaySeconds(6, DEFAULT)).toBeNull();
		expect(retryDelaySeconds(7, DEFAULT)).toBeNull();
		expect(retryDelaySeconds(0, DEFAULT)).toBeNull();
	});

	it("retries failures on schedule, stops on success and gives up after the sixth attempt", () => {
		expect(nextStep("succeeded", 1, DEFAULT)).toEqual({ action: "done" });
		expect(nextStep("succeeded", 6, DEFAULT)).toEqual({ action: "done" });
		expect(nextStep("failed", 1, DEFAULT)).toEqual({ action: "retry", delaySeconds: 60 });
		expect(nextStep("failed", 5, DEFAULT)).toEqual({ action: "retry", delaySeconds: 43200 });
		expect(nextStep("failed", 6, DEFAULT)).toEqual({ action: "give_up" });
		expect(nextStep("failed", 3, [1, 1, 1, 1, 1])).toEqual({ action: "retry", delaySeconds: 1 });
	});

	it("reads WEBHOOK_TIMEOUT_MS and defaults to 10 seconds", () => {
		expect(DEFAULT_TIMEOUT_MS).toBe(10_000);
		expect(parseTimeoutMs(undefined)).toBe(10_000);
		expect(parseTimeoutMs("250")).toBe(250);
		expect(parseTimeoutMs("0")).toBe(10_000);
		expect(parseTimeoutMs("ten")).toBe(10_000);
		expect(parseTimeoutMs("60000")).toBe(10_000);
	});
});
