import { describe, expect, it } from "vitest";
import { stripAnsi, wranglerOutputFilter } from "../../scripts/wrangler-output.mjs";

const BINDINGS = [
	"Your Worker has access to the following bindings:",
	"Binding                 Resource          Mode",
	"env.DB (interview-service)   D1 Database   local",
	"",
];
const CRON_WARNING = [
	"\u001b[33m▲ \u001b[43;33m[\u001b[43;30mWARNING\u001b[43;33m]\u001b[0m \u001b[1mScheduled Workers are not automatically triggered during local development.\u001b[0m",
	"",
	"  To manually trigger a scheduled event, run:",
	'    curl "http://127.0.0.1:8787/cdn-cgi/local/scheduled"',
	"  For more details, see \u001b[4mhttps://developers.cloudflare.com/workers/configuration/cron-triggers/#test-cron-triggers-locally\u001b[0m",
];

function run(lines: string[], color: boolean) {
	const filter = wranglerOutputFilter({ color, cronNote: "runs the cron itself" });
	return lines.map(filter).filter((line): line is string => line !== null);
}

describe("what npm start passes on of wrangler's output", () => {
	it("prints the bindings table once, though wrangler prints it twice", () => {
		const out = run([...BINDINGS, "⎔ Starting local server...", ...BINDINGS, "[wrangler:info] Ready"], false);
		expect(out.filter((line) => line.includes("following bindings"))).toHaveLength(1);
		expect(out.filter((line) => line.includes("D1 Database"))).toHaveLength(1);
		expect(out).toContain("⎔ Starting local server...");
		expect(out.at(-1)).toBe("[wrangler:info] Ready");
	});

	it("replaces the warning that scheduled Workers are not triggered locally with what the script does", () => {
		const out = run(["before", ...CRON_WARNING, "after"], false);
		expect(out).toEqual(["before", "runs the cron itself", "after"]);
	});

	it("drops colour codes unless the output is a terminal", () => {
		const coloured = "\u001b[32m✓\u001b[39m ready";
		expect(run([coloured], false)).toEqual(["✓ ready"]);
		expect(run([coloured], true)).toEqual([coloured]);
		expect(stripAnsi("\u001b[1;31mred\u001b[0m")).toBe("red");
	});
});
