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
	/** SIGKILL to the service's process group; its folder and state stay for a restart. */
	kill: () => Promise<void>;
	dir: string;
}

export function freePort(): Promise<number>;
export function startService(options?: {
	vars?: Record<string, string>;
	/** Environment of `npm start` (CRON_INTERVAL_S, ...). */
	env?: Record<string, string>;
	timeoutMs?: number;
	/** Stop the service, then exit with 130 or 143, on SIGINT or SIGTERM (the scripts a person runs). */
	stopOnSignal?: boolean;
	/** Start again on a killed service's folder, state, port and keys. */
	restart?: Pick<LocalService, "dir" | "port" | "adminToken" | "accountId" | "keys">;
}): Promise<LocalService>;
/**
 * One request to the service: the response's parsed JSON body (null if it has none), or an error
 * when its status is not one of `expect` (200 and 201 unless given).
 */
export function call(
	service: LocalService,
	method: string,
	path: string,
	options?: { key?: string; body?: unknown; expect?: number[] },
): Promise<unknown>;
