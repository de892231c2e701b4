export const ROLES: readonly ["runtime", "proxy", "wrangler", "other"];
export type CpuReading = Record<(typeof ROLES)[number], number>;
export function roleOf(command: string): (typeof ROLES)[number];
export function serviceCpu(rootPid: number): CpuReading | null;
export function cpuPer(before: CpuReading | null, after: CpuReading | null, count: number): CpuReading | null;
export function addCpu(
	total: CpuReading | null | undefined,
	before: CpuReading | null | undefined,
	after: CpuReading | null | undefined,
): CpuReading | null;
export const IDLE_PROBE_MS: number;
export const IDLE_SHARE: number;
export const IDLE_WAIT_MAX_MS: number;
export function runtimeIdle(before: CpuReading | null, after: CpuReading | null, elapsedMs: number): boolean;
export function waitForIdleRuntime(
	read: () => CpuReading | null,
	clock?: { sleep?: (ms: number) => Promise<void>; now?: () => number },
): Promise<number>;
