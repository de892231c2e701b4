import { defineConfig } from "vitest/config";

// The fault suite (`npm run faults`): the real local service killed with SIGKILL at chosen points
// and restarted on the same state, driven over HTTP from Node (docs/status.md, "Faults").
export default defineConfig({
	test: {
		include: ["test/faults/**/*.test.ts"],
		environment: "node",
		testTimeout: 600_000,
		hookTimeout: 300_000,
		fileParallelism: false,
	},
});
