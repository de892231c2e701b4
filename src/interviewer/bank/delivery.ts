import { c, type SkillBank } from "./types";

export const cicd: SkillBank = {
	key: "ci-cd",
	name: "CI/CD",
	category: "technical",
	aliases: [
		"ci/cd",
		"cicd",
		"ci",
		"cd",
		"continuous integration",
		"continuous delivery",
		"continuous deployment",
		"devops",
		"github actions",
		"jenkins",
	],
	questions: [
		{
			id: "ci-cd-j1",
			difficulty: "junior",
			topic: "pipelines",
			text: "What is a CI/CD pipeline, and what steps would you put in one?",
			concepts: [
				c("continuous integration", "continuous integration", "every commit", "merge", "build"),
				c("automated tests", "test", "unit test", "automated"),
				c("linting and checks", "lint", "static analysis", "type check", "format"),
				c("deployment", "deploy", "release", "staging", "production"),
			],
			follow_ups: ["What should happen when a test fails?", "Why keep the pipeline fast?"],
		},
		{
			id: "ci-cd-i1",
			difficulty: "intermediate",
			topic: "safe releases",
			text: "How do you release changes safely and roll back quickly?",
			concepts: [
				c("progressive delivery", "canary", "blue-green", "blue green", "progressive"),
				c("feature flags", "feature flag", "toggle", "dark launch"),
				c("automated rollback", "rollback", "roll back", "revert", "previous version"),
				c("monitoring the release", "monitor", "metrics", "error rate", "alert", "slo"),
				c("immutable artifacts", "artifact", "immutable", "same build", "promote"),
			],
			follow_ups: ["How do database migrations complicate rollbacks?", "What signals would stop a canary?"],
		},
		{
			id: "ci-cd-s1",
			difficulty: "senior",
			topic: "pipeline speed and reliability",
			text: "Your CI takes 40 minutes and is flaky. How do you fix it?",
			concepts: [
				c("measure where time goes", "measure", "bottleneck", "timing", "profile"),
				c("caching", "cache", "dependency cache", "build cache", "remote cache"),
				c("parallelism and sharding", "parallel", "shard", "split", "matrix"),
				c("flaky test management", "flaky", "quarantine", "retry", "deterministic", "root cause"),
				c("run only what changed", "affected", "incremental", "changed files", "monorepo"),
			],
			follow_ups: [
				"Why are automatic retries of flaky tests risky?",
				"How do you find what a change affects?",
			],
		},
		{
			id: "ci-cd-e1",
			difficulty: "expert",
			topic: "supply-chain security",
			text: "How do you secure the software supply chain from commit to production?",
			concepts: [
				c("signed commits and artifacts", "sign", "sigstore", "cosign", "signature", "attestation"),
				c("provenance", "slsa", "provenance", "reproducible build", "hermetic"),
				c("dependency risks", "dependency", "sbom", "pinning", "lock file", "typosquatting"),
				c("least-privilege CI", "least privilege", "oidc", "short-lived", "secrets", "token"),
				c("policy enforcement", "admission", "policy", "gate", "verify before deploy"),
			],
			follow_ups: ["What does OIDC federation replace in CI?", "What is in an SBOM and who uses it?"],
		},
	],
};
