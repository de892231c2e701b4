import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
	allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
	packages: Record<string, { version?: string; hasInstallScript?: boolean }>;
};

/** Every installed package with an install script, as `name@version`, from the lockfile. */
function withInstallScripts(): { name: string; version: string }[] {
	return Object.entries(lock.packages)
		.filter(([path, entry]) => path !== "" && entry.hasInstallScript)
		.map(([path, entry]) => ({
			name: path.slice(path.lastIndexOf("node_modules/") + 13),
			version: entry.version ?? "",
		}));
}

/** The decision `allowScripts` makes for a package: its pinned entry first, then its name's. */
function decision(name: string, version: string): boolean | undefined {
	const allow = manifest.allowScripts ?? {};
	return allow[`${name}@${version}`] ?? allow[name];
}

describe("dependencies' install scripts (package.json allowScripts)", () => {
	it("decides for every package in the lockfile that has one", () => {
		const packages = withInstallScripts();
		expect(packages.length).toBeGreaterThan(0);
		const undecided = packages.filter((p) => decision(p.name, p.version) === undefined);
		expect(undecided.map((p) => `${p.name}@${p.version}`)).toEqual([]);
	});

	it("names only packages that are installed and have one", () => {
		const installed = new Set(withInstallScripts().flatMap((p) => [p.name, `${p.name}@${p.version}`]));
		const stale = Object.keys(manifest.allowScripts ?? {}).filter((entry) => !installed.has(entry));
		expect(stale).toEqual([]);
	});

	it("lets the project's own Node 22 install (the node package's preinstall fetches its binary)", () => {
		const node = withInstallScripts().find((p) => p.name === "node");
		expect(node).toBeDefined();
		expect(decision("node", node?.version ?? "")).toBe(true);
	});
});
