import { readFileSync } from "node:fs";
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
						TEST_WRANGLER_TOML: readFileSync(path.join(import.meta.dirname, "wrangler.toml"), "utf8"),
						ADMIN_TOKEN: "test-admin-token",
						RECORDING_URL_SECRET: "test-recording-secret",
						// Short enough that the "receiver hangs" case finishes quickly.
						WEBHOOK_TIMEOUT_MS: "1500",
						// Production's setting: every request the suite makes goes through the log line.
						LOG_REQUESTS: "all",
					},
					// Tests drive the webhook consumer by hand (createMessageBatch), so what the
					// fan-out sends goes to a queue nothing consumes instead of racing them.
					// The same for candidate e-mail: a background send would emit candidate.notified
					// events that other tests' webhook endpoints would then receive.
					queueProducers: {
						WEBHOOK_QUEUE: { queueName: "interview-webhooks-parked" },
						EMAIL_QUEUE: { queueName: "interview-emails-parked" },
						WAKE_QUEUE: { queueName: "interview-wake-parked" },
					},
				},
			}),
		],
		test: {
			// Tests mirror src/ (test/<module>/...); the end-to-end suite has its own config.
			include: ["test/**/*.test.ts"],
			exclude: ["test/e2e/**", "test/faults/**", "**/node_modules/**"],
			setupFiles: ["./test/setup/apply-migrations.ts", "./test/setup/local-network.ts"],
			// Generous: a loaded two-core machine runs a burst of 80 requests slower than the default 5 s.
			testTimeout: 30_000,
			globalSetup: ["./test/setup/webhook-receiver.ts", "./test/setup/openai-server.ts"],
		},
	};
});
