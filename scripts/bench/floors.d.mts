// Types of floors.mjs for the TypeScript tests.
import type { Slice } from "./report.mjs";

export interface FloorProbe {
	id: string;
	shape: string;
	of: string;
}
export const FLOORS: FloorProbe[];

export interface FloorSlice extends Slice {
	/** CPU milliseconds the slice used, per role (process-cpu.mjs); null when not read. */
	cpu: Record<string, number> | null;
}
export interface FloorRow {
	id: string;
	rps: number;
	ratio: number | null;
	runtimeMs: number | null;
	allMs: number | null;
	problems: number;
	floor?: string;
	floorRatio?: number | null;
	ofFloor?: number | null;
}
export function floorRows(slices: Record<string, FloorSlice[]>, floorOf?: Record<string, string>): FloorRow[];
