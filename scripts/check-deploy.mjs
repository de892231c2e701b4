#!/usr/bin/env node
// `npm run deploy` runs this before `wrangler deploy --env production`: production refuses to be
// deployed without its public origins (APP_URL https://, WS_URL wss://) and the compatibility flags
// it relies on (global_fetch_strictly_public for webhook delivery). See docs/decisions.md.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { productionConfigProblems } from "../src/platform/production-config.ts";
import { ROOT } from "./lib.mjs";

const file = process.argv[2] ?? join(ROOT, "wrangler.toml");
const problems = productionConfigProblems(parse(readFileSync(file, "utf8")));
if (problems.length > 0) {
	console.error(`Refusing to deploy: ${file} is not ready for production.`);
	for (const problem of problems) console.error(`  - ${problem}`);
	console.error("Set them in wrangler.toml's [env.production] (see README, Settings) and deploy again.");
	process.exit(1);
}
console.log(`${file}: production configuration checked.`);
