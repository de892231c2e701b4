import { describe, expect, it } from "vitest";
import {
	analyticsSchema,
	type HistoryEntry,
	LEVEL_BANDS,
	OfflineInterviewer,
	resultsSchema,
} from "../../src/interviewer";
import { levelFor } from "../../src/interviewer/assessment";
import { collapseSpaces } from "../../src/interviewer/text";
import { REVIEW_FLAGS } from "../../src/interviewer/types";
import { context, runInterview, strongAnswer, WEAK_ANSWER } from "../support/interviewer-fixtures";

const interviewer = new OfflineInterviewer();

async function interview(
	answer: Parameters<typeof runInterview>[2],
	overrides = {},
	seconds?: Parameters<typeof runInterview>[3],
) {
	const plan = interviewer.plan(
		context({ skills: ["SQL", "React", "Communication"], duration_minutes: 30, ...overrides }),
	);
	const history = await runInterview(interviewer, plan, answer, seconds);
	return { plan, history, ...(await interviewer.finalize(plan, history)) };
}

describe("results and analytics", () => {
	it("match the spec's Results and Analytics objects exactly", async () => {
		for (const answer of [strongAnswer, () => WEAK_ANSWER, () => ""]) {
			const { results, analytics } = await interview(answer);
			expect(resultsSchema.safeParse(results).success).toBe(true);
			expect(analyticsSchema.safeParse(analytics).success).toBe(true);
		}
	});

	it("has schemas strict enough to catch a wrong shape", async () => {
		const { results, analytics } = await interview(strongAnswer);
		const badLevel = { ...results, skill_assessments: [{ skill: "SQL", score: 80, level: "guru" }] };
		expect(resultsSchema.safeParse(badLevel).success).toBe(false);
		expect(resultsSchema.safeParse({ ...results, extra: 1 }).success).toBe(false);
		expect(resultsSchema.safeParse({ ...results, overall_score: 101 }).success).toBe(false);
		const badStep = { ...analytics.question_difficulty_progression[0], change: "sideways" };
		expect(
			analyticsSchema.safeParse({ ...analytics, question_difficulty_progression: [badStep] }).success,
		).toBe(false);
	});

	it("recommends hiring a candidate with strong answers throughout, at a high level", async () => {
		const { results, analytics } = await interview(strongAnswer);
		expect(results.recommendation).toBe("hire");
		expect(results.overall_score).toBeGreaterThanOrEqual(80);
		expect(results.technical_score).toBeGreaterThanOrEqual(80);
		expect(results.communication_score).toBeGreaterThanOrEqual(75);
		expect(results.skill_assessments.map((s) => s.skill)).toEqual(["SQL", "React", "Communication"]);
		for (const s of results.skill_assessments) expect(["advanced", "expert"]).toContain(s.level);
		expect(analytics.engagement_level).toBe("high");
	});

	it("recommends against a candidate with weak answers, rated novice with low engagement", async () => {
		const { results, analytics } = await interview(() => WEAK_ANSWER);
		expect(results.recommendation).toBe("no_hire");
		expect(results.overall_score).toBeLessThan(30);
		for (const s of results.skill_assessments) expect(s.level).toBe("novice");
		expect(analytics.engagement_level).toBe("low");
	});

	it("holds back a no_hire whose answers disagree widely as maybe, with low_evidence in the flags' fixed order", async () => {
		const { results } = await interview((q, i) => (i === 0 ? strongAnswer(q) : WEAK_ANSWER));
		expect(results.recommendation).toBe("maybe");
		expect(results.review_flags).toContain("signals_disagree");
		expect(results.review_flags).toContain("low_evidence");
		const flags = results.review_flags ?? [];
		expect(flags).toEqual(REVIEW_FLAGS.filter((f) => flags.includes(f)));
	});

	it("lands between the two for a mixed candidate", async () => {
		const strong = await interview(strongAnswer);
		const weak = await interview(() => WEAK_ANSWER);
		const mixed = await interview((q, i) => (i % 2 === 0 ? strongAnswer(q) : WEAK_ANSWER));
		expect(mixed.results.overall_score).toBeGreaterThan(weak.results.overall_score);
		expect(mixed.results.overall_score).toBeLessThan(strong.results.overall_score);
	});

	it("cites the candidate's words in strengths and the missed concepts in areas for improvement", async () => {
		const answers = new Map<string, string>();
		const { results, history } = await interview((q, i) => {
			const text =
				i % 2 === 0
					? strongAnswer(q)
					: `${q.concepts[0]?.keywords.find((k) => !q.text.toLowerCase().includes(k)) ?? ""} I think.`;
			answers.set(q.id, text);
			return text;
		});
		expect(results.strengths.length).toBeGreaterThan(0);
		const all = collapseSpaces([...answers.values()].join(" ")).toLowerCase();
		const explained = results.strengths.filter((s) => s.startsWith("Explained"));
		expect(explained.length).toBeGreaterThan(0);
		for (const strength of explained) {
			const quoted = [...strength.matchAll(/'([^']+)'/g)].map((m) => m[1] as string);
			expect(quoted.length, strength).toBeGreaterThan(0);
			for (const q of quoted) expect(all).toContain(q.toLowerCase());
		}
		const weakEntries = history.filter((_, i) => i % 2 === 1);
		for (const entry of weakEntries) {
			const missed = entry.score?.missed ?? [];
			expect(missed.length).toBeGreaterThan(0);
			expect(
				results.areas_for_improvement.some(
					(a) => a.includes(entry.question.topic) && a.includes(missed[0] as string),
				),
				`${entry.question.topic}: ${results.areas_for_improvement.join(" | ")}`,
			).toBe(true);
		}
	});

	it("names unanswered questions and skills the interview never reached", async () => {
		const plan = interviewer.plan(context({ skills: ["SQL", "React", "Docker"], duration_minutes: 30 }));
		const q1 = interviewer.nextQuestion(plan, [])!;
		const s1 = interviewer.scoreAnswer(q1, strongAnswer(q1), 50);
		const h1: HistoryEntry[] = [{ question: q1, score: s1 }];
		const q2 = interviewer.nextQuestion(plan, h1)!;
		const history: HistoryEntry[] = [...h1, { question: q2, score: null }];
		const { results, analytics } = interviewer.finalize(plan, history);
		expect(results.areas_for_improvement).toContain(`Did not answer the React question on ${q2.topic}`);
		expect(results.areas_for_improvement).toContain(
			"Docker was not assessed: the interview ended before its question",
		);
		expect(results.skill_assessments.map((s) => s.skill)).toEqual(["SQL", "React"]);
		expect(results.skill_assessments[1]?.score).toBe(0);
		expect(results.recommendation).not.toBe("hire");
		expect(analytics.question_difficulty_progression.map((s) => s.score)).toEqual([s1.score, null]);
		expect(analytics.response_times).toEqual({
			average_seconds: 50,
			fastest_seconds: 50,
			slowest_seconds: 50,
		});
	});

	it("reports response times over the answered questions", async () => {
		const { analytics } = await interview(strongAnswer, {}, (_q, i) => 30 + i * 10);
		expect(analytics.response_times).toEqual({
			average_seconds: 55,
			fastest_seconds: 30,
			slowest_seconds: 80,
		});
	});

	it("records how difficulty moved, question by question", async () => {
		const { analytics, history } = await interview((q, i) => (i < 2 ? strongAnswer(q) : WEAK_ANSWER), {
			difficulty: "intermediate",
		});
		const steps = analytics.question_difficulty_progression;
		expect(steps.map((s) => s.question_index)).toEqual(history.map((_, i) => i));
		expect(steps.map((s) => s.question_id)).toEqual(history.map((h) => h.question.id));
		expect(steps.map((s) => s.difficulty)).toEqual([
			"intermediate",
			"senior",
			"expert",
			"senior",
			"intermediate",
			"junior",
		]);
		expect(steps.map((s) => s.change)).toEqual(["start", "up", "up", "down", "down", "down"]);
	});

	it("counts answers to questions below the interview's level for less", async () => {
		const junior = await interview(strongAnswer, { difficulty: "junior" });
		const expert = await interview((q, i) => (i === 0 ? WEAK_ANSWER : strongAnswer(q)), {
			difficulty: "expert",
		});
		const below = expert.history.filter(
			(h) => h.question.difficulty !== "expert" && (h.score?.score ?? 0) >= 90,
		);
		expect(below.length).toBeGreaterThan(0);
		expect(expert.results.technical_score).toBeLessThan(junior.results.technical_score);
	});

	it("maps scores to levels by documented bands", () => {
		expect([0, 39, 40, 59, 60, 74, 75, 89, 90, 100].map(levelFor)).toEqual([
			"novice",
			"novice",
			"developing",
			"developing",
			"proficient",
			"proficient",
			"advanced",
			"advanced",
			"expert",
			"expert",
		]);
		expect(LEVEL_BANDS.map((b) => b.level)).toEqual([
			"expert",
			"advanced",
			"proficient",
			"developing",
			"novice",
		]);
	});

	it("gives zero scores and no_hire when nothing was asked", () => {
		const plan = interviewer.plan(context());
		const { results, analytics } = interviewer.finalize(plan, []);
		expect(results).toMatchObject({
			overall_score: 0,
			technical_score: 0,
			communication_score: 0,
			recommendation: "no_hire",
		});
		expect(analytics).toEqual({
			engagement_level: "low",
			response_times: { average_seconds: 0, fastest_seconds: 0, slowest_seconds: 0 },
			question_difficulty_progression: [],
		});
		expect(resultsSchema.safeParse(results).success).toBe(true);
	});
});
