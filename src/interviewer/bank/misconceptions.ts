import type { Misconception } from "../types";
import { m } from "./types";

/**
 * More wrong claims candidates commonly make, by question id (added to the lists of
 * bank/claims.ts), written from each subject's usual mistakes rather than from graded answers.
 * Same pattern syntax: groups joined by `&` in one clause, alternatives by `|`, by lemma; a
 * leading `~` marks a claim that is itself a denial, a leading `>` (after any `~`) that its groups
 * must occur in the order written (the subject before what is said of it).
 */
export const MORE_MISCONCEPTIONS: Record<string, Misconception[]> = {
	"aws-s1": [
		m(
			"auto scaling takes minutes: it does not absorb an instant spike alone",
			"auto scaling|autoscaling & instant|instantly|immediately & spike|burst|peak",
		),
		m(
			"spot capacity can be taken back at short notice",
			"spot & always available|never interrupt|guarantee|reliable for everything",
		),
		m(
			"one bigger instance is not high availability",
			"one|single & big|bigger|large|larger & instance|server & highly available|high availability",
		),
		m(
			"availability zones are separate data centres",
			"availability zone|az & same data centre|same data center|same building|same rack",
		),
		m("standard SQS queues deliver at least once, unordered", "sqs & guarantee & order|exactly once"),
		m("Lambda has cold starts and concurrency limits", "lambda & no cold start|unlimited|infinite"),
	],
	"javascript-i1": [
		m(
			"setTimeout(fn, 0) runs later, not immediately",
			"settimeout & 0|zero & immediately|synchronously|right away",
		),
		m("await does not block the thread", "await & block|freeze & thread|everything|whole program|event loop"),
		m(
			"promises do not run on another thread",
			"promise & separate|another|background|own & thread",
			"promise & run & in parallel",
		),
		m(
			"async code does not run in parallel on several cores",
			"async & multiple core|multiple thread|several core",
		),
		m("requestAnimationFrame is not a microtask", "requestanimationframe & microtask"),
	],
	"javascript-e1": [
		m(
			"property order and added properties change an object's shape",
			"property order & not matter|doesn't matter|irrelevant",
		),
		m(
			"delete changes an object's shape and can slow it",
			"delete & no effect|harmless|no cost|no performance",
		),
		m("monomorphic call sites are the fast ones", ">megamorphic|polymorphic & faster|fastest|best|optimal"),
		m("micro-benchmarks mislead", "microbenchmark|micro benchmark & reliable|accurate|always"),
		m("TypeScript types do not reach the engine", "typescript|type annotation & v8|engine & faster|optimi*"),
		m("V8 compiles JavaScript just in time, not ahead of time", "ahead of time & v8|engine & compile"),
	],
	"python-i1": [
		m("generators are not always faster than lists", "generator & always & faster"),
		m(
			"generators cannot be indexed or measured with len()",
			"generator & support|supports|allow|allows & index|indexing|len|slicing",
		),
		m("yield pauses the function; it does not end it", "yield & end|ends|terminate|exit & function"),
		m("generators do not run in another thread", "generator & thread|in parallel|concurrently|background"),
		m("a list comprehension builds the whole list at once", "list comprehension & lazy|lazily|on demand"),
		m("range in Python 3 is lazy, not a list", "range & return|create|build & list & python 3"),
	],
	"leadership-j1": [
		m(
			"acting without telling anyone is not initiative",
			"~tell|telling|told|inform|informing & anyone|anybody",
		),
		m("blaming others is not taking initiative", "blame|blamed & team|colleague|manager|other"),
		m(
			"skipping review on the way to production",
			"push|pushed|deploy|deployed|merge|merged & straight|directly & production|main|master",
			"remove|removed|skip|skipped|bypass|bypassed|disable|disabled & code review|review requirement|review step|staging|approval",
		),
		m(
			"overriding the team's concerns is not leadership",
			"ignore|ignored|overrode|overruled & team|colleague|objection|concern",
		),
	],
	"leadership-e1": [
		m(
			"mandates without buy-in rarely change culture",
			"mandate|mandated|forced|imposed & everyone|all team|every team & work|worked|success|effective",
		),
		m(
			"reflecting on what did not work is part of the answer",
			"everything worked",
			"nothing went wrong",
			"no mistake",
		),
		m("hiring for agreement narrows the organisation", "hire|hiring & only & agree|like me|same view"),
		m(
			"removing people who disagree harms the organisation",
			"fire|fired|remove|removed|replace|replaced & disagree|dissent|pushback|push back",
		),
	],
	"mongodb-s1": [
		m(
			"w: majority waits for a majority, not every member",
			"majority & every node|all node|all member|every member|all replica|every replica",
		),
		m(
			"secondaries can return stale data",
			"secondary & always & latest|up to date|current|fresh",
			"~secondary & stale",
		),
		m(
			"read concern majority returns only majority-committed data",
			"read concern & majority & uncommitted|not yet committed",
		),
		m("linearizable reads are the slowest", "linearizable & cheap|fast|fastest|free|no cost"),
		m(
			"unacknowledged writes (w: 0) can be lost",
			"w 0|w:0|unacknowledged & safe|fine|important|payment|financial",
		),
	],
	"react-j1": [
		m("each component instance has its own state", "state & shared & all instance|every instance|all copies"),
		m("changing a ref does not re-render", "ref|useref & trigger|cause & re render|rerender"),
		m(
			"changing an ordinary variable does not re-render",
			"any|every|normal|local|plain & variable & change & re render|rerender",
		),
		m("state is local to its component", "state & global|accessible by any|any component can read"),
	],
	"react-e1": [
		m(
			"server components cannot use state, effects or event handlers",
			"server component & can & usestate|useeffect|onclick|event handler|state",
		),
		m(
			"server components are not the same as server-side rendering",
			"server component & same as|just|identical & ssr|server side rendering",
		),
		m("transitions do not run in another thread", "transition & background thread|web worker|another thread"),
		m(
			"concurrent features and server components have costs",
			"concurrent|server component & no cost|free|no downside|no trade off",
		),
	],
	"sql-s1": [
		m("read uncommitted is neither safe nor a common default", "read uncommitted & default|safe|recommended"),
		m(
			"repeatable read does not prevent every anomaly (write skew)",
			"repeatable read & prevent|stop|avoid & write skew|all anomal*|every anomal*",
		),
		m("ACID consistency is not replica agreement", "c in acid & replica|node|cap"),
		m(
			"a transaction does not make its statements faster",
			"transaction & make & fast|faster|quick & statement|query",
		),
	],
	"system-design-i1": [
		m(
			"a 301 is cached by browsers, which hides clicks from analytics",
			"301 & best|better & analytics|tracking",
		),
		m(
			"sequential ids are guessable",
			"sequential id|counter based|auto increment|incrementing id & unguessable|secure|cannot be guessed|can't be guessed|random looking",
		),
		m("a truncated hash can collide", "hash & never & collide|collision|clash", "hash & always & unique"),
	],
	"testing-j1": [
		m(
			"end-to-end tests should be the fewest, not the most",
			"end to end|e2e & most of|majority|mostly|bulk|most test|most numerous",
		),
		m(
			"unit tests are the fastest kind",
			"unit test & slower than",
			"integration test|end to end & faster than & unit",
		),
		m("one kind of test is not enough", "only need & one kind|unit test|end to end|e2e"),
		m(
			"full coverage does not mean no bugs",
			"100% coverage|full coverage|100 percent & no bug|bug free|guarantee",
		),
	],
	"testing-e1": [
		m(
			"mocked unit tests do not show a distributed system is correct under failures",
			"unit test|mock & enough|sufficient|prove|guarantee & distributed|failure|concurrency|correct",
		),
		m("network partitions do happen", "~partition & happen", "partition & rare enough|impossible"),
		m(
			"partitions and faults can be injected in tests",
			"~partition|network fault & simulate|simulated|inject|injected",
		),
		m("failure modes need tests of their own", "~failure|fault|partition & need & test|testing|tested"),
		m(
			"running a test many times does not prove there are no races",
			"run & many time|thousand time|repeatedly & prove|guarantee & no race|correct|race free",
			"pass|passes & in a row|many time|thousand time|hundred time|repeatedly & prove|proven|guarantee & race|absent|race free",
		),
		m("sleeps do not fix races", "add|adding & sleep & fix|fixes|solve|solves"),
		m("clocks drift: ordering by timestamps is unsafe", "clock & synchroni* & safe|reliable"),
		m(
			"testing finds bugs; it does not prove correctness",
			"jepsen|test & prove & correct|correctness|bug free",
		),
	],
};
