import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { cruise, type ICruiseResult } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The dependency rule (docs/architecture.md) bites: dependency-cruiser, with the project's own
 * configuration, finds no violation in the real tree, and reports an upward import when one is
 * added to a copy of it.
 */

const ROOT = resolve(import.meta.dirname, "../..");

interface Violation {
	rule: string;
	from: string;
	to: string;
}

/** The violations dependency-cruiser reports for `src` under `baseDir`, with the project's config. */
async function violations(baseDir: string): Promise<Violation[]> {
	const options = await extractDepcruiseOptions(join(ROOT, ".dependency-cruiser.cjs"));
	const result = await cruise(["src"], { ...options, baseDir, outputType: "json" });
	const output = (
		typeof result.output === "string" ? JSON.parse(result.output) : result.output
	) as ICruiseResult;
	return output.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}

let copy: string;

beforeAll(() => {
	copy = mkdtempSync(join(tmpdir(), "dependency-rule-"));
	cpSync(join(ROOT, "src"), join(copy, "src"), { recursive: true });
	cpSync(join(ROOT, "tsconfig.json"), join(copy, "tsconfig.json"));
});

afterAll(() => {
	if (copy) rmSync(copy, { recursive: true, force: true });
});

describe("the dependency rule", () => {
	it("finds no violation in the source tree", async () => {
		expect(await violations(ROOT)).toEqual([]);
	});

	it("reports platform importing a module, accounts importing interviews, and a cycle", async () => {
		writeFileSync(
			join(copy, "src/platform/http/upward.ts"),
			'import type { AuthContext } from "../../accounts/auth-context";\nexport type Upward = AuthContext;\n',
		);
		writeFileSync(
			join(copy, "src/accounts/upward.ts"),
			'import { interviewStub } from "../interviews/stub";\nexport const upward = interviewStub;\n',
		);
		mkdirSync(join(copy, "src/interviews/core/loop"), { recursive: true });
		writeFileSync(
			join(copy, "src/interviews/core/loop/a.ts"),
			'import { b } from "./b";\nexport const a = () => b;\n',
		);
		writeFileSync(
			join(copy, "src/interviews/core/loop/b.ts"),
			'import { a } from "./a";\nexport const b = () => a;\n',
		);

		const found = await violations(copy);
		expect(found).toContainEqual({
			rule: "platform-imports-no-module",
			from: "src/platform/http/upward.ts",
			to: "src/accounts/auth-context.ts",
		});
		expect(found).toContainEqual({
			rule: "accounts-imports-platform-only",
			from: "src/accounts/upward.ts",
			to: "src/interviews/stub.ts",
		});
		expect(found).toContainEqual({
			rule: "no-circular",
			from: "src/interviews/core/loop/a.ts",
			to: "src/interviews/core/loop/b.ts",
		});
		// Nothing else: the copy is the real tree plus these files.
		expect(found.every((v) => v.from.endsWith("upward.ts") || v.from.includes("/loop/"))).toBe(true);
	});
});
