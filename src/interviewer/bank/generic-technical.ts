import type { GenericTemplate } from "./generic-template";
import { example, result, situation, tradeOffs } from "./shared-concepts";
import { c } from "./types";

const alternatives = c(
	"alternatives",
	"alternative",
	"instead",
	"compared to",
	"compared with",
	"versus",
	"rather than",
);

export const GENERIC_TECHNICAL: GenericTemplate[] = [
	{
		key: "j1",
		difficulty: "junior",
		topic: "fundamentals",
		text: "What is {skill} used for, and what are its core ideas? Describe how you have used it.",
		concepts: [
			c("purpose", "used for", "purpose", "helps", "allows", "lets you", "solves"),
			c("core ideas explained", "concept", "works by", "based on", "consists of", "core", "main idea"),
			example,
		],
		follow_ups: [
			"What problem would you not use {skill} for?",
			"What did you find hardest when learning {skill}?",
		],
	},
	{
		key: "j2",
		difficulty: "junior",
		topic: "getting started",
		text: "Walk me through starting a small project with {skill} from scratch. What are the first steps?",
		concepts: [
			c("setup", "install", "set up", "setup", "configure", "getting started", "documentation"),
			c("project structure", "structure", "folder", "module", "file", "config"),
			c("first run and checks", "run", "hello world", "check", "test", "verify"),
			c("version control", "git", "commit", "repository", "branch"),
		],
		follow_ups: ["Which tools would you add next?", "How would you share the project with a teammate?"],
	},
	{
		key: "j3",
		difficulty: "junior",
		topic: "common mistakes",
		text: "What mistakes do beginners often make with {skill}, and how do you avoid them?",
		concepts: [
			c("named mistakes", "mistake", "forget", "common", "pitfall", "error", "wrong"),
			c("how to avoid them", "avoid", "best practice", "always", "make sure", "check"),
			c("learning resources", "documentation", "docs", "review", "mentor", "linter", "course"),
			example,
		],
		follow_ups: ["Which of these mistakes have you made yourself?", "How would you catch it in review?"],
	},
	{
		key: "i1",
		difficulty: "intermediate",
		topic: "a problem you solved",
		text: "Describe a real problem you solved with {skill}. What was hardest and how did you approach it?",
		concepts: [
			situation,
			c("approach", "approach", "first", "then", "investigated", "debug", "broke it down"),
			c("the hard part", "hard", "challenge", "difficult", "tricky", "complex"),
			result,
		],
		follow_ups: ["What would you do differently now?", "How did you know it was solved?"],
	},
	{
		key: "i2",
		difficulty: "intermediate",
		topic: "testing and debugging",
		text: "How do you test and debug work built with {skill}?",
		concepts: [
			c("testing", "test", "unit test", "integration", "coverage"),
			c("debugging", "debug", "logs", "logging", "breakpoint", "trace", "reproduce"),
			c("tooling", "tool", "ide", "profiler", "framework", "library"),
			c("automation", "ci", "automated", "pipeline", "continuous"),
		],
		follow_ups: ["Describe the hardest bug you found.", "What do you log and what not?"],
	},
	{
		key: "i3",
		difficulty: "intermediate",
		topic: "strengths and weaknesses",
		text: "What are the strengths and weaknesses of {skill} compared with alternatives you know?",
		concepts: [
			c("strengths", "strength", "good at", "fast", "easy", "advantage", "benefit"),
			c("weaknesses", "weakness", "downside", "drawback", "limitation", "slow", "hard"),
			alternatives,
			c("choosing by context", "depends", "use case", "choose", "when", "context"),
		],
		follow_ups: [
			"When would you switch away from {skill}?",
			"What would convince you to adopt an alternative?",
		],
	},
	{
		key: "s1",
		difficulty: "senior",
		topic: "performance at scale",
		text: "How would you make a system that uses {skill} perform well at scale? Where do bottlenecks appear?",
		concepts: [
			c("measure first", "measure", "profile", "benchmark", "metrics", "monitor"),
			c("bottlenecks", "bottleneck", "slow", "latency", "throughput", "contention"),
			c("scaling techniques", "cache", "scale", "horizontal", "parallel", "batch", "queue"),
			tradeOffs,
		],
		follow_ups: ["How would you load-test it?", "What would you cache and for how long?"],
	},
	{
		key: "s2",
		difficulty: "senior",
		topic: "maintainability and security",
		text: "How do you keep a large codebase or deployment using {skill} maintainable and secure over time?",
		concepts: [
			c("structure and standards", "modular", "architecture", "separation", "conventions", "standards"),
			c("reviews", "code review", "review", "pairing"),
			c("security hygiene", "security", "vulnerab*", "patch", "update", "least privilege"),
			c("automation", "test", "ci", "lint", "automated"),
		],
		follow_ups: ["How do you handle dependency upgrades?", "How do you onboard someone to it?"],
	},
	{
		key: "s3",
		difficulty: "senior",
		topic: "a technical decision",
		text: "Tell me about a significant technical decision involving {skill} that you made or influenced. What alternatives did you weigh?",
		concepts: [situation, alternatives, tradeOffs, result],
		follow_ups: ["Would you make the same decision today?", "Who disagreed and why?"],
	},
	{
		key: "e1",
		difficulty: "expert",
		topic: "internals",
		text: "Explain how {skill} works internally and how that knowledge changed a decision you made.",
		concepts: [
			c("internals", "internally", "under the hood", "implementation", "architecture", "runtime", "engine"),
			c("mechanism explained", "because", "which means", "so that", "therefore"),
			c("a decision it changed", "decided", "chose", "decision", "changed"),
			example,
		],
		follow_ups: ["Where is that behaviour documented?", "How would you verify it experimentally?"],
	},
	{
		key: "e2",
		difficulty: "expert",
		topic: "failure modes",
		text: "What are the hardest failure modes of {skill} in production, and how would you design to survive them?",
		concepts: [
			c("failure modes", "failure", "outage", "crash", "corrupt", "timeout", "edge case"),
			c("detection", "monitor", "alert", "observability", "logs", "metrics"),
			c("mitigation", "retry", "fallback", "redundan*", "graceful", "rollback", "circuit breaker"),
			c("prevention", "test", "chaos", "postmortem", "post-mortem", "review"),
		],
		follow_ups: ["Which failure have you actually seen?", "How would you rehearse it?"],
	},
	{
		key: "e3",
		difficulty: "expert",
		topic: "technical direction",
		text: "How would you set the technical direction for {skill} across several teams: standards, tooling and upskilling?",
		concepts: [
			c("standards", "standard", "guideline", "convention", "style guide", "best practice"),
			c("tooling", "tool", "template", "platform", "automation"),
			c("upskilling", "training", "mentoring", "workshop", "documentation", "pairing"),
			c("measuring adoption", "measure", "metric", "adoption", "feedback", "survey"),
		],
		follow_ups: ["How would you handle a team that opts out?", "What would you standardise last?"],
	},
];
