import { describe, expect, it } from "vitest";
import { OfflineInterviewer, publicQuestion } from "../../src/interviewer";
import { DIFFICULTIES } from "../../src/interviews/core/model";
import { context, runInterview, strongAnswer, WEAK_ANSWER } from "../support/interviewer-fixtures";

const interviewer = new OfflineInterviewer();
const level = (d: string) => DIFFICULTIES.indexOf(d as (typeof DIFFICULTIES)[number]);

describe("adaptive questioning", () => {
	it("asks harder questions after a run of strong answers", async () => {
		const plan = interviewer.plan(context({ difficulty: "junior", duration_minutes: 30 }));
		const history = await runInterview(interviewer, plan, strongAnswer);
		const levels = history.map((h) => h.question.difficulty);
		expect(levels[0]).toBe("junior");
		expect(history.every((h) => (h.score?.score ?? 0) >= 75)).toBe(true);
		expect(levels.slice(0, 4)).toEqual(["junior", "intermediate", "senior", "expert"]);
		expect(levels.at(-1)).toBe("expert");
	});

	it("asks easier questions after a run of weak answers", async () => {
		const plan = interviewer.plan(context({ difficulty: "expert", duration_minutes: 30 }));
		const history = await runInterview(interviewer, plan, () => WEAK_ANSWER);
		const levels = history.map((h) => h.question.difficulty);
		expect(levels.slice(0, 4)).toEqual(["expert", "senior", "intermediate", "junior"]);
		expect(levels.at(-1)).toBe("junior");
	});

	it("keeps the level after a middling answer and recovers after a strong one", async () => {
		const plan = interviewer.plan(context({ difficulty: "intermediate", duration_minutes: 30 }));
		const history = await runInterview(interviewer, plan, (q, i) =>
			i === 0 ? WEAK_ANSWER : strongAnswer(q),
		);
		const levels = history.map((h) => level(h.question.difficulty));
		expect(levels[1]).toBe(level("junior"));
		expect(levels[2]).toBe(level("intermediate"));
	});

	it("asks exactly the planned number of questions, never the same one twice", async () => {
		for (const minutes of [15, 90]) {
			const plan = interviewer.plan(context({ duration_minutes: minutes, skills: ["Rust"] }));
			const history = await runInterview(interviewer, plan, strongAnswer);
			expect(history).toHaveLength(plan.total);
			expect(new Set(history.map((h) => h.question.bank_id)).size).toBe(plan.total);
			expect(new Set(history.map((h) => h.question.id)).size).toBe(plan.total);
			expect(await interviewer.nextQuestion(plan, history)).toBeNull();
		}
	});

	it("numbers questions and follows the plan's skill slots", async () => {
		const plan = interviewer.plan(
			context({ skills: ["SQL", "Docker", "Negotiation"], duration_minutes: 30 }),
		);
		const history = await runInterview(interviewer, plan, strongAnswer);
		history.forEach((h, i) => {
			expect(h.question.index).toBe(i);
			expect(h.question.total).toBe(plan.total);
			expect(h.question.skill).toBe(plan.skills[plan.slots[i] as number]?.name);
		});
		const negotiation = history.find((h) => h.question.skill === "Negotiation");
		expect(negotiation?.question.text).toContain("Negotiation");
		expect(negotiation?.question.category).toBe("interpersonal");
	});

	it("sends the candidate only the public fields of a question", async () => {
		const plan = interviewer.plan(context());
		const q = await interviewer.nextQuestion(plan, []);
		expect(q).not.toBeNull();
		expect(Object.keys(publicQuestion(q!)).sort()).toEqual([
			"difficulty",
			"id",
			"index",
			"skill",
			"text",
			"total",
		]);
	});
});

describe("determinism", () => {
	it("gives the same questions, scores and results for the same interview and answers", async () => {
		const run = async () => {
			const plan = interviewer.plan(
				context({ skills: ["Python", "AWS", "Leadership"], duration_minutes: 45 }),
			);
			const history = await runInterview(interviewer, plan, (q, i) =>
				i % 3 === 1 ? WEAK_ANSWER : strongAnswer(q),
			);
			return { plan, history, assessment: interviewer.finalize(plan, history) };
		};
		expect(await run()).toEqual(await run());
	});

	it("varies the questions between interviews by their id", async () => {
		const sets = new Set<string>();
		for (let i = 0; i < 8; i++) {
			const plan = interviewer.plan(
				context({ interview_id: `int_variety${i}`, skills: ["Terraform"], duration_minutes: 15 }),
			);
			const history = await runInterview(
				interviewer,
				plan,
				() => "Something average but relevant, because it depends.",
			);
			sets.add(history.map((h) => h.question.bank_id).join(","));
		}
		expect(sets.size).toBeGreaterThan(1);
	});

	it("continues the same way from a plan and history that went through JSON", async () => {
		const plan = interviewer.plan(context({ duration_minutes: 60 }));
		const history = await runInterview(interviewer, plan, (q, i) => (i < 5 ? strongAnswer(q) : null));
		const partial = history.slice(0, 5);
		const revived = JSON.parse(JSON.stringify({ plan, partial }));
		expect(await interviewer.nextQuestion(revived.plan, revived.partial)).toEqual(
			await interviewer.nextQuestion(plan, partial),
		);
		expect(interviewer.finalize(revived.plan, revived.partial)).toEqual(interviewer.finalize(plan, partial));
	});
});
