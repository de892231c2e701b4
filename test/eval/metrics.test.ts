import { describe, expect, it } from "vitest";
import { mean, ranks, spearman } from "../../eval/metrics";

describe("evaluation statistics", () => {
	it("ranks with ties sharing their average position", () => {
		expect(ranks([10, 30, 20, 20])).toEqual([1, 4, 2.5, 2.5]);
	});

	it("gives Spearman 1 for a monotone relation, -1 for a reversed one, NaN for a constant side", () => {
		expect(spearman([1, 2, 3, 4], [5, 50, 60, 1000])).toBeCloseTo(1, 10);
		expect(spearman([1, 2, 3, 4], [9, 7, 3, 1])).toBeCloseTo(-1, 10);
		expect(spearman([1, 2, 3], [4, 4, 4])).toBeNaN();
		expect(spearman([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(0.8, 10);
	});

	it("means an empty list as NaN", () => {
		expect(mean([])).toBeNaN();
		expect(mean([1, 2, 6])).toBe(3);
	});
});
