import { describe, expect, it } from "vitest";
import { BANKS } from "../../src/interviewer/bank";
import { LINKS } from "../../src/interviewer/bank/links";
import { MORE_MISCONCEPTIONS } from "../../src/interviewer/bank/misconceptions";
import { PLAIN_WORDS } from "../../src/interviewer/bank/plain-words";
import { ANTONYMS } from "../../src/interviewer/claim-words";
import { analyseClaims, describePattern, findLinks, judgeLinks } from "../../src/interviewer/claims";
import { analyse, findAny } from "../../src/interviewer/language";
import { OfflineInterviewer } from "../../src/interviewer/offline";
import { OVERCLAIM_FACTOR, UNSUPPORTED_CAP, unsupportedCap } from "../../src/interviewer/scoring";
import type { PlannedQuestion } from "../../src/interviewer/types";
import { bankQuestion } from "../support/interviewer-fixtures";

const interviewer = new OfflineInterviewer();

/** The question without its misconception list: only the general mechanisms judge the answer. */
function withoutLists(id: string): PlannedQuestion {
	return { ...bankQuestion(id), misconceptions: [] };
}

const sqlIndexes = withoutLists("sql-i1");
const eventLoop = withoutLists("javascript-i1");
const closures = withoutLists("javascript-i2");

describe("expected links with a direction", () => {
	it("judges a link stated the opposite way round as a misconception, named by the link", async () => {
		const wrong =
			"Every index makes inserts and updates faster, because the database knows where each row goes.";
		const right =
			"Every index makes inserts and updates slower, because each write must also update the index.";
		const judged = judgeLinks(wrong, sqlIndexes.links ?? []);
		expect(judged.inverted.map((m) => m.claim)).toContain(
			"indexes slow writes down rather than speeding them up",
		);
		expect(judged.made.map((l) => l.concept)).not.toContain("faster reads at the cost of writes");
		expect(judgeLinks(right, sqlIndexes.links ?? []).made.map((l) => l.concept)).toContain(
			"faster reads at the cost of writes",
		);
		expect(judgeLinks(right, sqlIndexes.links ?? []).inverted).toEqual([]);
		const score = await interviewer.scoreAnswer(sqlIndexes, wrong, 30);
		expect(score.review_flags).toContain("misconception");
		expect(score.misconceptions?.map((m) => m.claim)).toContain(
			"indexes slow writes down rather than speeding them up",
		);
		expect(score.score).toBeLessThan((await interviewer.scoreAnswer(sqlIndexes, right, 30)).score);
	});

	it("reads a denial of the expected direction as inverted, and a denial of the opposite as right", () => {
		const links = sqlIndexes.links ?? [];
		expect(judgeLinks("An index does not slow down writes at all.", links).inverted).toHaveLength(1);
		expect(
			judgeLinks("An index does not make writes faster; each one must be maintained.", links).inverted,
		).toEqual([]);
		// A negation far from the effect does not deny it.
		expect(
			judgeLinks(
				"The plan should show an index, not a full pass; unused indexes go, since each slows writes.",
				links,
			).inverted,
		).toEqual([]);
	});

	it("reads a direction within its own clause: ', and' starts another", () => {
		const links = eventLoop.links ?? [];
		const wrongWay = (text: string) => judgeLinks(text, links).inverted.map((m) => m.claim);
		expect(
			wrongWay(
				"An await continuation runs before any pending timer, and an endless chain of microtasks starves rendering.",
			),
		).toEqual([]);
		expect(wrongWay("A pending timer runs before the microtasks.")).toEqual([
			"a resolved promise's callback runs before setTimeout(0)",
		]);
	});

	it("judges swapped subjects of an ordered link as inverted (timers before promises)", () => {
		const links = eventLoop.links ?? [];
		const right =
			"Promise callbacks run before setTimeout callbacks, because the microtask queue drains first.";
		const swapped = "setTimeout callbacks run before promise callbacks, since timers were queued earlier.";
		expect(judgeLinks(right, links).inverted).toEqual([]);
		expect(judgeLinks(right, links).made.map((l) => l.concept)).toContain("ordering: microtasks drain first");
		expect(judgeLinks(swapped, links).inverted.map((m) => m.claim)).toContain(
			"a resolved promise's callback runs before setTimeout(0)",
		);
	});

	it("does not take a denied effect as an explanation of it", () => {
		const links = closures.links ?? [];
		expect(
			findLinks("A closure keeps its variables alive, so it can leak memory.", links).map((l) => l.concept),
		).toContain("memory retention");
		expect(
			findLinks("Closures are released when the function returns, so they can never leak memory.", links).map(
				(l) => l.concept,
			),
		).not.toContain("memory retention");
	});

	it("reads a purpose ('use X to do Y', 'in order to') as joining cause and effect", () => {
		const links = withoutLists("testing-e1").links ?? [];
		const concepts = (text: string) => findLinks(text, links).map((l) => l.concept);
		expect(
			concepts("Deterministic simulation with a fixed seed: use it to replay the same failure again."),
		).toContain("deterministic simulation");
		expect(concepts("In order to reproduce the same failure, run a deterministic simulation.")).toContain(
			"deterministic simulation",
		);
		// The same words without the purpose are side by side, not joined.
		expect(
			concepts("Deterministic simulation with a fixed seed replays the same failure again."),
		).not.toContain("deterministic simulation");
		// "to" with no purpose verb before it is no purpose.
		expect(concepts("Deterministic simulation is hard to replay the same way again.")).not.toContain(
			"deterministic simulation",
		);
	});

	it("describes a pattern in words for a model's prompt", () => {
		expect(describePattern(">^before|first & settimeout|timer")).toBe(
			"before or first + settimeout or timer",
		);
	});
});

describe("paraphrases and inflections", () => {
	it("matches a rubric word through its synonyms and inflections, by lemma", () => {
		const [s] = analyse("The lookups were quicker once we committed the change.");
		expect(findAny(s?.tokens ?? [], ["fast"])).not.toBeNull();
		expect(findAny(s?.tokens ?? [], ["commit"])).not.toBeNull();
		expect(findAny(s?.tokens ?? [], ["find"])).not.toBeNull();
		expect(findAny(s?.tokens ?? [], ["slow"])).toBeNull();
	});

	it("reads a negation written with a typographic apostrophe", () => {
		const [s] = analyse("Indexes don\u2019t make writes faster.");
		expect(s?.tokens.some((t) => t.negative)).toBe(true);
		expect(s?.tokens.map((t) => t.word)).toContain("do");
	});

	it("credits a concept explained in plain words, without the bank's keywords", () => {
		const q = bankQuestion("aws-j1");
		const text =
			"Uploads go to Amazon's simple storage service through a short signed link, so the files never pass through our servers.";
		const claims = analyseClaims(q, text);
		expect(claims.matched.map((m) => m.concept)).toContain("object storage");
	});
});

describe("content without established links", () => {
	it("keeps vocabulary without any expected link at partial, flagged unsupported", async () => {
		const text =
			"We have B-trees, composite indexes and covering indexes. Selectivity is a topic I know. The query plan is something I look at with EXPLAIN. Write amplification exists.";
		const score = await interviewer.scoreAnswer(sqlIndexes, text, 30);
		expect(score.review_flags).toContain("unsupported");
		expect(score.components.content).toBeLessThanOrEqual(unsupportedCap(score.components.coverage));
		expect(score.explained).toEqual([]);
	});

	it("raises the unsupported cap only with coverage above 0.6, to 0.45 at full coverage", () => {
		expect(unsupportedCap(0.4)).toBe(UNSUPPORTED_CAP);
		expect(unsupportedCap(0.6)).toBe(UNSUPPORTED_CAP);
		expect(unsupportedCap(0.8)).toBeCloseTo(0.4, 5);
		expect(unsupportedCap(1)).toBeCloseTo(0.45, 5);
	});

	it("halves an answer made mostly of sweeping claims and denials, flagged overclaim", async () => {
		const sweeping =
			"An index always makes every query faster, because the database finds rows directly. B-trees never need to be rebalanced, so they are free. Column order never matters in a composite index. You never need EXPLAIN.";
		const score = await interviewer.scoreAnswer(sqlIndexes, sweeping, 30);
		expect(score.review_flags).toContain("overclaim");
		expect(OVERCLAIM_FACTOR).toBeLessThan(1);
		expect(score.score).toBeLessThan(25);
	});

	it("gives identical judgements for the same text, whatever was analysed in between", () => {
		const text = "Every index makes writes slower, because each insert must update the sorted tree.";
		const first = JSON.stringify(analyseClaims(sqlIndexes, text));
		for (let i = 0; i < 100; i++) analyse(`Filler answer number ${i} about queues and retries.`);
		expect(JSON.stringify(analyseClaims(sqlIndexes, text))).toBe(first);
	});
});

describe("the evaluated questions' rubric", () => {
	const questions = new Map(BANKS.flatMap((b) => b.questions.map((q) => [q.id, q] as const)));

	it("names only existing concepts in its links and plain words, and links every evaluated question", () => {
		for (const [id, links] of Object.entries(LINKS)) {
			const q = questions.get(id);
			expect(q, id).toBeDefined();
			for (const l of links)
				expect(
					q?.concepts.map((c) => c.name),
					`${id}: ${l.concept}`,
				).toContain(l.concept);
			expect(q?.links?.length ?? 0).toBeGreaterThanOrEqual(links.length);
		}
		for (const [id, words] of Object.entries(PLAIN_WORDS))
			for (const name of Object.keys(words))
				expect(
					questions.get(id)?.concepts.map((c) => c.name),
					`${id}: ${name}`,
				).toContain(name);
		for (const id of Object.keys(MORE_MISCONCEPTIONS))
			expect(questions.get(id)?.misconceptions?.length).toBeGreaterThan(0);
		expect(Object.keys(LINKS)).toHaveLength(37);
	});

	it("gives every direction group of a link an opposite", () => {
		const polar = new Set(ANTONYMS.flatMap(([a, b]) => [...a, ...b]));
		for (const q of questions.values())
			for (const l of q.links ?? [])
				for (const e of l.effect)
					for (const group of e.replace(/^\s*>/, "").split("&"))
						if (group.trim().startsWith("^"))
							for (const alt of group.trim().slice(1).split("|"))
								expect(polar.has(alt.trim()), `${q.id}: ${alt}`).toBe(true);
	});
});

describe("correct explanations that qualify and deny", () => {
	// Written for this test from the subjects' facts; correct answers often say what does NOT happen.
	const CORRECT: Array<[string, string]> = [
		[
			"javascript-i1",
			"JavaScript runs on a single thread with one call stack. Microtasks such as promise callbacks run before the next macrotask like a setTimeout callback, because the engine drains the whole microtask queue after each task. await does not block the thread; the rest of the async function is queued as a microtask.",
		],
		[
			"react-j1",
			"Props are passed down from the parent and are read-only for the child; state is owned by the component. Calling the state setter schedules a re-render with the new value, so the value does not change immediately. Mutating state directly does not trigger a re-render, so you create a new object or array. Changing a ref does not re-render either.",
		],
		[
			"sql-s1",
			"A transaction is all or nothing: atomicity, consistency, isolation, durability. Read committed prevents dirty reads; repeatable read also prevents non-repeatable reads; serializable prevents write skew and phantoms, usually through MVCC snapshots with conflict checks rather than running transactions one at a time. Serialization failures and deadlocks mean the application must retry.",
		],
		[
			"system-design-i1",
			"POST /links creates a short code and GET /{code} answers with a 302 redirect to the long URL. Codes come from a counter encoded in base62, so they are short and unique with no collisions; hashing the URL instead needs collision handling. A key-value store maps code to URL, and since reads dominate, a Redis cache in front serves popular links.",
		],
		[
			"mongodb-s1",
			"Write concern w: 1 is acknowledged by the primary alone, so a write can still roll back after a failover; w: majority waits until most members have it. Single-document operations are atomic, so a lone insert needs no transaction. Read concern majority returns only data a majority has committed; it does not choose the node, which is what read preference does.",
		],
		[
			"testing-j1",
			"Unit tests check one function in isolation, usually replacing collaborators with fakes, and they pinpoint the broken line. Integration tests exercise real parts together, and end-to-end tests drive the whole system like a user. End-to-end tests are slow and flaky, so you keep few of them; unit tests are not made redundant by them, because an end-to-end failure rarely tells you which line is wrong.",
		],
		[
			"leadership-e1",
			"Across four teams I started a design review forum. I asked the leads for feedback early, and the people who pushed back had good reasons: the first version was too heavy, so we cut it to one page. I did not rank teams in public or escalate anyone who disagreed. What did not work was a mandate I tried first; culture changed only once the teams shaped the process themselves. Within a quarter all four teams used the forum and design rework fell by half, and I learned to start with the people who disagree.",
		],
	];

	for (const [id, text] of CORRECT)
		it(`finds no misconception, inversion or overclaim in a correct answer to ${id}`, async () => {
			const score = await interviewer.scoreAnswer(bankQuestion(id), text, 45);
			expect(score.misconceptions).toEqual([]);
			expect(score.review_flags).not.toContain("overclaim");
			expect(score.score).toBeGreaterThan(45);
		});

	it("reads 'rather than' and 'instead of' as denials", () => {
		const [s] = analyse("It uses snapshots rather than locks, instead of waiting.");
		expect(s?.tokens.filter((t) => t.negative).map((t) => t.word)).toEqual(["rather", "instead"]);
	});
});
