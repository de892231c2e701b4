import { describe, expect, it } from "vitest";
import { retryDelay } from "../../../src/interviews/object/outbox-engine";

describe("the interview outbox's retry backoff", () => {
	it("waits 1 s, 5 s, 30 s and 2 min after the first failures, then every 10 min", () => {
		expect([0, 1, 2, 3, 4, 5, 50].map(retryDelay)).toEqual([
			1_000, 5_000, 30_000, 120_000, 600_000, 600_000, 600_000,
		]);
	});
});
