// Types of lib.mjs for the TypeScript tests: what they use of it.
/** Resolves once `GET /api/v1/health/` answers 2xx; throws when `isAlive` says no or the time is up. */
export function waitForHealth(
	baseUrl: string,
	options?: { timeoutMs?: number; isAlive?: () => boolean },
): Promise<void>;
