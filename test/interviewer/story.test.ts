import { describe, expect, it } from "vitest";
import { analyseClaims } from "../../src/interviewer/claims";
import { scoreAnswerOffline } from "../../src/interviewer/scoring";
import { STORY_EXPLAINS, storyShape } from "../../src/interviewer/story";
import { bankQuestion } from "../support/interviewer-fixtures";

// A good answer of eval/holdout3: the candidate's own actions and their outcome, in its own nouns.
const RUNBOOKS =
	"Our on-call runbooks were stale and new people kept getting stuck at 2am. After a rough week on call, I rewrote the runbooks for our ten noisiest alerts with real commands and dashboard links, and, after checking with the team, deleted two alerts that were pure noise. I mentioned it in standup and asked everyone to fix steps as they hit them. Escalations dropped noticeably.";

describe("story shape", () => {
	it("reads actions, an outcome and a reflection in a story set at work", () => {
		const shape = storyShape(
			`${RUNBOOKS} Looking back, I should have asked the team before deleting the alerts.`,
		);
		expect(shape.actions).toBeGreaterThanOrEqual(2);
		expect(shape.outcome).toBe(true);
		expect(shape.reflection).toBe(true);
		expect(shape.score).toBe(1);
	});

	it("gives a story outside work no shape, however it is told", () => {
		const shape = storyShape(
			"I got into baking sourdough during a long winter. I fed the starter twice a day and I named it. It doubled in a week, and I learned to read it over time.",
		);
		expect(shape.actions).toBeGreaterThanOrEqual(2);
		expect(shape.work).toBeLessThan(2);
		expect(shape.score).toBe(0);
	});

	it("reads an outcome in quantities spelled out and a reflection in what failed", () => {
		const shape = storyShape(
			"Onboarding a new developer on my team took a week. I wrote a setup script. I sat with the next hire. Setup went down to about half a day. What failed: the first version, because nobody owned it.",
		);
		expect(shape.outcome).toBe(true);
		expect(shape.reflection).toBe(true);
		expect(shape.score).toBe(1);
		const plain = storyShape(
			"Onboarding a new developer on my team took a week. I wrote a setup script. I sat with the next hire.",
		);
		expect(plain.outcome).toBe(false);
		expect(plain.reflection).toBe(false);
	});

	it("gives no outcome to actions that change nothing", () => {
		const shape = storyShape("I joined the team last year. We use a release pipeline and code review.");
		expect(shape.outcome).toBe(false);
		expect(shape.score).toBeLessThan(STORY_EXPLAINS);
	});
});

describe("a behavioural answer explained by its story", () => {
	const q = bankQuestion("leadership-j1");

	it("takes a story with one concept as on topic and scores it as an explanation", () => {
		const claims = analyseClaims(q, RUNBOOKS);
		expect(claims.story).toBeGreaterThanOrEqual(STORY_EXPLAINS);
		expect(claims.onTopic).toBe(true);
		const s = scoreAnswerOffline(q, RUNBOOKS, 60);
		expect(s.review_flags).not.toContain("off_topic");
		expect(s.review_flags).not.toContain("unsupported");
		expect(s.score).toBeGreaterThanOrEqual(40);
	});

	it("reads no story for a technical question", () => {
		expect(analyseClaims(bankQuestion("sql-s1"), RUNBOOKS).story).toBe(0);
	});

	it("keeps a story about a hobby off topic", () => {
		const s = scoreAnswerOffline(
			q,
			"I once took the initiative to organise a neighbourhood garage sale. I printed flyers, talked to maybe thirty households, and we picked a Saturday in May. We raised enough to repaint the playground fence.",
			60,
		);
		expect(s.score).toBeLessThan(10);
	});
});

describe("story-part concepts", () => {
	const q = bankQuestion("leadership-j1");
	// No keyword of the rubric's setting, own actions or result: the story says them in its own words.
	const OWN_WORDS =
		"Our release notes were assembled by hand from chat every Friday and always missed fixes. Nobody asked me to, but I collected the merged pull requests with a small script, grouped them by label and posted a draft for the team to edit. I asked two colleagues to check it. Writing the notes went from two hours to fifteen minutes.";

	it("credits the setting, own actions and outcome a story at work shows in its own words", () => {
		const claims = analyseClaims(q, OWN_WORDS);
		const names = claims.matched.map((m) => m.concept);
		expect(names).toEqual(
			expect.arrayContaining(["situation and context", "own actions", "measurable result"]),
		);
		expect(claims.onTopic).toBe(true);
		expect(scoreAnswerOffline(q, OWN_WORDS, 60).score).toBeGreaterThanOrEqual(50);
	});

	it("credits no story part to a story that does not explain", () => {
		const claims = analyseClaims(q, "Our release notes were assembled by hand. The team was busy.");
		expect(claims.story).toBeLessThan(STORY_EXPLAINS);
		expect(claims.matched.map((m) => m.concept)).not.toContain("own actions");
	});

	it("reads habits as no steps of a story", () => {
		const habits = storyShape(
			"I usually take initiative at work. If I see code that could be better I improve it, and whenever we have a slow test I fix it for the team.",
		);
		expect(habits.actions).toBe(0);
		expect(habits.score).toBeLessThan(STORY_EXPLAINS);
	});

	it("counts the further steps one sentence joins with then or and as actions", () => {
		const joined = storyShape(
			"The setup guide for our team was out of date. I kept notes on every problem, then wrote a setup script and asked the next two hires to try it.",
		);
		expect(joined.actions).toBe(3);
		expect(joined.score).toBeGreaterThanOrEqual(STORY_EXPLAINS);
		// Nouns joined by "and" are not steps; a denied verb is no step either.
		expect(storyShape("I wrote a script and a README for the team's release.").actions).toBe(1);
		expect(storyShape("I wrote a script for the team and didn't test it.").actions).toBe(1);
	});

	it("sets a story at work by general workplace words", () => {
		expect(
			storyShape("Our support staff kept a spreadsheet by hand. I moved it into the database.").work,
		).toBeGreaterThanOrEqual(2);
	});

	it("keeps a story outside work off topic though it reuses a noun of the question", () => {
		const culture = bankQuestion("leadership-e1");
		const text =
			"My sourdough culture has lived for four years and the strategy is simple: feed it daily. Across several kitchens we compared loaves. What did not work was the fridge for a month; it took a week to recover.";
		const claims = analyseClaims(culture, text);
		expect(claims.onTopic).toBe(false);
		expect(scoreAnswerOffline(culture, text, 60).score).toBeLessThan(10);
	});
});
