import { describe, expect, it } from "vitest";
import {
	addCpu,
	cpuPer,
	IDLE_PROBE_MS,
	IDLE_WAIT_MAX_MS,
	roleOf,
	runtimeIdle,
	waitForIdleRuntime,
} from "../../scripts/bench/process-cpu.mjs";
import {
	aggregateSlices,
	type BenchResults,
	caseRatios,
	consoleTable,
	evaluateTargets,
	generatedSection,
	type LoadResult,
	MARK_END,
	MARK_START,
	percentile,
	ratio,
	spliceGenerated,
	tableRows,
} from "../../scripts/bench/report.mjs";

const load = (over: Partial<LoadResult> = {}): LoadResult => ({
	requests: 1000,
	durationS: 10,
	rps: 100,
	p50: 10,
	p99: 40,
	mean: 12,
	errors: 0,
	timeouts: 0,
	non2xx: 0,
	status5xx: 0,
	statuses: { "200": 1000 },
	...over,
});

const entry = (id: string, result: LoadResult, baseline = load()) => ({
	id,
	name: id,
	connections: 10,
	result,
	baseline,
	ratio: caseRatios(result, baseline),
});

function results(over: Partial<Record<string, LoadResult>> = {}): BenchResults {
	return {
		cases: [
			entry("health", load()),
			entry("get", over.get ?? load({ rps: 85, p99: 80 })),
			entry("post", over.post ?? load({ rps: 60 })),
			entry("post_1", load({ p50: 30 })),
			entry("bulk", over.bulk ?? load({ p50: 150 })),
			entry("list_10k", over.list_10k ?? load({ rps: 60, p50: 20 })),
			entry("list_100k", over.list_100k ?? load({ rps: 60, p50: 26 })),
			entry("patch", over.patch ?? load({ rps: 50 })),
			entry("delete", over.delete ?? load({ rps: 40, p50: 30 })),
			entry("dash_list", over.dash_list ?? load({ rps: 50 })),
			entry("dash_results", over.dash_results ?? load({ rps: 50 })),
		],
		baselines: [],
		websocket: {
			clients: 10,
			interviews: 30,
			answers: 300,
			perSecond: 50,
			p50: 6,
			p99: 30,
			errors: 0,
			missing: 0,
			baseline: load(),
		},
		socketio: {
			clients: 10,
			interviews: 30,
			answers: 300,
			perSecond: 40,
			p50: 9,
			p99: 40,
			errors: 0,
			missing: 0,
			baseline: load(),
		},
		webhooks: {
			endpoints: 10,
			events: 200,
			perSecond: 50,
			p50: 500,
			p99: 900,
			missing: 0,
			invalid: 0,
			errors: 0,
			baseline: load(),
		},
	};
}

describe("the bench's arithmetic", () => {
	it("divides only real numbers and never by zero", () => {
		expect(ratio(3, 4)).toBe(0.75);
		expect(ratio(3, 0)).toBeNull();
		expect(ratio(null, 4)).toBeNull();
		expect(ratio(Number.NaN, 4)).toBeNull();
	});

	it("takes percentiles by nearest rank", () => {
		const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
		expect(percentile(samples, 50)).toBe(50);
		expect(percentile(samples, 99)).toBe(99);
		expect(percentile([7], 99)).toBe(7);
		expect(percentile([], 50)).toBeNull();
	});

	it("pools slices: counts add up, rates use measured seconds, timeouts are not counted twice", () => {
		const pooled = aggregateSlices([
			{
				durationS: 2,
				requests: 3,
				latencies: [1, 2, 3],
				statuses: { "200": 2, "503": 1 },
				errors: 1,
				timeouts: 1,
			},
			{
				durationS: 2,
				requests: 2,
				latencies: [4, 5],
				statuses: { "200": 1, "404": 1 },
				errors: 0,
				timeouts: 0,
			},
		]);
		expect(pooled).toMatchObject({
			requests: 5,
			durationS: 4,
			rps: 1.25,
			p50: 3,
			p99: 5,
			mean: 3,
			errors: 0,
			timeouts: 1,
			non2xx: 2,
			status5xx: 1,
			statuses: { "200": 3, "503": 1, "404": 1 },
		});
	});
});

describe("the benchmark's targets", () => {
	it("are met exactly at their bounds", () => {
		const targets = evaluateTargets(results());
		expect(targets.map((t) => [t.id, t.pass])).toEqual([
			["get_rps", true],
			["get_p99", true],
			["post_rps", true],
			["list_10k_rps", true],
			["list_100k_rps", true],
			["list_growth", true],
			["patch_rps", true],
			["delete_rps", true],
			["delete_p50", true],
			["bulk_latency", true],
			["ws_p50", true],
			["socketio_p50", true],
			["webhooks_rate", true],
			["dash_list_rps", true],
			["dash_results_rps", true],
			["no_errors", true],
		]);
	});

	it("fail just past their bounds, and on any error or 5xx", () => {
		const targets = evaluateTargets(
			results({
				get: load({ rps: 84, p99: 81 }),
				post: load({ rps: 59 }),
				bulk: load({ p50: 151 }),
				list_10k: load({ rps: 59, p50: 20 }),
				list_100k: load({ rps: 60, p50: 26.1, status5xx: 1 }),
				patch: load({ rps: 49 }),
				delete: load({ rps: 39, p50: 31 }),
				dash_list: load({ rps: 49 }),
				dash_results: load({ rps: 49 }),
			}),
		);
		expect(targets.filter((t) => !t.pass).map((t) => t.id)).toEqual([
			"get_rps",
			"get_p99",
			"post_rps",
			"list_10k_rps",
			"list_growth",
			"patch_rps",
			"delete_rps",
			"delete_p50",
			"bulk_latency",
			"dash_list_rps",
			"dash_results_rps",
			"no_errors",
		]);
	});

	it("hold the live room and webhooks to their bounds too", () => {
		const run = results();
		if (!run.websocket || !run.socketio || !run.webhooks) throw new Error("the fixture has every run");
		run.websocket.p50 = 6.1;
		run.socketio.p50 = 9.2;
		run.webhooks.perSecond = 49;
		const failed = evaluateTargets(run).filter((t) => !t.pass);
		expect(failed.map((t) => t.id)).toEqual(["ws_p50", "socketio_p50", "webhooks_rate"]);
	});

	it("count a failed WebSocket round trip of the warm-up as an error", () => {
		const run = results();
		if (!run.websocket) throw new Error("the fixture has a WebSocket run");
		run.websocket.warmup = { answers: 100, errors: 0 };
		expect(evaluateTargets(run).find((t) => t.id === "no_errors")?.pass).toBe(true);
		run.websocket.warmup = { answers: 99, errors: 1 };
		expect(evaluateTargets(run).find((t) => t.id === "no_errors")).toMatchObject({ value: 1, pass: false });
	});

	it("fail when a case did not run", () => {
		const partial = results();
		partial.cases = partial.cases.filter((c) => c.id !== "list_100k");
		delete partial.websocket;
		const failed = evaluateTargets(partial).filter((t) => !t.pass);
		expect(failed.map((t) => t.id)).toEqual(["list_100k_rps", "list_growth", "ws_p50", "socketio_p50"]);
	});
});

describe("the bench's report", () => {
	it("prints one row per case plus the WebSocket and webhook rows", () => {
		const rows = tableRows(results());
		expect(rows).toHaveLength(14);
		expect(rows[1]).toMatchObject({ rps: "85", vsRps: "0.85x", vsP99: "2.00x" });
		const table = consoleTable(rows).split("\n");
		expect(table).toHaveLength(16);
		expect(new Set(table.map((line) => line.length)).size).toBe(1);
	});

	it("reports the Socket.IO round trip beside the WebSocket's, as a ratio of its p50, and counts its errors", () => {
		const run = results();
		run.socketio = {
			clients: 10,
			interviews: 30,
			answers: 300,
			perSecond: 40,
			p50: 15,
			p99: 45,
			errors: 1,
			missing: 0,
			baseline: load(),
		};
		const rows = tableRows(run);
		expect(rows).toHaveLength(14);
		expect(rows[12]).toMatchObject({ p50: "15.0", vsP50: "1.50x", errors: "1" });
		expect(rows[12]?.name).toContain("p50 2.50x the WebSocket's");
		expect(evaluateTargets(run).find((t) => t.id === "no_errors")?.value).toBe(1);
	});

	it("gives each case's CPU per request, of the Worker's runtime and of all processes, and '-' where none was read", () => {
		const run = results();
		const [health, get] = run.cases;
		if (!health || !get || !run.websocket) throw new Error("fixture");
		get.result = {
			...get.result,
			cpuMsPerRequest: { runtime: 3.734, proxy: 3.01, wrangler: 0.74, other: 0.2 },
		};
		run.websocket.cpuMsPerAnswer = { runtime: 4.5, proxy: 0.1, wrangler: 0.05, other: 0 };
		const rows = tableRows(run);
		expect(rows[1]).toMatchObject({ cpuRuntime: "3.73", cpuAll: "7.68" });
		expect(rows[0]).toMatchObject({ cpuRuntime: "-", cpuAll: "-" });
		const ws = rows.find((r) => String(r.name).startsWith("WebSocket"));
		expect(ws).toMatchObject({ cpuRuntime: "4.50", cpuAll: "4.65" });
		expect(consoleTable(rows).split("\n")[0]).toContain("runtime CPU ms");
	});

	it("tells the Worker's runtime from wrangler's proxy runtime and Node process, and divides CPU by the work", () => {
		expect(
			roleOf(
				"/x/workerd serve --binary --experimental --socket-addr=entry=127.0.0.1:0 - --inspector-addr=127.0.0.1:0",
			),
		).toBe("runtime");
		expect(roleOf("/x/workerd serve --binary --experimental --socket-addr=entry=127.0.0.1:8787 -")).toBe(
			"proxy",
		);
		expect(roleOf("/x/node --no-warnings /x/wrangler/wrangler-dist/cli.js dev --local")).toBe("wrangler");
		expect(roleOf("/x/node scripts/start.mjs")).toBe("other");
		const a = { runtime: 100, proxy: 50, wrangler: 20, other: 10 };
		const b = { runtime: 400, proxy: 150, wrangler: 60, other: 10 };
		expect(cpuPer(a, b, 100)).toEqual({ runtime: 3, proxy: 1, wrangler: 0.4, other: 0 });
		expect(cpuPer(null, b, 100)).toBeNull();
		expect(cpuPer(a, b, 0)).toBeNull();
		const total = addCpu(addCpu(undefined, a, b), a, b);
		expect(total).toEqual({ runtime: 600, proxy: 200, wrangler: 80, other: 0 });
		expect(addCpu(addCpu(undefined, a, null), a, b)).toBeNull();
	});

	it("starts a case once the Worker's runtime is idle, and not later than the wait's bound", async () => {
		const at = (runtime: number) => ({ runtime, proxy: 0, wrangler: 0, other: 0 });
		// 10 % of one core over a probe is the line: 49 ms of 500 is idle, 50 ms is not.
		expect(runtimeIdle(at(0), at(49), IDLE_PROBE_MS)).toBe(true);
		expect(runtimeIdle(at(0), at(50), IDLE_PROBE_MS)).toBe(false);
		expect(runtimeIdle(null, at(400), IDLE_PROBE_MS)).toBe(true);
		// Busy for three probes (400 ms of each 500), then idle: four probes, 2 s.
		let runtime = 0;
		let clock = 0;
		let probes = 0;
		const busy = [400, 400, 400, 10];
		const sleep = async (ms: number) => {
			runtime += busy[probes++] ?? 0;
			clock += ms;
		};
		expect(await waitForIdleRuntime(() => at(runtime), { sleep, now: () => clock })).toBe(4 * IDLE_PROBE_MS);
		expect(probes).toBe(4);
		// Never idle: it gives up at the bound.
		probes = 0;
		clock = 0;
		const alwaysBusy = async (ms: number) => {
			probes++;
			runtime += 400;
			clock += ms;
		};
		expect(await waitForIdleRuntime(() => at(runtime), { sleep: alwaysBusy, now: () => clock })).toBe(
			IDLE_WAIT_MAX_MS,
		);
		expect(probes).toBe(IDLE_WAIT_MAX_MS / IDLE_PROBE_MS);
	});

	it("replaces only the generated section of the document, or appends it", () => {
		const doc = `# Performance\n\nkept\n\n${MARK_START}\nold\n${MARK_END}\n\n## After\n`;
		const next = spliceGenerated(doc, `${MARK_START}\nnew\n${MARK_END}`);
		expect(next).toBe(`# Performance\n\nkept\n\n${MARK_START}\nnew\n${MARK_END}\n\n## After\n`);
		expect(spliceGenerated("# Performance\n", "S")).toBe("# Performance\n\nS\n");
	});
});

describe("the generated section", () => {
	it("names the bundle file the dry run wrote, with its sizes", () => {
		const section = generatedSection({
			cases: [],
			targets: [],
			generatedAt: "2026-01-01T00:00:00.000Z",
			elapsedS: 300,
			settings: { warmupS: 3, slices: 5, durationS: 10, connections: 10 },
			machine: { cpus: 2, cpuModel: "test", loadBefore: "0 / 0 / 0", node: "22", wrangler: "4" },
			bundle: { file: "worker.js", bytes: 2_809_966, gzipBytes: 637_920 },
		} as BenchResults);
		expect(section).toContain("`worker.js` 2,809,966 bytes, 637,920 bytes gzipped.");
		expect(section.startsWith(MARK_START)).toBe(true);
		expect(section.trimEnd().endsWith(MARK_END)).toBe(true);
	});
});
