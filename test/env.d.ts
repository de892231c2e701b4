import type { D1Migration } from "cloudflare:test";

declare global {
	namespace Cloudflare {
		interface Env {
			TEST_MIGRATIONS: D1Migration[];
			/** wrangler.toml's text, for the configuration guard test. */
			TEST_WRANGLER_TOML: string;
		}
	}
}
