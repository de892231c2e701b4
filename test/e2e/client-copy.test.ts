import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// docs/integrate.md tells integrators to copy client/index.ts and client/schema.d.ts into their
// own project: its samples, compiled against such a copy as another project would compile them,
// under TypeScript's nodenext and bundler module resolution.
const ROOT = join(import.meta.dirname, "../..");
const guide = readFileSync(join(ROOT, "docs/integrate.md"), "utf8");
const section = guide.slice(guide.indexOf("## 1. The typed client"), guide.indexOf("## 2. "));
const samples = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);

// Inside the project (an ignored folder), so that openapi-fetch and @types/node resolve from its
// node_modules as they would from the other project's.
mkdirSync(join(ROOT, "test-output"), { recursive: true });
const dir = mkdtempSync(join(ROOT, "test-output", "client-copy-"));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The samples after the first read its `api` and `error`, and a bulk's `interviews`. */
const PREAMBLE = `import { createServiceClient } from "./client/index.js";
const api = createServiceClient({ baseUrl: "http://localhost:8787", apiKey: "svc_test_x" });
const { error } = await api.POST("/v1/interviews", {
	body: { candidate_email: "ada@example.com", position: "Backend Engineer", skills: ["Go"] },
});
const interviews = [{ candidate_email: "bo@example.com", position: "Backend Engineer", skills: ["Go"] }];
`;

function compile(resolution: "nodenext" | "bundler") {
	const config = {
		compilerOptions: {
			strict: true,
			noEmit: true,
			skipLibCheck: true,
			target: "es2022",
			lib: ["es2022", "dom"],
			types: ["node"],
			module: resolution === "nodenext" ? "nodenext" : "esnext",
			moduleResolution: resolution,
		},
		files: ["first.ts", "rest.ts"],
	};
	writeFileSync(join(dir, `tsconfig.${resolution}.json`), JSON.stringify(config));
	try {
		execFileSync(join(ROOT, "node_modules/.bin/tsc"), ["-p", `tsconfig.${resolution}.json`], {
			cwd: dir,
			encoding: "utf8",
			stdio: "pipe",
			timeout: 120_000,
		});
		return "";
	} catch (error) {
		const failed = error as { stdout?: string; stderr?: string; message: string };
		return `${failed.stdout ?? ""}${failed.stderr ?? ""}` || failed.message;
	}
}

describe("the typed client copied into another project", () => {
	it("compiles the integration guide's samples under nodenext and bundler resolution", () => {
		expect(samples.length).toBe(3);
		expect(samples[0]).toContain('from "./client/index.js"');
		mkdirSync(join(dir, "client"));
		cpSync(join(ROOT, "client/index.ts"), join(dir, "client/index.ts"));
		cpSync(join(ROOT, "client/schema.d.ts"), join(dir, "client/schema.d.ts"));
		writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, type: "module" }));
		writeFileSync(join(dir, "first.ts"), samples[0] as string);
		writeFileSync(join(dir, "rest.ts"), `${PREAMBLE}${samples[1]}${samples[2]}`);
		expect(compile("nodenext")).toBe("");
		expect(compile("bundler")).toBe("");
	}, 240_000);
});
