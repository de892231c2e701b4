// The real local service (`npm start`'s script) on free ports with its own state folder, so every
// end-to-end file begins from a blank state; the starter is shared with the benchmark.
import { freePort, type LocalService, startService } from "../../scripts/local-service.mjs";

export type Service = LocalService;
export { freePort, startService };

export async function api<T = any>(
	service: Service,
	method: string,
	path: string,
	options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: any & T }> {
	const headers: Record<string, string> = { ...options.headers };
	if (options.key) headers.Authorization = `Bearer ${options.key}`;
	if (options.body !== undefined) headers["Content-Type"] = "application/json";
	const response = await fetch(`${service.baseUrl}${path}`, {
		method,
		headers,
		body: options.body === undefined ? undefined : JSON.stringify(options.body),
		signal: AbortSignal.timeout(30_000),
	});
	return { status: response.status, headers: response.headers, body: await response.json() };
}
