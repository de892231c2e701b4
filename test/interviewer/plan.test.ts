import { describe, expect, it } from "vitest";
import { OfflineInterviewer, questionCount } from "../../src/interviewer";
import { context } from "../support/interviewer-fixtures";

const interviewer = new OfflineInterviewer();
const SKILLS = ["Python", "SQL", "Docker", "React", "Communication", "Terraform"];

describe("interview plan", () => {
	it.each([
		[15, 3],
		[30, 6],
		[60, 12],
		[90, 15],
	])("asks about one question per 5 minutes: %i minutes -> %i questions", (minutes, expected) => {
		expect(interviewer.plan(context({ duration_minutes: minutes, skills: ["SQL"] })).total).toBe(expected);
	});

	for (const minutes of [15, 30, 60, 90]) {
		for (let n = 1; n <= 6; n++) {
			it(`sizes a ${minutes}-minute interview on ${n} skill(s) and asks about every skill`, () => {
				const plan = interviewer.plan(context({ duration_minutes: minutes, skills: SKILLS.slice(0, n) }));
				const byTime = Math.min(15, Math.max(3, Math.round(minutes / 5)));
				expect(plan.total).toBe(Math.max(byTime, n));
				expect(plan.slots).toHaveLength(plan.total);
				expect(new Set(plan.slots).size).toBe(n);
				expect(plan.seconds_per_question * plan.total).toBeLessThanOrEqual(minutes * 60);
				expect(plan.seconds_per_question).toBeGreaterThanOrEqual(150);
				const counts = plan.skills.map((_, i) => plan.slots.filter((s) => s === i).length);
				expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
			});
		}
	}

	it("asks more questions than the time suggests when there are more skills, up to 20", () => {
		expect(questionCount(15, 8)).toBe(8);
		expect(questionCount(30, 25)).toBe(20);
		const many = Array.from({ length: 25 }, (_, i) => `Skill ${i}`);
		const plan = interviewer.plan(context({ duration_minutes: 30, skills: many }));
		expect(plan.total).toBe(20);
		expect(plan.skills).toHaveLength(25);
	});

	it("starts at the interview's difficulty and records the context", () => {
		const plan = interviewer.plan(context({ difficulty: "senior", company_name: "Initech" }));
		expect(plan.start_difficulty).toBe("senior");
		expect(plan.company_name).toBe("Initech");
		expect(plan.position).toBe("Backend Engineer");
	});

	it("merges aliases of one skill and keeps the caller's first spelling", () => {
		const plan = interviewer.plan(
			context({ skills: ["JS", "JavaScript", "k8s", "Kubernetes", "terraform", "Terraform"] }),
		);
		expect(plan.skills.map((s) => s.name)).toEqual(["JS", "k8s", "terraform"]);
		expect(plan.skills.map((s) => s.bank)).toEqual(["javascript", "kubernetes", "generic"]);
	});

	it("gives the extra questions first to skills named in the instructions or job requirements", () => {
		const plain = interviewer.plan(context({ duration_minutes: 20, skills: ["SQL", "React", "Docker"] }));
		const focused = interviewer.plan(
			context({
				duration_minutes: 20,
				skills: ["SQL", "React", "Docker"],
				instructions: "Focus on containers and Docker.",
			}),
		);
		expect(plain.slots).toEqual([0, 1, 2, 0]);
		expect(focused.slots).toEqual([0, 1, 2, 2]);
		const fromJob = interviewer.plan(
			context({
				duration_minutes: 20,
				skills: ["SQL", "React", "Docker"],
				job: { requirements: "Strong React experience" },
			}),
		);
		expect(fromJob.slots).toEqual([0, 1, 2, 1]);
	});

	it("plans a general interview when no usable skill is given", () => {
		const plan = interviewer.plan(context({ skills: ["  "], duration_minutes: 15 }));
		expect(plan.skills).toEqual([{ name: "General", bank: "generic", category: "technical" }]);
		expect(plan.slots).toEqual([0, 0, 0]);
	});

	it("is plain JSON", () => {
		const plan = interviewer.plan(context());
		expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
	});
});
