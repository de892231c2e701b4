import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Context } from "hono";
import { getDb } from "../platform/db/client";
import { apiKeys } from "../platform/db/schema";
import type { AppBindings } from "../platform/http/context";
import { logLine, requestFields } from "../platform/http/logging";
import { errorText } from "../platform/lib/error-text";

/**
 * A key's `last_used_at` is written at most once per key per this window by an isolate (and the
 * write itself changes nothing when another isolate wrote within it): "last used" is coarse, to
 * within five minutes, and the API's hot path does not write D1 on every request.
 */
export const LAST_USED_WINDOW_MS = 5 * 60_000;

/** Per isolate: when each key's last use was last written (or is being written). */
export class KeyUseThrottle {
	private readonly written = new Map<string, number>();

	constructor(
		private readonly windowMs = LAST_USED_WINDOW_MS,
		private readonly maxEntries = 10_000,
	) {}

	/** True when the key's use at `now` is to be written: its last write is a window old, or none. */
	shouldWrite(keyId: string, now: number): boolean {
		const last = this.written.get(keyId);
		if (last !== undefined && now - last < this.windowMs) return false;
		this.written.delete(keyId);
		while (this.written.size >= this.maxEntries) {
			const oldest = this.written.keys().next();
			if (oldest.done) break;
			this.written.delete(oldest.value);
		}
		this.written.set(keyId, now);
		return true;
	}
}

export const keyUseThrottle = new KeyUseThrottle();

/**
 * Notes that the key `keyId` was used at `now`: when the throttle allows, one conditional
 * `UPDATE` of `api_keys.last_used_at`, after the response (`waitUntil`), so no answer waits for it.
 */
export function recordKeyUse(c: Context<AppBindings>, keyId: string, now: number): void {
	if (!keyUseThrottle.shouldWrite(keyId, now)) return;
	const write = getDb(c.env.DB)
		.update(apiKeys)
		.set({ lastUsedAt: now })
		.where(
			and(
				eq(apiKeys.id, keyId),
				or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, now - LAST_USED_WINDOW_MS)),
			),
		)
		.run()
		.then(
			() => undefined,
			(error: unknown) =>
				logLine("warn", {
					message: "key last use not recorded",
					...requestFields(c),
					error: errorText(error),
				}),
		);
	try {
		c.executionCtx.waitUntil(write);
	} catch {
		// No execution context (a direct call of the app): the write runs on its own.
	}
}
