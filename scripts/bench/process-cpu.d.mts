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
