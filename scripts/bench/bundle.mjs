// The deployable bundle's size: `wrangler deploy --dry-run --outdir`, then gzip of the bundle (worker.js).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT } from "../lib.mjs";

export function bundleSize() {
	const dir = mkdtempSync(join(tmpdir(), "interview-bundle-"));
	try {
		const result = spawnSync(
			join(ROOT, "node_modules", ".bin", "wrangler"),
			["deploy", "--dry-run", "--env", "production", "--outdir", dir],
			{
				cwd: ROOT,
				encoding: "utf8",
				env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
				timeout: 180_000,
			},
		);
		if (result.status !== 0)
			throw new Error(`wrangler deploy --dry-run failed:\n${result.stdout}\n${result.stderr}`);
		// wrangler names the bundle after the entry module (src/worker.ts: worker.js).
		const name = readdirSync(dir).find((f) => f === "worker.js" || f === "index.js");
		if (!name) throw new Error(`wrangler deploy --dry-run wrote no worker.js in ${dir}`);
		const code = readFileSync(join(dir, name));
		return { file: name, bytes: code.length, gzipBytes: gzipSync(code).length };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
