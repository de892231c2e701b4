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
