import { describe, expect, it } from "vitest";
import { findBank } from "../../src/interviewer";
import { guessCategory, skillIdentity } from "../../src/interviewer/skills";

describe("skill names", () => {
	it.each([
		["JS", "javascript"],
		["javascript", "javascript"],
		["JavaScript (ES6+)", "javascript"],
		["TS", "typescript"],
		["Python 3.11", "python"],
		["golang", "go"],
		["C#", "csharp"],
		[".NET", "csharp"],
		["Postgres", "postgresql"],
		["PostgreSQL", "postgresql"],
		["k8s", "kubernetes"],
		["Node", "nodejs"],
		["Node.js", "nodejs"],
		["node js", "nodejs"],
		["React.js", "react"],
		["Spring Boot", "spring"],
		["Mongo", "mongodb"],
		["Amazon Web Services", "aws"],
		["System Design", "system-design"],
		["Data Structures and Algorithms", "dsa"],
		["Behavioral", "behavioural"],
		["  communication skills ", "communication"],
		["Tech Lead", "leadership"],
		["CI/CD", "ci-cd"],
	])("resolves %s to the %s bank", (name, key) => {
		expect(findBank(name)?.key).toBe(key);
	});

	it("knows no bank for an unfamiliar skill and guesses its category from its name", () => {
		expect(findBank("Terraform")).toBeNull();
		expect(findBank("Java")?.key).toBe("java");
		expect(findBank("JavaFX")).toBeNull();
		expect(guessCategory("Terraform")).toBe("technical");
		expect(guessCategory("Negotiation")).toBe("interpersonal");
		expect(guessCategory("Customer empathy")).toBe("interpersonal");
	});

	it("treats aliases of one skill as the same skill", () => {
		expect(skillIdentity("JS")).toBe(skillIdentity("JavaScript"));
		expect(skillIdentity("terraform")).toBe(skillIdentity("Terraform"));
		expect(skillIdentity("Terraform")).not.toBe(skillIdentity("Ansible"));
	});
});
