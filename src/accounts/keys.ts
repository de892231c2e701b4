import { sha256Hex } from "../platform/lib/crypto";
import { randomBase62 } from "../platform/lib/random";

export const KEY_ENVIRONMENTS = ["live", "test", "dev"] as const;
export type KeyEnvironment = (typeof KEY_ENVIRONMENTS)[number];

/** Where an interview's data lives: live and test keys share production, dev keys have a sandbox. */
export type DataEnvironment = "production" | "dev";

const KEY_PATTERN = /^svc_(live|test|dev)_[0-9A-Za-z]{32}$/;

export function generateApiKey(environment: KeyEnvironment): string {
	return `svc_${environment}_${randomBase62(32)}`;
}

export function parseApiKey(value: string): { environment: KeyEnvironment } | null {
	const match = KEY_PATTERN.exec(value);
	return match ? { environment: match[1] as KeyEnvironment } : null;
}

/** Keys are stored only as this hash; the value itself is shown once at creation. */
export function hashApiKey(value: string): Promise<string> {
	return sha256Hex(value);
}

export function dataEnvironmentOf(environment: KeyEnvironment): DataEnvironment {
	return environment === "dev" ? "dev" : "production";
}
