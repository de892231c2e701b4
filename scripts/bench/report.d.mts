// Types of report.mjs for the TypeScript tests.
export interface Slice {
	durationS: number;
	requests: number;
	latencies: number[];
	statuses: Record<string, number>;
	errors: number;
	timeouts: number;
}
export interface LoadResult {
	requests: number;
	durationS: number;
	rps: number;
	p50: number | null;
	p99: number | null;
	mean: number | null;
	errors: number;
	timeouts: number;
	non2xx: number;
	status5xx: number;
	statuses: Record<string, number>;
	/** CPU milliseconds per request of the service's processes, per role (process-cpu.mjs), when read. */
	cpuMsPerRequest?: Record<string, number>;
}
export interface Ratios {
	rps: number | null;
	p50: number | null;
	p99: number | null;
}
export interface CaseResult {
	id: string;
	name: string;
	connections: number;
	result: LoadResult;
	baseline: LoadResult;
	ratio: Ratios;
}
export interface Target {
	id: string;
	target: string;
	value: number | null;
	pass: boolean;
}
export interface LiveRoomResult {
	clients: number;
	interviews: number;
	answers: number;
	perSecond: number;
	p50: number | null;
	p99: number | null;
	errors: number;
	missing: number;
	/** Round trips made before the measured ones, and their failures. */
	warmup?: { answers: number; errors: number };
	baseline: LoadResult;
}
export interface BenchResults {
	cases: CaseResult[];
	baselines?: LoadResult[];
	/** The same round trip over socket.io-client, reported beside the plain WebSocket's. */
	socketio?: LiveRoomResult;
	websocket?: {
		clients: number;
		interviews: number;
		answers: number;
		perSecond: number;
		p50: number | null;
		p99: number | null;
		errors: number;
		missing: number;
		/** Round trips made before the measured ones, and their failures. */
		warmup?: { answers: number; errors: number };
		baseline: LoadResult;
		/** CPU milliseconds per answer of the service's processes, per role, when read. */
		cpuMsPerAnswer?: Record<string, number> | null;
	};
	webhooks?: {
		endpoints: number;
		events: number;
		perSecond: number | null;
		p50: number | null;
		p99: number | null;
		missing: number;
		invalid: number;
		errors: number;
		baseline: LoadResult;
	};
	[key: string]: unknown;
}
export const MARK_START: string;
export const MARK_END: string;
export function ratio(a: unknown, b: unknown): number | null;
export function median(values: number[]): number | null;
export function percentile(samples: number[], p: number): number | null;
export function aggregateSlices(slices: Slice[]): LoadResult;
export function caseRatios(result: LoadResult, baseline: LoadResult): Ratios;
export function evaluateTargets(results: BenchResults): Target[];
export function totalProblems(results: BenchResults): number;
export function tableRows(results: BenchResults): Record<string, string>[];
export function consoleTable(rows: Record<string, string>[]): string;
export function markdownTable(rows: Record<string, string>[]): string;
export function targetsTable(targets: Target[]): string;
export function generatedSection(results: BenchResults): string;
export function spliceGenerated(doc: string, section: string): string;
