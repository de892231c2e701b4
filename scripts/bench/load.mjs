// One bounded load run with autocannon against the local service, reduced to the numbers the
// report needs. A warm-up run (same requests, results discarded) comes first.
import autocannon from "autocannon";

/**
 * @typedef {{
 *   path: string,
 *   method?: string,
 *   headers?: Record<string, string>,
 *   body?: string,
 *   setupRequest?: (req: any) => any,
 * }} RequestSpec
 * @typedef {{
 *   requests: number, durationS: number, rps: number, p50: number, p99: number, mean: number,
 *   errors: number, timeouts: number, non2xx: number, status5xx: number,
 *   statuses: Record<string, number>
 * }} LoadResult
 */

function runOnce(baseUrl, spec, { connections, durationS, maxRequests, timeoutS }) {
	return new Promise((resolve, reject) => {
		const request = {
			method: spec.method ?? "GET",
			path: spec.path,
			headers: spec.headers ?? {},
			...(spec.body === undefined ? {} : { body: spec.body }),
			...(spec.setupRequest ? { setupRequest: spec.setupRequest } : {}),
		};
		autocannon(
			{
				url: baseUrl,
				connections,
				duration: durationS,
				timeout: timeoutS,
				...(maxRequests === undefined ? {} : { maxOverallRequests: maxRequests }),
				requests: [request],
			},
			(error, result) => (error ? reject(error) : resolve(result)),
		);
	});
}

/** @returns {LoadResult} */
export function summarize(result) {
	const statuses = {};
	for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = count;
	const requests = result.requests.total;
	const durationS = result.duration;
	return {
		requests,
		durationS,
		rps: durationS > 0 ? requests / durationS : 0,
		p50: result.latency.p50,
		p99: result.latency.p99,
		mean: result.latency.mean,
		errors: result.errors,
		timeouts: result.timeouts,
		non2xx: result.non2xx,
		status5xx: result["5xx"] ?? 0,
		statuses,
	};
}

/**
 * Warm-up (discarded), then the measured run.
 * @param {string} baseUrl
 * @param {RequestSpec} spec
 * @param {{connections: number, durationS: number, warmupS: number, maxRequests?: number,
 *   warmupMaxRequests?: number, timeoutS?: number}} options
 * @returns {Promise<LoadResult>}
 */
export async function measure(baseUrl, spec, options) {
	const timeoutS = options.timeoutS ?? 30;
	if (options.warmupS > 0) {
		await runOnce(baseUrl, spec, {
			connections: options.connections,
			durationS: options.warmupS,
			maxRequests: options.warmupMaxRequests,
			timeoutS,
		});
	}
	const result = await runOnce(baseUrl, spec, {
		connections: options.connections,
		durationS: options.durationS,
		maxRequests: options.maxRequests,
		timeoutS,
	});
	return summarize(result);
}
