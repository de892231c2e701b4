import { describe, expect, it } from "vitest";
import {
	DEFAULT_EMAIL_RETRY_DELAYS,
	maxAttempts,
	nextRetry,
	parseRetryDelays,
} from "../../src/email/backoff";

describe("e-mail retry backoff", () => {
	it("waits longer after each failed attempt and gives up after the sixth", () => {
		const delays = DEFAULT_EMAIL_RETRY_DELAYS;
		expect(maxAttempts(delays)).toBe(6);
		expect([1, 2, 3, 4, 5].map((attempt) => nextRetry(attempt, delays))).toEqual([
			{ retry: true, delaySeconds: 30 },
			{ retry: true, delaySeconds: 120 },
			{ retry: true, delaySeconds: 600 },
			{ retry: true, delaySeconds: 1800 },
			{ retry: true, delaySeconds: 7200 },
		]);
		expect(nextRetry(6, delays)).toEqual({ retry: false });
		expect(nextRetry(9, delays)).toEqual({ retry: false });
	});

	it("stays within the queue's attempts so the consumer, not the dead-letter queue, marks the failure", () => {
		// wrangler.toml: max_retries = 5 for interview-emails, i.e. 6 deliveries.
		expect(maxAttempts(DEFAULT_EMAIL_RETRY_DELAYS)).toBeLessThanOrEqual(6);
	});

	it("reads EMAIL_RETRY_DELAYS and falls back to the default on anything unusable", () => {
		expect(parseRetryDelays("5, 10")).toEqual([5, 10]);
		expect(nextRetry(1, parseRetryDelays("5,10"))).toEqual({ retry: true, delaySeconds: 5 });
		expect(nextRetry(3, parseRetryDelays("5,10"))).toEqual({ retry: false });
		expect(parseRetryDelays(undefined)).toBe(DEFAULT_EMAIL_RETRY_DELAYS);
		expect(parseRetryDelays("")).toBe(DEFAULT_EMAIL_RETRY_DELAYS);
		expect(parseRetryDelays("10,abc")).toBe(DEFAULT_EMAIL_RETRY_DELAYS);
		expect(parseRetryDelays("-1")).toBe(DEFAULT_EMAIL_RETRY_DELAYS);
		expect(parseRetryDelays("50000")).toBe(DEFAULT_EMAIL_RETRY_DELAYS);
		// Longer than the housekeeping's stale age, or more retries than the queue allows: refused.
		expect(parseRetryDelays("7200")).toEqual([7200]);
		expect(parseRetryDelays("7201")).toBe(DEFAULT_EMAIL_RETRY_DELAYS);
		expect(parseRetryDelays("1,2,3,4,5")).toEqual([1, 2, 3, 4, 5]);
		expect(parseRetryDelays("1,2,3,4,5,6")).toBe(DEFAULT_EMAIL_RETRY_DELAYS);
	});
});
