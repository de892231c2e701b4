import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Offline: miniflare uses a placeholder `Request.cf` instead of fetching one.
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";

export default defineConfig(async () => {
	const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
	return {
		plugins: [
			cloudflareTest({
				wrangler: { configPath: "./wrangler.toml" },
				miniflare: {
					// Test-only bindings: never in wrangler.toml.
					bindings: {
						TEST_MIGRATIONS: migrations,
						ADMIN_TOKEN: "test-admin-token",
						RECORDING_URL_SECRET: "test-recording-secret",
					},
				},
			}),
		],
		test: {
			include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts"],
			setupFiles: ["./test/setup/apply-migrations.ts"],
		},
	};
});
