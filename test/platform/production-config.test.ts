import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { parse } from "smol-toml";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { productionConfigProblems } from "../../src/platform/production-config";

type Toml = Parameters<typeof productionConfigProblems>[0] & {
	env: { production: { vars: Record<string, string>; compatibility_flags?: string[] } };
};
const config = () => parse(env.TEST_WRANGLER_TOML) as unknown as Toml;

describe("wrangler.toml [env.production]", () => {
	it("lists global_fetch_strictly_public with nodejs_compat; local runs keep private addresses reachable", () => {
		const toml = config() as Toml & { compatibility_flags: string[] };
		expect(toml.env.production.compatibility_flags).toEqual(
			expect.arrayContaining(["nodejs_compat", "global_fetch_strictly_public"]),
		);
		expect(toml.compatibility_flags).not.toContain("global_fetch_strictly_public");
	});

	it("serves the static assets (/docs's script) in both environments: [assets] is inherited", () => {
		const toml = config() as Toml & {
			assets?: { directory: string };
			env: { production: { assets?: unknown } };
		};
		expect(toml.assets?.directory).toBe("./public");
		// An environment inherits `assets` unless it names its own: production names none.
		expect(toml.env.production.assets).toBeUndefined();
	});

	it("cannot be deployed until APP_URL and WS_URL are public https and wss origins", () => {
		const toml = config();
		const { APP_URL, WS_URL } = toml.env.production.vars;
		const problems = productionConfigProblems(toml);
		// The committed file leaves them for the deployer: the check names exactly what is missing.
		if (!APP_URL) expect(problems).toContain("[env.production.vars] APP_URL is not set");
		if (!WS_URL) expect(problems).toContain("[env.production.vars] WS_URL is not set");

		toml.env.production.vars.APP_URL = "https://interviews.example.com";
		toml.env.production.vars.WS_URL = "wss://interviews.example.com";
		expect(productionConfigProblems(toml)).toEqual([]);

		toml.env.production.vars.APP_URL = "http://interviews.example.com";
		toml.env.production.vars.WS_URL = "https://interviews.example.com";
		expect(productionConfigProblems(toml)).toEqual([
			"[env.production.vars] APP_URL must be an https:// URL, not 'http://interviews.example.com'",
			"[env.production.vars] WS_URL must be a wss:// URL, not 'https://interviews.example.com'",
		]);

		toml.env.production.vars.APP_URL = "https://interviews.example.com";
		toml.env.production.vars.WS_URL = "wss://interviews.example.com";
		toml.env.production.compatibility_flags = ["nodejs_compat"];
		expect(productionConfigProblems(toml)).toEqual([
			'[env.production] compatibility_flags lacks "global_fetch_strictly_public"',
		]);
	});

	it("keeps the platform's invocation logs, which record full URLs with candidates' tokens, off", () => {
		const toml = config() as Toml & { env: { production: { observability?: Record<string, unknown> } } };
		toml.env.production.vars.APP_URL = "https://interviews.example.com";
		toml.env.production.vars.WS_URL = "wss://interviews.example.com";
		expect(toml.env.production.observability).toEqual({ enabled: true, logs: { invocation_logs: false } });
		expect(productionConfigProblems(toml)).toEqual([]);
		const refusal =
			"[env.production.observability.logs] invocation_logs must be false: they record full URLs, and candidate URLs carry tokens";
		toml.env.production.observability = { enabled: true };
		expect(productionConfigProblems(toml)).toEqual([refusal]);
		toml.env.production.observability = { enabled: true, logs: { invocation_logs: true } };
		expect(productionConfigProblems(toml)).toEqual([refusal]);
		toml.env.production.observability = { enabled: false };
		expect(productionConfigProblems(toml)).toEqual([]);
	});
});

describe("serving in production", () => {
	afterEach(() => vi.restoreAllMocks());

	async function get(vars: Record<string, string>, path: string) {
		const ctx = createExecutionContext();
		const res = await createApp().fetch(
			new Request(`https://attacker.example${path}`),
			{ ...env, ...vars },
			ctx,
		);
		await waitOnExecutionContext(ctx);
		return res;
	}

	it("refuses every request without APP_URL and WS_URL, saying why, and logs it once", async () => {
		const errors = vi.spyOn(console, "error").mockImplementation(() => {});
		const vars = { ENVIRONMENT: "production", APP_URL: "", WS_URL: "" };
		for (const path of ["/api/v1/health", "/v1/interviews", "/join/int_x?token=y"]) {
			const res = await get(vars, path);
			expect(res.status).toBe(500);
			const body = (await res.json()) as { error: { code: string; message: string } };
			expect(body.error.code).toBe("INTERNAL_ERROR");
			expect(body.error.message).toContain("APP_URL is not set; WS_URL is not set");
		}
		const logged = errors.mock.calls.filter((call) => String(call[0]).includes("refusing to serve"));
		expect(logged.length).toBeLessThanOrEqual(1);
	});

	it("serves once both are set, and outside production without them", async () => {
		const configured = await get(
			{ ENVIRONMENT: "production", APP_URL: "https://i.example.com", WS_URL: "wss://i.example.com" },
			"/api/v1/health",
		);
		expect(configured.status).toBe(200);
		const local = await get({ ENVIRONMENT: "development", APP_URL: "", WS_URL: "" }, "/api/v1/health");
		expect(local.status).toBe(200);
	});
});
