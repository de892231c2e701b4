// Bounded load runs with autocannon against the local service. A case is measured in slices that
// alternate with slices of the baseline (health) at the same number of connections, so both see
// the same background load of a shared machine; each side's slices are then pooled.
import autocannon from "autocannon";
import { addCpu } from "./process-cpu.mjs";
import { aggregateSlices } from "./report.mjs";

/**
 * @typedef {{
 *   path: string,
 *   method?: string,
 *   headers?: Record<string, string>,
 *   body?: string,
 *   setupRequest?: (req: any) => any,
 * }} RequestSpec
 */

/** One autocannon run; every response's latency is kept (not only the 2xx ones). */
export function runSlice(baseUrl, spec, { connections, durationS, maxRequests, timeoutS = 30 }) {
	return new Promise((resolve, reject) => {
		const latencies = [];
		const request = {
			method: spec.method ?? "GET",
			path: spec.path,
			headers: spec.headers ?? {},
			...(spec.body === undefined ? {} : { body: spec.body }),
			...(spec.setupRequest ? { setupRequest: spec.setupRequest } : {}),
		};
		const instance = autocannon(
			{
				url: baseUrl,
				connections,
				duration: durationS,
				timeout: timeoutS,
				...(maxRequests === undefined ? {} : { maxOverallRequests: maxRequests }),
				requests: [request],
			},
			(error, result) => {
				if (error) return reject(error);
				const statuses = {};
				for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = count;
				resolve({
					durationS: result.duration,
					requests: result.requests.total,
					latencies,
					statuses,
					errors: result.errors,
					timeouts: result.timeouts,
				});
			},
		);
		instance.on("response", (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
	});
}

/**
 * Warm-up of the case, then `slices` rounds alternating baseline and case (ABBA order).
 * @param {string} baseUrl
 * @param {RequestSpec} spec
 * @param {RequestSpec | null} baselineSpec  null: the case is the baseline itself
 * @param {{connections: number, durationS: number, warmupS: number, slices: number,
 *   maxRequests?: number, warmupMaxRequests?: number, timeoutS?: number, budget?: () => number,
 *   cpu?: () => Record<string, number> | null}} options
 *   `budget` (optional) says how many more requests the case may make (a pool of fresh ids);
 *   `cpu` (optional) reads the service's CPU time per role (process-cpu.mjs), read around every
 *   slice, so each side gets its CPU per request.
 */
export async function measurePaired(baseUrl, spec, baselineSpec, options) {
	const { connections, durationS, warmupS, slices, timeoutS } = options;
	const sliceS = durationS / slices;
	const budget = options.budget ?? (() => Number.POSITIVE_INFINITY);
	const cap = (n) => {
		const left = budget();
		return Number.isFinite(left) ? Math.max(0, Math.min(left, n ?? left)) : n;
	};
	if (warmupS > 0) {
		const max = cap(options.warmupMaxRequests);
		if (max === undefined || max > 0)
			await runSlice(baseUrl, spec, { connections, durationS: warmupS, maxRequests: max, timeoutS });
	}
	const caseSlices = [];
	const baseSlices = [];
	const cpu = { case: undefined, base: undefined };
	const measured = async (side, run) => {
		const before = options.cpu?.();
		const slice = await run();
		if (options.cpu) cpu[side] = addCpu(cpu[side], before, options.cpu());
		return slice;
	};
	for (let i = 0; i < slices; i++) {
		const runBase = async () => {
			if (baselineSpec)
				baseSlices.push(
					await measured("base", () =>
						runSlice(baseUrl, baselineSpec, { connections, durationS: sliceS, timeoutS }),
					),
				);
		};
		const runCase = async () => {
			const max = cap(undefined);
			if (max !== undefined && max <= 0) return;
			caseSlices.push(
				await measured("case", () =>
					runSlice(baseUrl, spec, { connections, durationS: sliceS, maxRequests: max, timeoutS }),
				),
			);
		};
		if (i % 2 === 0) {
			await runBase();
			await runCase();
		} else {
			await runCase();
			await runBase();
		}
	}
	const result = withCpu(aggregateSlices(caseSlices), cpu.case);
	return { result, baseline: baselineSpec ? withCpu(aggregateSlices(baseSlices), cpu.base) : result };
}

/** The side's CPU per request (milliseconds per role), when it was read. */
function withCpu(result, total) {
	if (!total || result.requests === 0) return result;
	return {
		...result,
		cpuMsPerRequest: Object.fromEntries(
			Object.entries(total).map(([role, ms]) => [role, ms / result.requests]),
		),
	};
}
