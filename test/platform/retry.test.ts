import { describe, expect, it } from "vitest";
import { retrying } from "../../src/platform/lib/retry";

describe("retrying", () => {
	it("tries again after each delay until it succeeds, and says so", async () => {
		const slept: number[] = [];
		const failures: number[] = [];
		let calls = 0;
		const ok = await retrying(
			async () => {
				calls++;
				if (calls < 3) throw new Error(`fail ${calls}`);
			},
			[10, 20, 30],
			(_error, n) => failures.push(n),
			async (ms) => {
				slept.push(ms);
			},
		);
		expect(ok).toBe(true);
		expect(calls).toBe(3);
		expect(slept).toEqual([10, 20]);
		expect(failures).toEqual([1, 2]);
	});

	it("stops after the last delay and resolves false without rejecting", async () => {
		let calls = 0;
		const ok = await retrying(
			async () => {
				calls++;
				throw new Error("down");
			},
			[1, 2],
			() => undefined,
			async () => undefined,
		);
		expect(ok).toBe(false);
		expect(calls).toBe(3);
	});
});
