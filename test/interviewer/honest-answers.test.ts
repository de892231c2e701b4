/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import { analyseClaims, findMisconceptions, isKeywordList, onTopic } from "../../src/interviewer/claims";
import { scoreAnswerOffline } from "../../src/interviewer/scoring";
import { bankQuestion } from "../support/interviewer-fixtures";

interface SetFile {
	questions: { question_id: string; answers: { kind: string; grade: number | null; text: string }[] }[];
}

// The development answer sets only (tune, tune2 and the three retired held-out sets).
const SETS: Record<string, SetFile> = {
	...import.meta.glob<SetFile>("../../eval/data/*.json", { eager: true, import: "default" }),
	...import.meta.glob<SetFile>("../../eval/tune2/*.json", { eager: true, import: "default" }),
	...import.meta.glob<SetFile>("../../eval/holdout2/*.json", { eager: true, import: "default" }),
	...import.meta.glob<SetFile>("../../eval/holdout3/*.json", { eager: true, import: "default" }),
};

describe("honest answers in the development sets", () => {
	const rows = Object.entries(SETS).flatMap(([file, set]) =>
		set.questions.flatMap((q) =>
			q.answers
				.filter((a) => a.kind === "expert" || a.kind === "good")
				.map((a) => ({ file, id: q.question_id, kind: a.kind, text: a.text })),
		),
	);

	it("reads every set", () => {
		expect(Object.keys(SETS).length).toBeGreaterThanOrEqual(36);
		expect(rows.length).toBeGreaterThan(100);
	});

	it("never scores an expert or good answer 0 or finds a misconception in it", () => {
		const zeroed: string[] = [];
		const alarms: string[] = [];
		for (const row of rows) {
			const s = scoreAnswerOffline(bankQuestion(row.id), row.text, 60);
			if (s.score === 0) zeroed.push(`${row.file} ${row.id} ${row.kind}`);
			if ((s.misconceptions ?? []).length > 0)
				alarms.push(`${row.file} ${row.id} ${row.kind}: ${s.misconceptions?.[0]?.claim}`);
		}
		expect(zeroed).toEqual([]);
		expect(alarms).toEqual([]);
	});

	it("never scores a correct answer under a shorter one it extends with more correct content", () => {
		const q = bankQuestion("sql-s1");
		const short =
			"Isolation levels trade consistency for concurrency. Read committed prevents dirty reads because a transaction only sees committed rows.";
		const long = `${short} Repeatable read also prevents non-repeatable reads, since each transaction reads from its own snapshot, and serializable prevents phantoms too. Under MVCC readers do not block writers, so throughput stays high; with locking, a deadlock can abort one transaction, which the application should retry.`;
		const a = scoreAnswerOffline(q, short, 60);
		const b = scoreAnswerOffline(q, long, 60);
		expect(b.matched.length).toBeGreaterThan(a.matched.length);
		expect(b.score).toBeGreaterThanOrEqual(a.score);
	});
});

describe("on topic", () => {
	const q = bankQuestion("leadership-j1");

	it("takes a story in its own nouns as on topic when it shows two concepts and shares the question's verb", () => {
		const story =
			"At my last company the release process was manual and took a whole day. Nobody had asked for a change, but one weekend the riskiest steps got scripted and shown to everyone.";
		const claims = analyseClaims(q, story);
		expect(claims.matched.length).toBe(2);
		expect(claims.onTopic).toBe(true);
		expect(scoreAnswerOffline(q, story, 60).score).toBeGreaterThan(0);
	});

	it("keeps a story with one rubric word and no shared subject off topic", () => {
		expect(onTopic(q, "We went hiking last summer and the weather was lovely at my favourite lake.", 1)).toBe(
			false,
		);
		const s = scoreAnswerOffline(
			q,
			"We went hiking last summer and the weather was lovely at my favourite lake.",
			60,
		);
		expect(s.score).toBeLessThan(10);
	});
});

describe("misconceptions read as claims", () => {
	it("does not read a claim after 'as if' as stated, but reads it stated plainly", () => {
		const list = bankQuestion("sql-s1").misconceptions ?? [];
		const claim = "serializable does not mean transactions run one at a time";
		expect(
			findMisconceptions(
				"Serializable prevents every anomaly, behaving as if transactions ran one at a time.",
				list,
			),
		).toEqual([]);
		expect(
			findMisconceptions("Serializable runs transactions one at a time.", list).map((m) => m.claim),
		).toContain(claim);
	});

	it("does not read a claim after 'like' following a verb of seeming as stated", () => {
		const list = bankQuestion("sql-s1").misconceptions ?? [];
		const claim = "serializable does not mean transactions run one at a time";
		expect(
			findMisconceptions(
				"Serializable prevents all of them and behaves like the transactions ran one at a time.",
				list,
			),
		).toEqual([]);
		expect(
			findMisconceptions("Serializable runs transactions one at a time, like a queue.", list).map(
				(m) => m.claim,
			),
		).toContain(claim);
	});

	it("reads an ordered pattern only with its subject first", () => {
		const list = bankQuestion("mongodb-s1").misconceptions ?? [];
		const claim = "replica set secondaries do not accept writes";
		expect(
			findMisconceptions("One primary takes writes and replicates its oplog to the secondaries.", list).map(
				(m) => m.claim,
			),
		).not.toContain(claim);
		expect(
			findMisconceptions("Any secondary can take writes when the primary is busy.", list).map((m) => m.claim),
		).toContain(claim);
	});

	it("reads 'the most' of end-to-end tests as a claim about their number, not their confidence", () => {
		const list = bankQuestion("testing-j1").misconceptions ?? [];
		const claim = "end-to-end tests should be the fewest, not the most";
		expect(
			findMisconceptions("End-to-end tests give the most confidence but are slow and brittle.", list).map(
				(m) => m.claim,
			),
		).not.toContain(claim);
		expect(
			findMisconceptions("Most of your tests should be end-to-end tests through the browser.", list).map(
				(m) => m.claim,
			),
		).toContain(claim);
	});

	it("reads 'without' right before a claim as its denial", () => {
		const initiative = bankQuestion("leadership-j1").misconceptions ?? [];
		expect(
			findMisconceptions(
				"I rewrote the deploy script over a weekend without telling anyone.",
				initiative,
			).map((m) => m.claim),
		).toContain("acting without telling anyone is not initiative");
		expect(
			findMisconceptions(
				"I told the team lead and everyone on the rota before I changed the script.",
				initiative,
			),
		).toEqual([]);
		const loop = bankQuestion("javascript-i1").misconceptions ?? [];
		const claim = "await does not block the thread";
		expect(
			findMisconceptions("An await pauses the async function without blocking the thread.", loop).map(
				(m) => m.claim,
			),
		).not.toContain(claim);
		expect(
			findMisconceptions("An await blocks the thread until the promise settles.", loop).map((m) => m.claim),
		).toContain(claim);
	});
});

describe("keyword lists", () => {
	const q = bankQuestion("python-i1");
	// Dense prose (an expert answer of eval/holdout3): colons, comma runs, few verbs per fragment.
	const dense =
		"An iterable has __iter__, which returns an iterator; an iterator has __next__, which returns the next value or raises StopIteration, and it is single-pass. A generator is the shortcut for writing iterators: a function with yield. Calling it returns a generator object without running the body; each next() resumes until the next yield, keeping local state. Why: laziness. for line in open(path): yield line.strip() handles a 20 GB log one line at a time instead of building a list, generators chain into pipelines, and they can be infinite, like itertools.count. Catch: consumed once, no len or indexing, and errors show up only when you consume.";

	it("does not take several sentences that explain the subject for a list of terms", () => {
		expect(isKeywordList(dense)).toBe(true);
		const claims = analyseClaims(q, dense);
		expect(claims.explaining).toBeGreaterThanOrEqual(2);
		expect(claims.keywordList).toBe(false);
		expect(scoreAnswerOffline(q, dense, 60).review_flags).not.toContain("keyword_list");
	});

	it("still takes a bare list of the rubric's terms for one", () => {
		const list = "Generators, iterators, yield, lazy evaluation, StopIteration, __next__, memory, pipelines.";
		expect(analyseClaims(q, list).keywordList).toBe(true);
		expect(scoreAnswerOffline(q, list, 60).score).toBeLessThan(15);
	});
});
