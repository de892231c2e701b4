import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type Service, startService } from "./harness";

let service: Service;

/** Runs the admin CLI against the service and parses what it prints. */
function cli(...args: string[]) {
	return JSON.parse(
		execFileSync(
			process.execPath,
			[join(import.meta.dirname, "../../scripts/admin.mjs"), ...args, "--url", service.baseUrl],
			{
				env: { ...process.env, ADMIN_TOKEN: service.adminToken },
				encoding: "utf8",
				timeout: 30_000,
				stdio: "pipe",
			},
		),
	);
}

/** Runs the admin CLI expecting a failure; answers its exit code and error output. */
function cliFailure(...args: string[]): { status?: number; stderr?: string } {
	try {
		cli(...args);
	} catch (error) {
		return error as { status?: number; stderr?: string };
	}
	return {};
}

beforeAll(async () => {
	service = await startService();
});

afterAll(async () => {
	await service?.stop();
});

describe("the local service from a blank state", () => {
	it("answers the health check without a key", async () => {
		const res = await api(service, "GET", "/api/v1/health/");
		expect(res.status).toBe(200);
		expect(res.body.data.status).toBe("ok");
		expect(res.headers.get("x-request-id")).toBe(res.body.meta.request_id);
	});

	it("prints demo keys at first start that create, list and fetch an interview", async () => {
		const created = await api(service, "POST", "/v1/interviews", {
			key: service.keys.live,
			body: { candidate_email: "grace@example.com", position: "Data Engineer", skills: ["Python"] },
		});
		expect(created.status).toBe(201);
		const id = created.body.data.id;
		expect(created.body.data.interview_url).toContain(`/join/${id}?token=`);

		const list = await api(service, "GET", "/v1/interviews?limit=10", { key: service.keys.live });
		expect(list.status).toBe(200);
		expect(list.body.data.map((i: { id: string }) => i.id)).toContain(id);

		const fetched = await api(service, "GET", `/api/v1/interviews/${id}/`, { key: service.keys.test });
		expect(fetched.status).toBe(200);
		expect(fetched.body.data.candidate.email).toBe("grace@example.com");
		expect(fetched.body.meta).toBeUndefined();

		const sandbox = await api(service, "GET", `/v1/interviews/${id}`, { key: service.keys.dev });
		expect(sandbox.status).toBe(404);
	});

	it("runs the admin flow through the CLI: account, key, use, revoke", async () => {
		const account = cli("create-account", "--company", "Initech", "--plan", "starter");
		expect(account.id).toMatch(/^acc_/);
		expect(account.credits).toBe(100);
		const key = cli(
			"create-key",
			"--account",
			account.id,
			"--env",
			"live",
			"--permissions",
			"interviews:read",
		);
		expect(key.key).toMatch(/^svc_live_/);

		const profile = await api(service, "GET", "/v1/account/profile", { key: key.key });
		expect(profile.status).toBe(200);
		expect(profile.body.data.company_name).toBe("Initech");
		expect(profile.body.data.api_key_permissions).toEqual(["interviews:read"]);

		const refused = await api(service, "POST", "/v1/interviews", {
			key: key.key,
			body: { candidate_email: "a@example.com", position: "QA", skills: ["Testing"] },
		});
		expect(refused.status).toBe(403);
		expect(refused.body.error.details.required_permission).toBe("interviews:write");

		// A negative credit change is a value, not an option; a number that is not one sends nothing.
		const lowered = cli("update-account", "--account", account.id, "--credits-delta", "-5");
		expect(lowered.credits).toBe(95);
		const refusal = cliFailure("update-account", "--account", account.id, "--rpm", "abc");
		expect(refusal.status).toBe(2);
		expect(String(refusal.stderr)).toContain("--rpm must be a whole number");
		expect(cli("get-account", "--account", account.id).limits.requests_per_minute).toBe(
			lowered.limits.requests_per_minute,
		);

		const listed = cli("list-accounts", "--limit", "100");
		expect(listed.data.map((a: { id: string }) => a.id)).toContain(account.id);

		cli("revoke-key", "--account", account.id, "--key", key.id);
		const revoked = await api(service, "GET", "/v1/account/profile", { key: key.key });
		expect(revoked.status).toBe(401);
		expect(revoked.body.error.code).toBe("INVALID_API_KEY");
	});

	it("pages list-accounts through the CLI with the printed next_cursor", () => {
		cli("create-account", "--company", "Globex", "--plan", "free");
		const all = cli("list-accounts", "--limit", "100");
		expect(all.pagination).toMatchObject({ has_more: false, next_cursor: null });
		expect(all.pagination.total_count).toBeGreaterThanOrEqual(2);
		const seen: string[] = [];
		let page = cli("list-accounts", "--limit", "1");
		for (;;) {
			expect(page.data).toHaveLength(1);
			seen.push(page.data[0].id);
			if (!page.pagination.has_more) break;
			page = cli("list-accounts", "--limit", "1", "--cursor", page.pagination.next_cursor);
		}
		expect(page.pagination.next_cursor).toBeNull();
		expect(seen).toEqual(all.data.map((a: { id: string }) => a.id));
		expect(seen).toHaveLength(all.pagination.total_count);
	});

	it("clears limit overrides through the CLI with null", () => {
		const account = cli("create-account", "--company", "Hooli", "--plan", "starter");
		const overridden = cli("update-account", "--account", account.id, "--rpm", "5000", "--monthly", "7");
		expect(overridden.limit_overrides).toMatchObject({ requests_per_minute: 5000, monthly_interviews: 7 });
		const cleared = cli("update-account", "--account", account.id, "--rpm", "null", "--monthly", "null");
		expect(cleared.limit_overrides).toEqual({
			requests_per_minute: null,
			concurrent_interviews: null,
			monthly_interviews: null,
		});
		expect(cleared.limits).toMatchObject({ requests_per_minute: 180, monthly_interviews: 100 });
		const refusal = cliFailure("update-account", "--account", account.id, "--concurrent", "none");
		expect(refusal.status).toBe(2);
		expect(String(refusal.stderr)).toContain("--concurrent must be a whole number or null");
	});

	it("names the address it could not reach, and how to choose another", async () => {
		// A port nothing listens on: taken, then let go.
		const { createServer } = await import("node:net");
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		const { port } = server.address() as { port: number };
		await new Promise((resolve) => server.close(resolve));
		const url = `http://127.0.0.1:${port}`;
		let failure: { status?: number; stderr?: string } = {};
		try {
			execFileSync(
				process.execPath,
				[join(import.meta.dirname, "../../scripts/admin.mjs"), "list-accounts", "--url", url],
				{
					env: { ...process.env, ADMIN_TOKEN: "any" },
					encoding: "utf8",
					timeout: 30_000,
					stdio: "pipe",
				},
			);
		} catch (error) {
			failure = error as { status?: number; stderr?: string };
		}
		expect(failure.status).toBe(1);
		expect(String(failure.stderr)).toContain(`Could not reach the service at ${url} (ECONNREFUSED)`);
		expect(String(failure.stderr)).toContain("pass --url URL or set SERVICE_URL");
	});

	it("refuses options the CLI does not have, such as --json", () => {
		const refusal = cliFailure("list-accounts", "--json");
		expect(refusal.status).toBe(2);
		expect(String(refusal.stderr)).toContain("Unknown option '--json'");
	});
});
