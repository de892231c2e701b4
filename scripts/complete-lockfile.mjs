#!/usr/bin/env node
// When a registry does not serve some platform-specific builds for other operating systems
// (e.g. a macOS binary of a native tool), npm leaves them out of
// package-lock.json and `npm ci` then refuses the lock as out of sync. This adds each missing
// optional platform package as an entry restricted to its own os/cpu, which `npm ci` skips on
// every other platform and installs normally on that one. Run after changing dependencies: npm run lock:complete
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./lib.mjs";

const path = join(ROOT, "package-lock.json");
const lock = JSON.parse(readFileSync(path, "utf8"));
const packages = lock.packages;

function platformOf(name) {
	const os = [
		"darwin",
		"win32",
		"windows",
		"android",
		"linux",
		"freebsd",
		"openbsd",
		"netbsd",
		"sunos",
		"aix",
	].find((o) => new RegExp(`[-/]${o}([-]|$)`).test(name));
	const cpu = ["arm64", "x64", "ia32", "arm", "ppc64", "s390x", "riscv64", "loong64", "mips64el"].find((c) =>
		new RegExp(`-${c}(-|$)`).test(name),
	);
	if (!os) return null;
	const entry = { os: [os === "windows" ? "win32" : os] };
	if (cpu) entry.cpu = [cpu === "64" ? "x64" : cpu];
	if (/-musl$/.test(name)) entry.libc = ["musl"];
	if (os === "linux" && !/-musl$/.test(name) && /-gnu$/.test(name)) entry.libc = ["glibc"];
	return entry;
}

let added = 0;
for (const [location, pkg] of Object.entries(packages)) {
	for (const [name, range] of Object.entries(pkg.optionalDependencies ?? {})) {
		// npm resolves a dependency from the nearest node_modules up the tree.
		const base = location === "" ? "" : `${location}/`;
		const candidates = [];
		let dir = base;
		for (;;) {
			candidates.push(`${dir}node_modules/${name}`);
			const i = dir.lastIndexOf("node_modules/");
			if (i < 0) break;
			dir = dir.slice(0, i);
		}
		if (candidates.some((c) => packages[c])) continue;
		const platform = platformOf(name.replace(/^@[^/]+\//, "-"));
		if (!platform || !/^\d+\.\d+\.\d+/.test(range)) continue;
		packages[`${base}node_modules/${name}`] = { version: range, dev: pkg.dev, optional: true, ...platform };
		added++;
	}
}
// Indented as npm writes the file, so that a plain `npm install` leaves it as it is.
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform entries`);
