import { describe, expect, it } from "vitest";
import { OfflineInterviewer } from "../../src/interviewer";
import { analyseClaims, explainingOf } from "../../src/interviewer/claims";
import {
	contentOf,
	depthOf,
	EXPLAINING_CREDIT,
	LENGTH_FOR_FULL_DEPTH,
	OVERCLAIM_AT,
	SHORT_ANSWER_SHARE,
	SHORT_ANSWER_UNTIL,
	SWEEPING_AT,
	SWEEPING_FACTOR,
	scoreAnswerOffline,
} from "../../src/interviewer/scoring";
import { collapseSpaces } from "../../src/interviewer/text";
import type { PlannedQuestion } from "../../src/interviewer/types";
import { bankQuestion, context } from "../support/interviewer-fixtures";

const interviewer = new OfflineInterviewer();

const OFF_TOPIC =
	"I really enjoy hiking in the mountains at weekends with my family. Last summer we walked for three weeks across the Alps, which was wonderful and relaxing, and the food in the huts was excellent.";

const STRONG: Record<string, string> = {
	"sql-i1": `Most relational databases implement an index as a B-tree: a balanced, sorted structure, so a lookup is
logarithmic instead of a full table scan. The trade-off is write amplification: every insert or update also has to
maintain each index, so writes get slower and storage grows. I choose indexes from the real query patterns, preferring
columns with high selectivity, and for a composite index the column order matters because of the leftmost prefix rule.
Finally I verify with EXPLAIN that the planner actually uses it, and sometimes add a covering index so the query is index-only.`,
	"javascript-i1": `JavaScript runs your code on a single-threaded call stack. When the stack is empty, the event loop takes the
next macrotask, for example a setTimeout callback or an I/O event. After each task it drains the whole microtask queue,
which holds promise callbacks, so a resolved promise's then runs before the next timer. This is why I/O stays non-blocking
while a long synchronous loop freezes everything: nothing else can run until the stack is empty.`,
	"kubernetes-i1": `A liveness probe tells the kubelet when to restart a container that is stuck, while a readiness probe
decides whether the pod receives traffic from the Service, so a pod that is warming up is simply not ready. For slow
starting apps I add a startup probe so liveness does not kill them early. Requests are what the scheduler uses to place
the pod on a node, and limits cap usage: above the memory limit the container is OOMKilled, above the CPU limit it is
throttled. Getting these right matters because bad probes cause restart storms and missing requests cause noisy neighbours.`,
	"behavioural-s1": `At my previous company our team had to choose a message queue, and I strongly disagreed with my tech lead who
wanted to build our own on top of the database. First I listened and asked why: his concern was operational cost. Then I
built a small prototype and a benchmark comparing both options, and shared the data with the team. We agreed on a managed
queue with a clear rollback plan. As a result we delivered two weeks earlier and reduced incidents, and I learned that
evidence settles arguments faster than opinions.`,
	"redis-i1": `I usually start with cache-aside: the application reads from Redis, and on a miss loads from the database and
writes the value back with a TTL. On writes I invalidate the key rather than update it, to avoid races. Expiry plus an
eviction policy like allkeys-lru under maxmemory keeps memory bounded. For hot keys I protect against a cache stampede with
a short lock or by adding jitter to the TTL. The trade-off is that readers may see stale data for up to the TTL, so I only
cache data where eventual consistency is acceptable.`,
};

async function score(q: PlannedQuestion, text: string, seconds = 60) {
	return (await interviewer.scoreAnswer(q, text, seconds)).score;
}

describe("answer scoring", () => {
	for (const [bankId, answer] of Object.entries(STRONG)) {
		it(`scores a strong answer to ${bankId} clearly above empty, one-word and off-topic answers`, async () => {
			const q = bankQuestion(bankId);
			const strong = await score(q, answer);
			const oneWord = q.concepts[0]?.keywords.find((k) => !q.text.toLowerCase().includes(k)) ?? "yes";
			expect(strong).toBeGreaterThanOrEqual(70);
			for (const weak of ["", "   ", oneWord, OFF_TOPIC]) {
				const s = await score(q, weak);
				expect(s, JSON.stringify(weak)).toBeLessThanOrEqual(30);
				expect(strong - s).toBeGreaterThanOrEqual(45);
			}
		});
	}

	it("scores a generic question for an unfamiliar skill by reasoning, examples and trade-offs", async () => {
		const plan = interviewer.plan(context({ skills: ["Terraform"], duration_minutes: 15 }));
		const q = (await interviewer.nextQuestion(plan, []))!;
		const strong = `For example, on a project at my last company we used Terraform for all our infrastructure. It is used for
declaring infrastructure as code, which lets you review changes before applying them, because the plan shows the diff. The
core idea is based on a state file that maps resources to real objects. Compared to click-ops the downside is the cost of
managing state and locking, and instead of one huge state we split it per environment. I always test changes in staging and
monitor the apply; as a result we reduced drift, and the main limitation we hit was slow plans. So it depends on the team size.`;
		expect(await score(q, strong)).toBeGreaterThan((await score(q, OFF_TOPIC)) + 40);
		expect(await score(q, "")).toBe(0);
	});

	it("keeps the evidence: matched concepts with the candidate's own words, and the missed ones", async () => {
		const q = bankQuestion("sql-i1");
		const answer =
			"Indexes are B-trees, so lookups avoid a full table scan. But every insert pays for write amplification.";
		const s = await interviewer.scoreAnswer(q, answer, 40);
		expect(s.matched.map((m) => m.concept)).toEqual([
			"B-tree structure",
			"faster reads at the cost of writes",
			"check with the query plan",
		]);
		for (const m of s.matched)
			expect(collapseSpaces(answer).toLowerCase()).toContain(m.snippet.toLowerCase().replace(/…/g, ""));
		expect(s.matched[0]?.keywords).toContain("b-trees");
		expect(s.missed).toEqual(["selectivity and composite order", "covering indexes"]);
		expect(s.follow_up).toBe("Could you say more about selectivity and composite order?");
		expect(s.word_count).toBe(17);
		expect(s.source).toBe("offline");
	});

	it("gives nothing for restating the question", async () => {
		const q = bankQuestion("sql-j1");
		expect(await score(q, q.text)).toBeLessThanOrEqual(10);
	});

	it("halves the credit of a short answer that admits not knowing", async () => {
		const q = bankQuestion("sql-i1");
		const said = "An index is a B-tree and I check it with EXPLAIN because it shows the plan.";
		const plain = await interviewer.scoreAnswer(q, `I think so. ${said}`, 30);
		const unsure = await interviewer.scoreAnswer(q, `I am not sure. ${said}`, 30);
		expect(unsure.components.coverage).toBe(plain.components.coverage);
		expect(unsure.components.content).toBeCloseTo(plain.components.content / 2, 1);
		expect(unsure.score).toBeLessThan(plain.score);
	});

	it("lowers the score of an answer given far over the time budget, but not of a quick one", async () => {
		const q = bankQuestion("sql-i1", 300);
		const text = STRONG["sql-i1"] as string;
		const onTime = await interviewer.scoreAnswer(q, text, 120);
		const quick = await interviewer.scoreAnswer(q, text, 5);
		const late = await interviewer.scoreAnswer(q, text, 900);
		expect(quick.score).toBe(onTime.score);
		expect(late.components.timing).toBe(0.3);
		expect(late.score).toBeLessThan(onTime.score);
	});

	it("rewards structure and reasoning on top of the same concepts", async () => {
		const q = bankQuestion("sql-i1");
		const terse = "b-tree write amplification selectivity explain covering index";
		const explained = STRONG["sql-i1"] as string;
		const a = await interviewer.scoreAnswer(q, terse, 60);
		const b = await interviewer.scoreAnswer(q, explained, 60);
		expect(a.components.coverage).toBe(1);
		expect(b.components.depth).toBeGreaterThan(a.components.depth);
		expect(b.components.structure).toBeGreaterThan(a.components.structure);
		expect(b.score).toBeGreaterThan(a.score + 15);
	});

	it("matches keywords as words, across spelling variants", async () => {
		const q = bankQuestion("sql-i1");
		const variants = await interviewer.scoreAnswer(
			q,
			"A btree index; writes suffer from write-amplification; check the query plans.",
			30,
		);
		expect(variants.matched.map((m) => m.concept)).toEqual([
			"B-tree structure",
			"faster reads at the cost of writes",
			"check with the query plan",
		]);
		const inside = await interviewer.scoreAnswer(bankQuestion("typescript-j1"), "I like cats and tests.", 30);
		expect(inside.matched).toEqual([]);
	});
});

describe("depth", () => {
	const sentence = "The index keeps keys sorted so lookups stay fast. ";
	const words = (n: number) =>
		sentence
			.repeat(Math.ceil(n / 9))
			.split(/\s+/)
			.slice(0, n)
			.join(" ");

	it("gives an answer of the expected length half of the length credit and twice that length all of it", () => {
		expect(depthOf(words(60), 60)).toBeCloseTo(0.6 * 0.5, 2);
		expect(depthOf(words(120), 60)).toBeCloseTo(0.6, 2);
		expect(depthOf(words(240), 60)).toBeCloseTo(0.6, 2);
		expect(LENGTH_FOR_FULL_DEPTH).toBe(2);
	});

	it("scores a fuller correct answer above the same answer cut to the expected length", () => {
		const q = bankQuestion("sql-i1");
		const full = collapseSpaces(STRONG["sql-i1"] ?? "");
		const cut = full
			.split(/(?<=\.)\s/)
			.slice(0, 2)
			.join(" ");
		const a = scoreAnswerOffline(q, cut, 60);
		const b = scoreAnswerOffline(q, full, 60);
		expect(b.components.depth).toBeGreaterThan(a.components.depth);
		expect(b.score).toBeGreaterThan(a.score);
	});
});

describe("explanation beyond the links", () => {
	const q = bankQuestion("javascript-i1");

	it("counts measured explaining sentences beyond the first link, weighted by coverage squared", () => {
		const text = collapseSpaces(STRONG["javascript-i1"] ?? "");
		const claims = analyseClaims(q, text);
		const judgement = { matched: claims.matched, missed: claims.missed, depth: 0.5, structure: 0.5 };
		const oneLink = { ...claims, links: claims.links.slice(0, 1), measured: 1 };
		const base = contentOf(q, judgement, oneLink).explanation;
		const more = contentOf(q, judgement, { ...oneLink, measured: 3 }).explanation;
		const coverage = claims.matched.length / q.concepts.length;
		expect(more - base).toBeCloseTo((EXPLAINING_CREDIT * coverage ** 2 * 2) / 2, 5);
		// Without a made link the sentences add nothing (the unsupported cap reads that case).
		expect(contentOf(q, judgement, { ...claims, links: [], measured: 3 }).explanation).toBe(0);
	});

	it("does not count a sentence that makes a sweeping claim as a measured explanation", () => {
		const rubric = ["event loop", "microtask"];
		const measured = explainingOf(
			"The event loop drains microtasks first because promises are queued there. The microtask queue empties before rendering, so a long chain can delay paint.",
			rubric,
		);
		expect(measured).toEqual({ all: 2, measured: 2 });
		const sweeping = explainingOf(
			"The event loop always drains microtasks first because promises are queued there. The microtask queue empties before rendering, so a long chain can delay paint.",
			rubric,
		);
		expect(sweeping).toEqual({ all: 2, measured: 1 });
	});
});

describe("short answers", () => {
	it("keep SHORT_ANSWER_SHARE of their content at no words, rising to all of it at SHORT_ANSWER_UNTIL times the expected words", () => {
		const q = bankQuestion("javascript-i1");
		const text = collapseSpaces(STRONG["javascript-i1"] ?? "");
		const claims = analyseClaims(q, text);
		const judgement = { matched: claims.matched, missed: claims.missed, depth: 0.5, structure: 0.5 };
		const until = SHORT_ANSWER_UNTIL * q.expected_words;
		const full = contentOf(q, judgement, { ...claims, words: until }).content;
		const half = contentOf(q, judgement, { ...claims, words: until / 2 }).content;
		const expected = contentOf(q, judgement, { ...claims, words: q.expected_words }).content;
		const longer = contentOf(q, judgement, { ...claims, words: 3 * q.expected_words }).content;
		expect(full).toBeGreaterThan(0.5);
		expect(half / full).toBeCloseTo(SHORT_ANSWER_SHARE + (1 - SHORT_ANSWER_SHARE) / 2, 5);
		// An answer of just the expected words does not yet keep all of its content.
		expect(expected).toBeLessThan(full);
		expect(longer).toBe(full);
	});
});

describe("sweeping sentences short of an overclaim", () => {
	it("keep SWEEPING_FACTOR of the content when 40% or more of 3+ sentences sweep, and all of it below", () => {
		const q = bankQuestion("javascript-i1");
		const text = collapseSpaces(STRONG["javascript-i1"] ?? "");
		const claims = analyseClaims(q, text);
		const judgement = { matched: claims.matched, missed: claims.missed, depth: 0.5, structure: 0.5 };
		const calm = { ...claims, sentences: 5, sweeping: 1 };
		const sweeping = { ...claims, sentences: 5, sweeping: 2 };
		expect(SWEEPING_AT).toBeLessThan(OVERCLAIM_AT);
		const a = contentOf(q, judgement, calm).content;
		const b = contentOf(q, judgement, sweeping).content;
		expect(a).toBeGreaterThan(0.5);
		expect(b / a).toBeCloseTo(SWEEPING_FACTOR, 5);
	});
});
