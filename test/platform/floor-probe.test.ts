import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
	INTERVIEW_OBJECTS,
	MAX_FLOOR_GROUP_CALLS,
	MAX_FLOOR_GROUPS,
	parseFloorShape,
	runFloorCalls,
} from "../../src/platform/lib/floor-probe";
import worker from "../../src/worker";
import { BASE } from "../support/helpers";

async function fetchWith(vars: Partial<Env>, path: string, method = "GET") {
	const ctx = createExecutionContext();
	const response = await worker.fetch(
		new Request(`${BASE}${path}`, { method }) as Parameters<typeof worker.fetch>[0],
		{ ...env, ...vars } as Env,
		ctx,
	);
	await waitOnExecutionContext(ctx);
	return { status: response.status, body: (await response.json()) as any };
}

const ON = { ENVIRONMENT: "development", DEV_FLOOR_PROBE: "1" } as Partial<Env>;

describe("the floor probe's shapes", () => {
	it("reads groups one after another and the letters of a group side by side", () => {
		expect(parseFloorShape("ai")).toEqual([["a", "i"]]);
		expect(parseFloorShape("a-d")).toEqual([["a"], ["d"]]);
		expect(parseFloorShape("a-d-b")).toEqual([["a"], ["d"], ["b"]]);
	});

	it("refuses what is not a shape, and shapes past their bounds", () => {
		for (const bad of ["", "x", "a--d", "-a", "a-", "A", "a d", "a/d", "ad-"]) {
			expect(parseFloorShape(bad), bad).toBeNull();
		}
		expect(parseFloorShape(Array(MAX_FLOOR_GROUPS).fill("a").join("-"))).not.toBeNull();
		expect(
			parseFloorShape(
				Array(MAX_FLOOR_GROUPS + 1)
					.fill("a")
					.join("-"),
			),
		).toBeNull();
		expect(parseFloorShape("a".repeat(MAX_FLOOR_GROUP_CALLS))).not.toBeNull();
		expect(parseFloorShape("a".repeat(MAX_FLOOR_GROUP_CALLS + 1))).toBeNull();
	});
});

describe("the floor probe's calls", () => {
	it("makes each call its shape names, on the real objects and D1, the interview calls in turn", async () => {
		const made: string[] = [];
		const objects = new Set<string>();
		const watched = (binding: "ACCOUNT" | "INTERVIEW") => {
			const namespace = env[binding];
			return {
				idFromName: (name: string) => {
					if (binding === "INTERVIEW") objects.add(name);
					return namespace.idFromName(name);
				},
				get: (id: DurableObjectId) => {
					const stub = namespace.get(id);
					return {
						ping: async () => {
							const answer = await stub.ping();
							made.push(`${binding}:${answer}`);
							return answer;
						},
					};
				},
			};
		};
		const db = {
			prepare: (sql: string) => {
				const statement = env.DB.prepare(sql);
				const first = statement.first.bind(statement);
				// A statement run alone is counted when it answers; one in a batch by the batch.
				Object.assign(statement, {
					first: async () => {
						const row = (await first()) as { one: number } | null;
						made.push(`first:${row?.one}`);
						return row;
					},
				});
				return statement;
			},
			batch: async (statements: D1PreparedStatement[]) => {
				const results = await env.DB.batch(statements);
				made.push(`batch:${results.length}`);
				return results;
			},
		};
		const probeEnv = { ACCOUNT: watched("ACCOUNT"), INTERVIEW: watched("INTERVIEW"), DB: db } as never;
		await runFloorCalls(probeEnv, parseFloorShape("ai-b-ii-d") as never);
		expect(made.sort()).toEqual([
			"ACCOUNT:1",
			"INTERVIEW:1",
			"INTERVIEW:1",
			"INTERVIEW:1",
			"batch:4",
			"first:1",
		]);
		expect(objects.size).toBe(3);
		for (let n = 0; n < INTERVIEW_OBJECTS; n++) await runFloorCalls(probeEnv, [["i"]]);
		expect(objects.size).toBe(INTERVIEW_OBJECTS);
	});
});

describe("GET /__dev/floor/<shape>", () => {
	it("answers as the health endpoint once its calls are made, in development with the probe on", async () => {
		for (const shape of ["ai", "a-d", "a-b", "a-d-b"]) {
			const { status, body } = await fetchWith(ON, `/__dev/floor/${shape}`);
			expect(status, shape).toBe(200);
			expect(body.data).toMatchObject({ status: "ok", service: "interview-assessment-service" });
		}
	});

	it("is not there without the probe, outside development, for a bad shape or another method", async () => {
		const cases: [Partial<Env>, string, string][] = [
			[{ ENVIRONMENT: "development", DEV_FLOOR_PROBE: "" }, "/__dev/floor/ai", "GET"],
			[
				{
					ENVIRONMENT: "production",
					APP_URL: "https://interviews.example.com",
					WS_URL: "wss://interviews.example.com",
					DEV_FLOOR_PROBE: "1",
				},
				"/__dev/floor/ai",
				"GET",
			],
			[ON, "/__dev/floor/x", "GET"],
			[ON, "/__dev/floor/", "GET"],
			[ON, "/__dev/floor/ai", "POST"],
			[ON, "/__dev/floor/ai/", "GET"],
			[ON, "/__dev/floor/%61i", "GET"],
		];
		for (const [vars, path, method] of cases) {
			const { status, body } = await fetchWith(vars, path, method);
			expect(status, `${method} ${path} ${JSON.stringify(vars)}`).toBe(404);
			expect(body.success).toBe(false);
		}
		// A HEAD makes no calls either: the app answers it as the unknown path it is.
		const ctx = createExecutionContext();
		const head = await worker.fetch(
			new Request(`${BASE}/__dev/floor/ai`, { method: "HEAD" }) as Parameters<typeof worker.fetch>[0],
			{ ...env, ...ON } as Env,
			ctx,
		);
		await waitOnExecutionContext(ctx);
		expect(head.status).toBe(404);
	});
});
