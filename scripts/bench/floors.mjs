// The floor of each case's calls (`npm run floors`): which do-nothing calls stand for which case,
// and the pure part of the report (tested in test/scripts/floors.test.ts).
import { aggregateSlices, ratio } from "./report.mjs";

/**
 * The probes, each the calls a bench case makes with a test key, as the development counters
 * count them (docs/capacity.md): `shape` for `GET /__dev/floor/<shape>`
 * (src/platform/lib/floor-probe.ts); `of` the cases it is the floor of.
 */
export const FLOORS = [
	{ id: "floor_a", shape: "a", of: "one object call" },
	{ id: "floor_d", shape: "d", of: "one D1 statement" },
	{ id: "floor_ai", shape: "ai", of: "get" },
	{ id: "floor_a_d", shape: "a-d", of: "list" },
	{ id: "floor_a_b", shape: "a-b", of: "create, patch" },
	{ id: "floor_a_d_b", shape: "a-d-b", of: "delete" },
];

/**
 * Rows of the report: each case's pooled slices against health's (requests per second as a ratio,
 * CPU per request per role), and for a real case the ratio of its floor and how much of the floor
 * it reaches. `slices` maps a case id to its slices (each with `requests`, `durationS`, `statuses`,
 * `latencies`, `errors`, `timeouts` and `cpu`, the CPU per role the slice used).
 */
export function floorRows(slices, floorOf = {}) {
	const pooled = Object.fromEntries(
		Object.entries(slices).map(([id, list]) => {
			const result = aggregateSlices(list);
			// CPU only when every slice of the side was read (a slice without it would count as none).
			const read = list.length > 0 && list.every((slice) => slice.cpu);
			const cpu = {};
			if (read)
				for (const slice of list)
					for (const [role, ms] of Object.entries(slice.cpu)) cpu[role] = (cpu[role] ?? 0) + ms;
			const per = (ms) => (read && result.requests > 0 ? ms / result.requests : null);
			const all = Object.values(cpu).reduce((a, b) => a + b, 0);
			return [id, { ...result, runtimeMs: per(cpu.runtime ?? 0), allMs: per(all) }];
		}),
	);
	const health = pooled.health;
	if (!health) throw new Error("no health slices");
	return Object.entries(pooled).map(([id, r]) => {
		const row = {
			id,
			rps: r.rps,
			ratio: ratio(r.rps, health.rps),
			runtimeMs: r.runtimeMs,
			allMs: r.allMs,
			problems: r.errors + r.timeouts + r.non2xx,
		};
		const floorId = floorOf[id];
		if (floorId && pooled[floorId]) {
			row.floor = floorId;
			row.floorRatio = ratio(pooled[floorId].rps, health.rps);
			row.ofFloor = ratio(r.rps, pooled[floorId].rps);
		}
		return row;
	});
}
