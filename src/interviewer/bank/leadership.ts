import { learning, ownAction, result, situation } from "./shared-concepts";
import { c, type SkillBank } from "./types";

export const leadership: SkillBank = {
	key: "leadership",
	name: "Leadership",
	category: "interpersonal",
	aliases: [
		"team leadership",
		"technical leadership",
		"tech lead",
		"engineering management",
		"management",
		"people management",
		"mentoring",
		"mentorship",
	],
	questions: [
		{
			id: "leadership-j1",
			difficulty: "junior",
			topic: "taking initiative",
			text: "Tell me about a time you took the initiative to improve something without being asked.",
			concepts: [
				situation,
				c("noticing the problem", "noticed", "problem", "pain point", "inefficient", "manual"),
				ownAction,
				result,
			],
			follow_ups: ["How did you get others on board?", "What did you not change and why?"],
		},
		{
			id: "leadership-i1",
			difficulty: "intermediate",
			topic: "mentoring",
			text: "How do you help a less experienced colleague grow? Give an example.",
			concepts: [
				c("understanding their goals", "goals", "strengths", "what they want", "career", "one-on-one", "1:1"),
				c("stretch tasks with support", "stretch", "ownership", "pair", "pairing", "delegate"),
				c("feedback", "feedback", "code review", "regular", "specific"),
				c("letting them struggle safely", "safe", "space", "let them", "autonomy", "trust"),
				result,
			],
			follow_ups: ["How do you give feedback on poor work?", "How do you know the mentoring worked?"],
		},
		{
			id: "leadership-s1",
			difficulty: "senior",
			topic: "leading through ambiguity",
			text: "You lead a team given a vague goal and a tight deadline. How do you set direction and keep people effective?",
			concepts: [
				c(
					"clarifying the goal",
					"clarify",
					"define success",
					"success criteria",
					"stakeholders",
					"requirements",
				),
				c("prioritisation", "prioritise", "prioritize", "scope", "mvp", "cut"),
				c("delegation and ownership", "delegate", "ownership", "owner", "responsib*"),
				c("rhythm and communication", "stand-up", "standup", "check-in", "transparency", "communicate"),
				c("team health", "burnout", "morale", "sustainable", "well-being", "wellbeing"),
			],
			follow_ups: ["What would you cut first?", "How do you protect the team from churn?"],
		},
		{
			id: "leadership-e1",
			difficulty: "expert",
			topic: "organisation-level change",
			text: "How have you shaped engineering culture or strategy across several teams? What worked and what did not?",
			concepts: [
				c("vision and strategy", "vision", "strategy", "roadmap", "long-term", "north star"),
				c("aligning leaders", "alignment", "leaders", "managers", "buy-in", "sponsor"),
				c("mechanisms", "process", "rfc", "guild", "standards", "hiring", "career ladder"),
				c("measuring outcomes", "metric", "dora", "measure", "survey", "outcome"),
				learning,
			],
			follow_ups: ["Which mechanism would you remove today?", "How did you handle a leader who disagreed?"],
		},
	],
};

export const teamwork: SkillBank = {
	key: "teamwork",
	name: "Teamwork",
	category: "interpersonal",
	aliases: [
		"collaboration",
		"team player",
		"cross-functional collaboration",
		"interpersonal skills",
		"working in teams",
	],
	questions: [
		{
			id: "teamwork-j1",
			difficulty: "junior",
			topic: "helping a teammate",
			text: "Tell me about a time you helped a teammate who was stuck.",
			concepts: [
				situation,
				c("noticing and offering help", "noticed", "offered", "asked if", "stuck", "blocked"),
				c("how you helped", "paired", "explained", "debugged", "together", "showed"),
				result,
			],
			follow_ups: ["How did you balance it with your own work?", "What did you learn from them?"],
		},
		{
			id: "teamwork-i1",
			difficulty: "intermediate",
			topic: "working across roles",
			text: "How do you work with designers, product managers and QA on a feature from start to finish?",
			concepts: [
				c("early involvement", "early", "kickoff", "refinement", "planning"),
				c("shared understanding", "acceptance criteria", "requirements", "shared", "clarify", "questions"),
				c("regular feedback", "demo", "feedback", "review", "iterate"),
				c("respecting expertise", "respect", "their expertise", "trust", "perspective"),
			],
			follow_ups: [
				"What do you do when design and engineering constraints clash?",
				"How do you hand over to QA?",
			],
		},
		{
			id: "teamwork-s1",
			difficulty: "senior",
			topic: "team conflict",
			text: "Two people on your team are in a conflict that is hurting delivery. What do you do?",
			concepts: [
				c("talk to each privately", "one-on-one", "privately", "separately", "individually", "listen"),
				c("find the underlying issue", "root cause", "underlying", "interests", "misunderstanding"),
				c("facilitate agreement", "facilitate", "together", "agreement", "working agreement", "mediate"),
				c("focus on behaviour and goals", "behaviour", "behavior", "shared goal", "impact", "expectations"),
				c("escalate when needed", "escalate", "manager", "hr", "follow up"),
			],
			follow_ups: ["When would you escalate?", "How do you stay neutral?"],
		},
		{
			id: "teamwork-e1",
			difficulty: "expert",
			topic: "distributed teams",
			text: "How do you make a team spread across time zones and organisations work well together?",
			concepts: [
				c("asynchronous communication", "async", "asynchronous", "written", "documentation", "recorded"),
				c("overlap and rituals", "overlap", "time zone", "rituals", "rotation", "meeting"),
				c("clear ownership", "ownership", "owner", "raci", "responsib*"),
				c("trust and inclusion", "trust", "inclusion", "inclusive", "psychological safety", "offsite"),
				c("tools and agreements", "working agreement", "tools", "handoff", "hand-off"),
			],
			follow_ups: [
				"How do you avoid one location dominating decisions?",
				"What do you write down that others would say out loud?",
			],
		},
	],
};
