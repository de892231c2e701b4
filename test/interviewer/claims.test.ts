import { describe, expect, it } from "vitest";
import { findLinks, findMisconceptions, isKeywordList, onTopic } from "../../src/interviewer/claims";
import { analyse } from "../../src/interviewer/language";
import { OfflineInterviewer } from "../../src/interviewer/offline";
import { resultsSchema } from "../../src/interviewer/schemas";
import { bankQuestion, context, runInterview, strongAnswer } from "../support/interviewer-fixtures";

const interviewer = new OfflineInterviewer();
const sqlIndexes = bankQuestion("sql-i1");
const WRONG =
	"Indexes make writes faster because the database knows where each row goes, so index every column. A B-tree keeps keys unordered, and the column order in a composite index does not matter.";

describe("language analysis (compromise, inside workerd)", () => {
	it("gives roots and negation", () => {
		const [s] = analyse("We committed the writes but indexes don't make them faster.");
		expect(s?.tokens.find((t) => t.word === "committed")?.root).toBe("commit");
		expect(s?.tokens.some((t) => t.negative)).toBe(true);
	});
});

describe("claims", () => {
	it("finds a stated misconception but not its negation or a reported myth", () => {
		const list = sqlIndexes.misconceptions ?? [];
		expect(findMisconceptions("Indexes make writes faster.", list).map((m) => m.claim)).toEqual([
			"indexes slow writes down rather than speeding them up",
		]);
		expect(findMisconceptions("Indexes do not make writes faster.", list)).toEqual([]);
		expect(findMisconceptions("A common myth is that indexes make writes faster.", list)).toEqual([]);
		expect(findMisconceptions("Indexes make reads faster but writes slower.", list)).toEqual([]);
	});

	it("does not read a participial phrase after a comma as a claim of the clause before it", () => {
		const list = bankQuestion("testing-j1").misconceptions ?? [];
		const claims = (text: string) => findMisconceptions(text, list).map((m) => m.claim);
		const replaces = "unit tests do not replace integration tests";
		expect(
			claims("Unit tests check one function in isolation, usually replacing the database with fakes."),
		).toEqual([]);
		expect(claims("Unit tests check one function in isolation, replacing the database with fakes.")).toEqual(
			[],
		);
		expect(claims("Unit tests replace integration tests.")).toEqual([replaces]);
		// The clause before the phrase still says what it says.
		expect(claims("Unit tests are enough, covering every path.")).toEqual([replaces]);
	});

	it("finds the common wrong claims of the evaluated questions stated, and not denied", () => {
		// [question, a wrong statement, its denial or the correct statement, the claim]
		const cases: Array<[string, string, string, string]> = [
			[
				"react-j1",
				"Mutating state in place, like pushing into the array, triggers a render too.",
				"Mutating state in place does not trigger a re-render, so you copy the array.",
				"mutating state in place does not trigger a re-render",
			],
			[
				"mongodb-s1",
				"MongoDB doesn't guarantee atomicity even for a single-document update.",
				"Single-document updates are atomic.",
				"single-document operations are atomic",
			],
			[
				"system-design-i1",
				"A 301 lets you count every click.",
				"A 302 lets you count every click, while a 301 is cached by the browser.",
				"a 301 is cached by browsers, so not every click is counted",
			],
			[
				"javascript-i1",
				"Timers are higher priority, so setTimeout with zero delay runs before a promise callback.",
				"Microtasks have priority over timers, so a promise callback runs before setTimeout with zero delay.",
				"timers do not run before promise callbacks",
			],
			[
				"sql-s1",
				"Read committed is already the strongest practical level.",
				"Most systems default to read committed; serializable is the strongest level.",
				"read committed is not the strongest level",
			],
			[
				"react-j1",
				"Re-renders happen only when a component's props change.",
				"Its props only change because the parent rendered.",
				"a component also re-renders when its parent does, not only when its props change",
			],
			[
				"leadership-j1",
				"I merged it on Monday using my admin rights.",
				"I merged it on Monday after the review.",
				"forcing a change through with admin rights is not initiative",
			],
			[
				"aws-s1",
				"Reserved capacity is always the cheapest option on AWS.",
				"Reserved capacity is not always the cheapest option for spiky load.",
				"reserved capacity is not always the cheapest for spiky load",
			],
			[
				"leadership-e1",
				"The leads who pushed back were just resistant to change.",
				"The leads who pushed back were not resistant to change; they had reasons.",
				"people who push back are not simply resistant to change",
			],
		];
		for (const [id, wrong, right, claim] of cases) {
			const list = bankQuestion(id).misconceptions ?? [];
			expect(findMisconceptions(wrong, list).map((m) => m.claim)).toContain(claim);
			expect(findMisconceptions(right, list).map((m) => m.claim)).not.toContain(claim);
		}
	});

	it("reads clauses joined by ', and' or ', or' apart: a negation in one does not deny the other", () => {
		const list = bankQuestion("system-design-i1").misconceptions ?? [];
		const claims = (text: string) => findMisconceptions(text, list).map((m) => m.claim);
		expect(
			claims(
				"I'd hand out ids from a counter so there are no collisions, or use a hash with a collision check.",
			),
		).toEqual([]);
		// Within one clause the claim is still read.
		expect(claims("A hash will never collide, and we ship it.")).toContain(
			"hashing long URLs can collide; handle collisions",
		);
	});

	it("marks a claim both stated and denied as a contradiction", () => {
		const found = findMisconceptions(
			"Indexes make writes faster. Then again, indexes do not make writes faster.",
			sqlIndexes.misconceptions ?? [],
		);
		expect(found[0]?.contradicted).toBe(true);
	});

	it("tells a list of terms from an explanation", () => {
		expect(
			isKeywordList("B-tree, selectivity, composite index, covering index, EXPLAIN, write amplification."),
		).toBe(true);
		expect(
			isKeywordList(
				"The B-tree keeps keys sorted, so a lookup reads a few pages instead of the whole table.",
			),
		).toBe(false);
	});

	it("reads items joined by a run of 'and' as a list, and prose with 'and' as prose", () => {
		expect(isKeywordList("B-tree and selectivity and composite index and covering index and EXPLAIN")).toBe(
			true,
		);
		expect(
			isKeywordList(
				"The planner reads the statistics and picks the index, and the B-tree keeps keys sorted so a lookup reads a few pages and stops.",
			),
		).toBe(false);
	});

	it("scores a keyword list and a confident wrong answer below a real explanation, flagged", async () => {
		const list = await interviewer.scoreAnswer(
			sqlIndexes,
			"B-tree, selectivity, composite index, covering index, EXPLAIN, write amplification, query plan.",
			40,
		);
		const wrong = await interviewer.scoreAnswer(sqlIndexes, WRONG, 40);
		const right = await interviewer.scoreAnswer(sqlIndexes, strongAnswer(sqlIndexes), 40);
		expect(list.review_flags).toContain("keyword_list");
		expect(list.score).toBeLessThanOrEqual(20);
		expect(wrong.review_flags).toContain("misconception");
		expect(wrong.misconceptions?.length).toBeGreaterThanOrEqual(2);
		expect(wrong.score).toBeLessThan(25);
		expect(right.score).toBeGreaterThan(75);
	});

	it("gives an off-topic story that reuses a rubric word, and I don't know, under 10", async () => {
		const story = await interviewer.scoreAnswer(
			sqlIndexes,
			"I organised our recipe book. For example, I sorted everything by cuisine and added a table of contents, so people found dishes quickly.",
			20,
		);
		expect(story.score).toBeLessThan(10);
		expect(story.review_flags).toContain("off_topic");
		expect((await interviewer.scoreAnswer(sqlIndexes, "I don't know.", 5)).score).toBeLessThan(10);
	});

	it("does not take the question's instruction ('Design a URL shortener') for its subject", () => {
		const shortener = bankQuestion("system-design-i1");
		// Two rubric words in other senses, and the question's first word as the only shared one.
		expect(
			onTopic(shortener, "I had to design the seating plan for a wedding and moved notes around.", 2, 0),
		).toBe(false);
		expect(
			onTopic(shortener, "I would scale the reads of short links with a cache in front of the store.", 2, 0),
		).toBe(true);
	});

	it("reads 'by' as causal only when it names something after it", async () => {
		const generators = bankQuestion("python-i1");
		const links = (text: string) => findLinks(text, generators.links ?? []).map((l) => l.concept);
		expect(
			links("A generator is lazy, and it keeps memory small by never building the whole list."),
		).toContain("lazy evaluation and memory");
		// Stranded at the end of its clause, "by" joins nothing.
		expect(links("A generator my uncle swore by, a huge diesel thing.")).toEqual([]);
		// A size must name what is large: a big storm is not a large input.
		expect(links("We bought a generator after the big storm, when the power was out.")).toEqual([]);
		expect(links("A generator reads a huge file line by line, so memory stays flat.")).toContain(
			"lazy evaluation and memory",
		);
		const story = await interviewer.scoreAnswer(
			generators,
			"We had a generator at the cabin that my uncle swore by, a big diesel thing behind the woodpile. Every winter the lines went down and starting it took three pulls and a kick. Those were the best nights of the holiday.",
			30,
		);
		expect(story.score).toBeLessThan(10);
	});

	it("names misconceptions in areas for improvement and never quotes them as strengths", async () => {
		const plan = interviewer.plan(context({ skills: ["SQL"], duration_minutes: 15 }));
		const history = await runInterview(interviewer, plan, (q) =>
			q.bank_id === "sql-i1" ? WRONG : strongAnswer(q),
		);
		const { results } = interviewer.finalize(plan, history);
		const wrong = history.find((h) => h.question.bank_id === "sql-i1");
		if (wrong) {
			expect(results.strengths.join("\n")).not.toContain("on indexing");
			for (const m of wrong.score?.misconceptions ?? [])
				expect(results.areas_for_improvement.join("\n")).toContain(m.claim);
		}
		expect(resultsSchema.safeParse(results).success).toBe(true);
		expect(results.confidence).toBeGreaterThan(0);
	});
});

describe("determinism", () => {
	it("scores the same answer to the same question identically, every time", async () => {
		const first = await interviewer.scoreAnswer(sqlIndexes, WRONG, 40);
		await interviewer.scoreAnswer(sqlIndexes, strongAnswer(sqlIndexes), 12);
		expect(await interviewer.scoreAnswer(sqlIndexes, WRONG, 40)).toEqual(first);
	});

	it("gives identical results for two interviews with the same plan and answers", async () => {
		const answer = (q: Parameters<typeof strongAnswer>[0], i: number) => (i % 2 ? strongAnswer(q) : WRONG);
		const run = async () => {
			const plan = interviewer.plan(
				context({ skills: ["SQL", "JavaScript", "React"], duration_minutes: 30 }),
			);
			const history = await runInterview(interviewer, plan, answer);
			return { history, ...interviewer.finalize(plan, history) };
		};
		const a = await run();
		const b = await run();
		expect(JSON.stringify(b)).toBe(JSON.stringify(a));
		expect(a.history.length).toBeGreaterThan(3);
	});
});
