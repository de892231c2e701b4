import { describe, expect, it } from "vitest";
import { FLOORS, floorRows } from "../../scripts/bench/floors.mjs";
import { parseFloorShape } from "../../src/platform/lib/floor-probe";

const slice = (
	requests: number,
	durationS: number,
	runtime: number,
	proxy = 0,
	statuses: Record<string, number> = { 200: requests },
) => ({
	requests,
	durationS,
	statuses,
	latencies: [1, 2, 3],
	errors: 0,
	timeouts: 0,
	cpu: { runtime, proxy },
});

describe("the floors report", () => {
	it("gives each case's requests a second against health's, its CPU per request, and its floor's", () => {
		const rows = floorRows(
			{
				health: [slice(400, 2, 600, 600), slice(400, 2, 600, 600)],
				floor_ai: [slice(360, 2, 720), slice(360, 2, 720)],
				get: [slice(300, 2, 750), slice(300, 2, 750)],
			},
			{ get: "floor_ai" },
		);
		const row = (id: string) => {
			const found = rows.find((r) => r.id === id);
			if (!found) throw new Error(`no row ${id}`);
			return found;
		};
		const by = { health: row("health"), floor_ai: row("floor_ai"), get: row("get") };
		expect(by.health.ratio).toBe(1);
		expect(by.health.runtimeMs).toBeCloseTo(1.5);
		expect(by.health.allMs).toBeCloseTo(3);
		expect(by.floor_ai.ratio).toBeCloseTo(0.9);
		expect(by.floor_ai.floor).toBeUndefined();
		expect(by.get.ratio).toBeCloseTo(0.75);
		expect(by.get.runtimeMs).toBeCloseTo(2.5);
		expect(by.get.floor).toBe("floor_ai");
		expect(by.get.floorRatio).toBeCloseTo(0.9);
		expect(by.get.ofFloor).toBeCloseTo(300 / 360);
		expect(rows.every((r) => r.problems === 0)).toBe(true);
	});

	it("counts a slice's non-2xx answers as problems, and needs health's slices", () => {
		const rows = floorRows({
			health: [slice(100, 1, 10)],
			list: [slice(100, 1, 10, 0, { 200: 97, 500: 3 })],
		});
		expect(rows.find((r) => r.id === "list")?.problems).toBe(3);
		expect(() => floorRows({ list: [slice(1, 1, 1)] })).toThrow(/health/);
	});

	it("gives no CPU for a side whose CPU was not read in every slice, instead of zero", () => {
		const rows = floorRows({
			health: [slice(100, 1, 10)],
			get: [{ ...slice(100, 1, 10), cpu: null }, slice(100, 1, 10)],
		});
		const get = rows.find((r) => r.id === "get");
		expect(get?.runtimeMs).toBeNull();
		expect(get?.allMs).toBeNull();
		expect(get?.ratio).toBeCloseTo(1);
	});

	it("names only shapes the probe takes", () => {
		for (const floor of FLOORS) expect(parseFloorShape(floor.shape), floor.shape).not.toBeNull();
	});
});
