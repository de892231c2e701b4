// CPU time of the local service's processes, read from /proc (Linux only): the Worker's runtime
// (the workerd that runs the Worker, both Durable Objects and the local D1 on one thread),
// wrangler's proxy runtime (the other workerd, which takes the HTTP requests), wrangler's Node
// process and the rest (the start script, esbuild). Elsewhere every reading is null.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

export const ROLES = ["runtime", "proxy", "wrangler", "other"];

let ticksPerSecond = null;
function clockTicks() {
	if (ticksPerSecond === null) {
		try {
			ticksPerSecond = Number(
				execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8", timeout: 5_000 }).trim(),
			);
		} catch {
			ticksPerSecond = 100;
		}
		if (!Number.isFinite(ticksPerSecond) || ticksPerSecond <= 0) ticksPerSecond = 100;
	}
	return ticksPerSecond;
}

/** A process's role by its command line. */
export function roleOf(command) {
	if (command.includes("workerd")) return command.includes("--inspector-addr") ? "runtime" : "proxy";
	if (command.includes("wrangler-dist")) return "wrangler";
	return "other";
}

function processes() {
	const out = [];
	for (const name of readdirSync("/proc")) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const stat = readFileSync(`/proc/${name}/stat`, "utf8");
			// Fields after the command name in parentheses: state, ppid, ..., utime (14th), stime (15th).
			const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
			out.push({
				pid: Number(name),
				ppid: Number(fields[1]),
				ticks: Number(fields[11]) + Number(fields[12]),
				command: readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " "),
			});
		} catch {
			// gone meanwhile
		}
	}
	return out;
}

/**
 * Milliseconds of CPU used so far by `rootPid` and its descendants, per role; null where /proc
 * cannot be read. Processes that ended are not counted (the service's processes live for the run).
 */
export function serviceCpu(rootPid) {
	let all;
	try {
		all = processes();
	} catch {
		return null;
	}
	const tree = new Set([rootPid]);
	for (let grew = true; grew; ) {
		grew = false;
		for (const p of all) {
			if (tree.has(p.ppid) && !tree.has(p.pid)) {
				tree.add(p.pid);
				grew = true;
			}
		}
	}
	const ms = Object.fromEntries(ROLES.map((role) => [role, 0]));
	const perTick = 1000 / clockTicks();
	for (const p of all) if (tree.has(p.pid)) ms[roleOf(p.command)] += p.ticks * perTick;
	return ms;
}

/** The CPU between two readings, per request (or per unit of work): null if either is missing. */
export function cpuPer(before, after, count) {
	if (!before || !after || !(count > 0)) return null;
	return Object.fromEntries(ROLES.map((role) => [role, (after[role] - before[role]) / count]));
}

/**
 * Adds `after - before` to a running total per role (start with undefined); a missing reading
 * makes the total null for good.
 */
export function addCpu(total, before, after) {
	if (total === null || !before || !after) return null;
	const sum = total ?? Object.fromEntries(ROLES.map((role) => [role, 0]));
	for (const role of ROLES) sum[role] += after[role] - before[role];
	return sum;
}

/** Readings this far apart judge whether the runtime is idle. */
export const IDLE_PROBE_MS = 500;
/** The runtime counts as idle below this share of one core over a probe (10 %). */
export const IDLE_SHARE = 0.1;
/** The longest wait for an idle runtime before a case starts anyway. */
export const IDLE_WAIT_MAX_MS = 20_000;

/**
 * Whether the Worker's runtime was idle between two readings `elapsedMs` apart: it used less
 * than `IDLE_SHARE` of one core. Without readings nothing can be judged, which counts as idle.
 */
export function runtimeIdle(before, after, elapsedMs) {
	if (!before || !after || !(elapsedMs > 0)) return true;
	return (after.runtime - before.runtime) / elapsedMs < IDLE_SHARE;
}

/**
 * Waits until the Worker's runtime is idle (the work a case left behind, such as queued
 * deliveries or the room's analysis, has finished), at most `IDLE_WAIT_MAX_MS`; returns how long
 * it waited. Work left running would otherwise be counted against the next case.
 */
export async function waitForIdleRuntime(
	read,
	{ sleep = (ms) => new Promise((r) => setTimeout(r, ms)), now = Date.now } = {},
) {
	const started = now();
	while (now() - started < IDLE_WAIT_MAX_MS) {
		const before = read();
		const at = now();
		await sleep(IDLE_PROBE_MS);
		if (runtimeIdle(before, read(), now() - at)) break;
	}
	return now() - started;
}
