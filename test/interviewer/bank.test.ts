import { describe, expect, it } from "vitest";
import { BANKS } from "../../src/interviewer";
import { GENERIC_TEMPLATE_COUNT, genericQuestions } from "../../src/interviewer/bank";
import { findKeyword } from "../../src/interviewer/text";
import { DIFFICULTIES } from "../../src/interviews/core/model";

const allQuestions = BANKS.flatMap((b) => b.questions.map((q) => ({ bank: b, q })));

describe("question bank", () => {
	it("covers at least 25 skills, each at all four difficulty levels", () => {
		expect(BANKS.length).toBeGreaterThanOrEqual(25);
		for (const bank of BANKS) {
			for (const level of DIFFICULTIES) {
				expect(
					bank.questions.some((q) => q.difficulty === level),
					`${bank.key} ${level}`,
				).toBe(true);
			}
		}
	});

	it("covers languages, frameworks, databases, cloud, design, testing, security, algorithms and people skills", () => {
		const keys = BANKS.map((b) => b.key);
		for (const key of [
			"javascript",
			"typescript",
			"python",
			"java",
			"go",
			"rust",
			"csharp",
			"sql",
			"react",
			"nodejs",
			"django",
			"spring",
			"postgresql",
			"mongodb",
			"redis",
			"aws",
			"docker",
			"kubernetes",
			"system-design",
			"testing",
			"security",
			"dsa",
			"behavioural",
			"communication",
			"leadership",
		]) {
			expect(keys).toContain(key);
		}
		expect(BANKS.some((b) => b.category === "interpersonal")).toBe(true);
	});

	it("gives every question a topic, at least three concepts with keywords and at least one follow-up", () => {
		for (const { q } of allQuestions) {
			expect(q.topic.length, q.id).toBeGreaterThan(0);
			expect(q.concepts.length, q.id).toBeGreaterThanOrEqual(3);
			expect(q.follow_ups.length, q.id).toBeGreaterThanOrEqual(1);
			for (const concept of q.concepts)
				expect(concept.keywords.length, `${q.id} ${concept.name}`).toBeGreaterThan(0);
		}
	});

	it("names concepts without commas, since results list them in sentences", () => {
		for (const { q } of allQuestions)
			for (const concept of q.concepts) expect(concept.name, q.id).not.toContain(",");
	});

	it("uses each question id once", () => {
		const ids = allQuestions.map(({ q }) => q.id);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it("lets every concept be shown with a keyword the question itself does not contain", () => {
		for (const { q } of allQuestions) {
			for (const concept of q.concepts) {
				const usable = concept.keywords.filter((k) => findKeyword(q.text, k) === null);
				expect(usable.length, `${q.id}: ${concept.name}`).toBeGreaterThan(0);
			}
		}
	});

	it("has keywords that match their own spelling in a sentence", () => {
		for (const { q } of allQuestions) {
			for (const keyword of q.concepts.flatMap((c) => c.keywords)) {
				const plain = keyword.replace("*", "");
				expect(
					findKeyword(`We talked about ${plain} yesterday.`, keyword),
					`${q.id}: ${keyword}`,
				).not.toBeNull();
			}
		}
	});

	it("gives one name or alias to one skill only", () => {
		const owner = new Map<string, string>();
		for (const bank of BANKS) {
			for (const name of [bank.key, bank.name, ...bank.aliases]) {
				const key = name.toLowerCase().replace(/[\s._-]+/g, "");
				expect(owner.get(key) ?? bank.key, name).toBe(bank.key);
				owner.set(key, bank.key);
			}
		}
	});

	it("has generic templates at every level for technical and interpersonal skills, filled with the skill name", () => {
		for (const category of ["technical", "interpersonal"] as const) {
			const questions = genericQuestions("Terraform", category);
			expect(questions).toHaveLength(GENERIC_TEMPLATE_COUNT[category]);
			for (const level of DIFFICULTIES) {
				expect(questions.filter((q) => q.difficulty === level).length).toBeGreaterThanOrEqual(3);
			}
			for (const q of questions) {
				expect(q.text).not.toContain("{skill}");
				expect(q.follow_ups.join(" ")).not.toContain("{skill}");
				expect(q.concepts.length).toBeGreaterThanOrEqual(3);
			}
			expect(questions.some((q) => q.text.includes("Terraform"))).toBe(true);
		}
	});
});
