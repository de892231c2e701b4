import { describe, expect, it } from "vitest";
import { bulkCreatedView, completedTranscript, resultsStatus } from "../../../src/interviews/api/bulk-views";
import { parseCreateRequest } from "../../../src/interviews/api/setup-guide";
import { mockResults } from "../../../src/interviews/core/mock-results";
import { recommendationFor } from "../../../src/interviews/core/recommendation";
import {
	confidenceFor,
	recommendationFrom,
	setupGuideResultsView,
} from "../../../src/interviews/core/setup-guide-results";
import {
	type BulkItemOutcome,
	prepareItem,
	retryMayDoBetter,
	withDefaults,
} from "../../../src/interviews/creation/bulk-create";
import { limiter } from "../../../src/platform/lib/limit";
import { answerScore, interviewState, plannedQuestion } from "../../fixtures";

const NOW = 1_800_000_000_000;
const item = (overrides: Record<string, unknown> = {}) => ({
	candidate_email: "ada@example.com",
	position: "Backend Engineer",
	skills: ["SQL"],
	...overrides,
});

describe("bulk items", () => {
	it("fills only the fields an item leaves out from defaults", () => {
		expect(
			withDefaults(item({ difficulty: "junior" }), {
				difficulty: "senior",
				duration_minutes: 60,
				company_name: "D",
			}),
		).toEqual(item({ difficulty: "junior", duration_minutes: 60, company_name: "D" }));
	});

	it("keeps an item's explicit false over a default true", () => {
		const prepared = prepareItem(item({ send_invitation: false }), { send_invitation: true }, NOW);
		expect(prepared.ok && prepared.body.send_invitation).toBe(false);
	});

	it("calls a present but bad address INVALID_EMAIL, naming every failing field", () => {
		const prepared = prepareItem(item({ candidate_email: "x@", duration_minutes: 5 }), {}, NOW);
		expect(prepared).toMatchObject({
			ok: false,
			error: {
				code: "INVALID_EMAIL",
				details: { candidate_email: expect.any(String), duration_minutes: expect.any(String) },
			},
		});
	});

	it("calls a missing address VALIDATION_ERROR", () => {
		const { candidate_email: _, ...rest } = item();
		expect(prepareItem(rest, {}, NOW)).toMatchObject({
			ok: false,
			error: { code: "VALIDATION_ERROR", details: { candidate_email: "Required" } },
		});
	});

	it("refuses a scheduled_at before the request", () => {
		expect(prepareItem(item({ scheduled_at: new Date(NOW - 1000).toISOString() }), {}, NOW)).toMatchObject({
			ok: false,
			error: {
				code: "VALIDATION_ERROR",
				message: "Invalid item: scheduled_at: Must not be in the past",
				details: { scheduled_at: "Must not be in the past" },
			},
		});
		const later = new Date(NOW + 1000).toISOString();
		expect(prepareItem(item({ scheduled_at: later }), {}, NOW)).toMatchObject({
			ok: true,
			scheduledAt: NOW + 1000,
		});
	});

	it("rounds success_rate to four decimals as a fraction", () => {
		const outcomes: BulkItemOutcome[] = [0, 1, 2].map((index) =>
			index === 0
				? { index, ok: true, interview: interviewState() }
				: {
						index,
						ok: false,
						candidateEmail: null,
						error: { code: "VALIDATION_ERROR", message: "m", details: {} },
					},
		);
		expect(bulkCreatedView(outcomes, { appUrl: "https://app.test" }).summary).toEqual({
			total_requested: 3,
			successful_count: 1,
			failed_count: 2,
			success_rate: 0.3333,
		});
	});
});

describe("a bulk's Idempotency-Key after failures of ours", () => {
	const failed = (code: string, details: Record<string, unknown> = {}): BulkItemOutcome =>
		({
			index: 0,
			ok: false,
			candidateEmail: null,
			error: { code, message: "x", details },
		}) as BulkItemOutcome;
	it("runs again for items we failed, never when some may have been created", () => {
		expect(retryMayDoBetter([failed("VALIDATION_ERROR")])).toBe(false);
		expect(retryMayDoBetter([failed("VALIDATION_ERROR"), failed("INTERNAL_ERROR")])).toBe(true);
		expect(
			retryMayDoBetter([failed("INTERNAL_ERROR"), failed("INTERNAL_ERROR", { outcome: "unknown" })]),
		).toBe(false);
	});
});

describe("the concurrency limiter", () => {
	it("never runs more than its limit at once and starts tasks in order", async () => {
		const run = limiter(3);
		let active = 0;
		let peak = 0;
		const started: number[] = [];
		await Promise.all(
			Array.from({ length: 20 }, (_, i) =>
				run(async () => {
					started.push(i);
					active++;
					peak = Math.max(peak, active);
					for (let k = 0; k < (i % 4) + 1; k++) await Promise.resolve();
					active--;
				}),
			),
		);
		expect(peak).toBe(3);
		expect(started).toEqual([...Array(20).keys()]);
	});

	it("keeps going after a task fails", async () => {
		const run = limiter(1);
		const failing = run(() => Promise.reject(new Error("boom")));
		const next = run(() => Promise.resolve("ok"));
		await expect(failing).rejects.toThrow("boom");
		await expect(next).resolves.toBe("ok");
	});
});

describe("results views", () => {
	it("says where results stand for each status", () => {
		expect(resultsStatus(interviewState())).toBe("not_completed");
		expect(resultsStatus(interviewState({ status: "in_progress" }))).toBe("not_completed");
		expect(resultsStatus(interviewState({ status: "cancelled" }))).toBe("cancelled");
		const { results } = mockResults(interviewState());
		expect(resultsStatus(interviewState({ status: "completed", results }))).toBe("analyzing");
		expect(resultsStatus(interviewState({ status: "completed", results, analyzedAt: NOW }))).toBe(
			"available",
		);
	});

	it("shows a transcript only for completed interviews and never the interviewer's private fields", () => {
		const question = {
			id: "q1",
			text: "Why?",
			skill: "SQL",
			difficulty: "senior" as const,
			index: 0,
			total: 1,
		};
		const entry = {
			question,
			asked_at: NOW,
			answer: "Because",
			answered_at: NOW + 5000,
			score: 80,
			planned: plannedQuestion(question, { topic: "secret" }),
			assessment: answerScore(question, 80, { feedback: "secret" }),
		};
		expect(completedTranscript(interviewState({ status: "in_progress", transcript: [entry] }))).toBeNull();
		expect(completedTranscript(interviewState({ status: "completed", transcript: [entry] }))).toEqual([
			{
				question: { id: "q1", text: "Why?", skill: "SQL", difficulty: "senior", index: 0 },
				asked_at: new Date(NOW).toISOString(),
				answer: "Because",
				answered_at: new Date(NOW + 5000).toISOString(),
				score: 80,
			},
		]);
	});
});

describe("setup-guide recommendations", () => {
	it.each([
		[100, "hire", 0.95],
		[90, "hire", 0.95],
		[80, "hire", 0.73],
		[71, "hire", 0.52],
		[70, "hire", 0.5],
		[69, "maybe", 0.5],
		[60, "maybe", 0.7],
		[50, "maybe", 0.5],
		[49, "no_hire", 0.5],
		[39, "no_hire", 0.73],
		[0, "no_hire", 0.95],
	] as const)(
		"scores %i as %s with confidence %f, on the interviewer's thresholds",
		(score, type, confidence) => {
			expect(recommendationFor(score)).toBe(type);
			expect(confidenceFor(score, type)).toBe(confidence);
		},
	);

	it("gives the lowest confidence when the score sits outside its recommendation's band", () => {
		expect(confidenceFor(40, "hire")).toBe(0.5);
		expect(confidenceFor(85, "maybe")).toBe(0.5);
	});

	it("reasons from the score, the threshold, strengths and areas, truly for every recommendation", () => {
		const rec = (overall_score: number, recommendation: "hire" | "maybe" | "no_hire") =>
			recommendationFrom({
				overall_score,
				recommendation,
				strengths: ["Clear SQL"],
				areas_for_improvement: [],
			}).reasoning;
		expect(rec(72, "hire")).toBe(
			"Overall score 72 of 100, 2 points above the hire threshold of 70. Strengths: Clear SQL. Areas for improvement: none noted.",
		);
		expect(rec(71, "hire")).toContain("1 point above the hire threshold of 70.");
		expect(rec(60, "maybe")).toContain("between the maybe threshold of 50 and the hire threshold of 70.");
		// The interviewer holds a hire back for a weak skill or unanswered questions.
		expect(rec(80, "maybe")).toContain(
			"at or above the hire threshold of 70, held back by the other hire conditions",
		);
		expect(rec(30, "no_hire")).toContain("20 points below the maybe threshold of 50.");
	});

	it("mocks the same results for the same interview and different ones for another", () => {
		const a = interviewState({ id: "int_aaaaaaaaaaaaaaaaaaaaaaaa", skills: ["Go", "SQL", "Rust"] });
		const b = interviewState({ id: "int_bbbbbbbbbbbbbbbbbbbbbbbb", skills: ["Go", "SQL", "Rust"] });
		expect(mockResults(a)).toEqual(mockResults(a));
		expect(mockResults(a).results.skill_assessments).not.toEqual(mockResults(b).results.skill_assessments);
	});

	it("generates results whose recommendation is the interviewer's band, as the reasoning states", () => {
		const bands = new Set<string>();
		for (let i = 0; i < 400; i++) {
			const id = `int_${String(i).padStart(24, "0")}`;
			const { results } = mockResults(interviewState({ id, skills: ["Go", "SQL"] }));
			const score = results.overall_score;
			const band = score >= 70 ? "hire" : score >= 50 ? "maybe" : "no_hire";
			expect(results.recommendation, `score ${score}`).toBe(band);
			const { reasoning } = recommendationFrom(results);
			if (band === "hire") expect(reasoning).toMatch(/above the hire threshold of 70\./);
			if (band === "maybe")
				expect(reasoning).toContain("between the maybe threshold of 50 and the hire threshold of 70");
			if (band === "no_hire") expect(reasoning).toMatch(/below the maybe threshold of 50\./);
			bands.add(band);
		}
		expect([...bands].sort()).toEqual(["hire", "maybe", "no_hire"]);
	});

	it("shows a test-mode interview the same generated results before and after its completion", () => {
		const state = interviewState({ testMode: true, skills: ["Go", "SQL"] });
		const { results } = mockResults(state);
		const before = setupGuideResultsView(state);
		const after = setupGuideResultsView({ ...state, status: "completed", results, analyzedAt: NOW });
		expect(before.results_status).toBe("mock");
		expect(after.results_status).toBe("available");
		expect(after.overall_score).toBe(before.overall_score);
		expect(after.skill_scores).toEqual(before.skill_scores);
		expect(after.recommendations).toEqual(before.recommendations);
	});

	it("prefers published analysis over mock results for a test-mode interview", () => {
		const results = {
			...mockResults(interviewState()).results,
			overall_score: 12,
			recommendation: "no_hire" as const,
		};
		const view = setupGuideResultsView(
			interviewState({ testMode: true, status: "completed", results, analyzedAt: NOW }),
		);
		expect(view).toMatchObject({ results_status: "available", overall_score: 12 });
	});
});

describe("the create body under /api/v1", () => {
	it("maps the setup guide's fields onto the create fields and keeps the job text", () => {
		const request = parseCreateRequest(
			{
				job: { title: "SRE", description: "d", requirements: "r" },
				candidate_email: "a@example.com",
				skills_to_assess: ["Go"],
				difficulty_level: "expert",
				test_mode: true,
			},
			{ acceptSetupGuide: true },
		);
		expect(request).toEqual({
			kind: "setup_guide",
			body: expect.objectContaining({
				position: "SRE",
				skills: ["Go"],
				difficulty: "expert",
				duration_minutes: 30,
				test_mode: true,
				send_invitation: true,
			}),
			job: { description: "d", requirements: "r" },
		});
	});

	it("validates the /v1 body when the setup guide's is not accepted", () => {
		expect(() =>
			parseCreateRequest(
				{ job: { title: "SRE" }, candidate_email: "a@example.com", skills_to_assess: ["Go"] },
				{
					acceptSetupGuide: false,
				},
			),
		).toThrow(/job: Unknown field/);
	});
});
