import { describe, expect, inject, it } from "vitest";
import { createInterviewer } from "../../src/interviewer";
import { OpenAiInterviewer } from "../../src/interviewer/openai";
import { bankQuestion } from "../support/interviewer-fixtures";

const { port } = inject("openaiServer");
const baseUrl = `http://127.0.0.1:${port}/v1`;
const q = bankQuestion("sql-i1");
const ANSWER =
	"An index is usually a B-tree that keeps values sorted, so lookups read a few pages. Every index slows writes because inserts must update it. I confirm with EXPLAIN that the plan uses it.";
const WRONG = "Indexes make writes faster, so index every column. A B-tree keeps keys unordered.";

const model = (name: string, timeoutMs = 2_000) =>
	new OpenAiInterviewer({ baseUrl, apiKey: "sk-test-key", model: name, timeoutMs });

async function requestsOf(
	name: string,
): Promise<Array<{ headers: Record<string, string>; body: Record<string, unknown> }>> {
	return (await (await fetch(`http://127.0.0.1:${port}/__requests/${name}`)).json()) as never;
}

describe("OpenAI-compatible interviewer", () => {
	it("is chosen by INTERVIEWER=openai with a base URL and a model", () => {
		const env = { INTERVIEWER: "openai", OPENAI_BASE_URL: baseUrl, OPENAI_MODEL: "m", OPENAI_API_KEY: "k" };
		expect(createInterviewer(env).kind).toBe("openai");
		expect(createInterviewer({ ...env, OPENAI_MODEL: "" }).kind).toBe("offline");
		expect(createInterviewer({ ...env, INTERVIEWER: "offline" }).kind).toBe("offline");
	});

	it("scores from a well-formed, schema-constrained verdict and records the scorer", async () => {
		const score = await model("well-formed").scoreAnswer(q, ANSWER, 40);
		expect(score.source).toBe("openai");
		expect(score.fallback).toBeNull();
		expect(score.feedback).toBe("Judged by the local test server.");
		expect(score.matched.map((m) => m.concept)).toContain("B-tree structure");
		expect(score.score).toBeGreaterThan(50);
		const [request] = await requestsOf("well-formed");
		expect(request?.headers.authorization).toBe("Bearer sk-test-key");
		const format = request?.body.response_format as {
			type: string;
			json_schema: { schema: { required: string[] } };
		};
		expect(format.type).toBe("json_schema");
		expect(format.json_schema.schema.required).toContain("misconceptions");
		expect(JSON.stringify(request?.body.messages)).toContain(
			"indexes slow writes down rather than speeding them up",
		);
	});

	it("keeps the rubric's own misconception check when the model misses it", async () => {
		const score = await model("fenced").scoreAnswer(q, WRONG, 40);
		expect(score.source).toBe("openai");
		expect(score.review_flags).toContain("misconception");
		expect(score.score).toBeLessThan(25);
	});

	it("asks one follow-up only about a partial answer", async () => {
		const partial = await model("well-formed").scoreAnswer(
			q,
			"An index is a B-tree, so lookups are quicker than a scan.",
			20,
		);
		const full = await model("well-formed").scoreAnswer(q, ANSWER, 40);
		expect(partial.components.content).toBeLessThan(0.6);
		expect(partial.follow_up).toBe("Which trade-off would you check first?");
		expect(full.follow_up).not.toBe("Which trade-off would you check first?");
	});

	for (const [name, reason] of [
		["malformed", "invalid judgement"],
		["invalid", "invalid judgement"],
		["failing", "provider error 500"],
		["slow", "no answer within 1000 ms"],
	] as const) {
		it(`falls back to the offline scorer on a ${name} answer and says why`, async () => {
			const started = Date.now();
			const score = await model(name, 1_000).scoreAnswer(q, ANSWER, 40);
			expect(Date.now() - started).toBeLessThan(3_000);
			expect(score.source).toBe("offline");
			expect(score.fallback).toBe(reason);
			expect(score.review_flags).toContain("scorer_fallback");
			const offline = await createInterviewer({}).scoreAnswer(q, ANSWER, 40);
			expect(score.score).toBe(offline.score);
		});
	}

	it("scores an empty answer offline without calling the model", async () => {
		const before = (await requestsOf("well-formed")).length;
		const score = await model("well-formed").scoreAnswer(q, "  ", 5);
		expect(score.score).toBe(0);
		expect((await requestsOf("well-formed")).length).toBe(before);
	});
});
