export interface LocalService {
	baseUrl: string;
	port: number;
	inspectorPort: number;
	pid: number | undefined;
	adminToken: string;
	accountId: string;
	keys: { live: string; test: string; dev: string };
	/** The demo owner `npm start` creates for the dashboard. */
	owner: { email: string; password: string };
	persistTo: string;
	output: () => string;
	stop: () => Promise<void>;
}

export function freePort(): Promise<number>;
export function startService(options?: {
	vars?: Record<string, string>;
	timeoutMs?: number;
}): Promise<LocalService>;
export function call(
	service: LocalService,
	method: string,
	path: string,
	options?: { key?: string; body?: unknown; expect?: number },
): Promise<any>;
