import { defineConfig } from "vitest/config";

// End-to-end: the real local server (workerd through wrangler) driven over HTTP from Node.
export default defineConfig({
	test: {
		include: ["test/e2e/**/*.test.ts"],
		environment: "node",
		testTimeout: 120_000,
		hookTimeout: 180_000,
		fileParallelism: false,
	},
});
