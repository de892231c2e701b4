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
		m(
			"reserved capacity is not always the cheapest for spiky load",
			"reserved & always & cheapest|cheap|cheaper",
		),
		m(
			"everything in one zone is not highly available",
			"all in one availability zone|all in one az|all in a single az|all in a single availability zone",
		),
		m(
			"auto scaling suits APIs, not only batch jobs",
			"auto scaling|autoscaling & batch job|only for batch|add risk|adds risk",
		),
		m(
			"restoring from snapshots is not high availability",
			"snapshot|backup|backups & highly available|high availability",
		),
		m(
			"Lambda scales well past a few hundred requests a second",
			"lambda & can't handle|cannot handle|few hundred",
		),
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
		m(
			"the loop drains every microtask after each macrotask, it does not alternate one by one",
			"alternate|alternates|alternating & macrotask|task & microtask",
		),
		m(
			"timers do not run before promise callbacks",
			">timer|settimeout|macrotask & higher priority|priority over|jump ahead & promise|microtask",
		),
		m(
			"microtasks run on the main thread",
			"microtask & off the main thread|another thread|background thread|separate thread",
		),
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
		m(
			"monomorphic call sites are the fast ones",
			">megamorphic & faster|fastest|best|optimal|most optimi*|well optimi*",
			">polymorphic & faster than monomorphic|most optimi*",
		),
		m("micro-benchmarks mislead", "microbenchmark|micro benchmark & reliable|accurate|always"),
		m("TypeScript types do not reach the engine", "typescript|type annotation & v8|engine & faster|optimi*"),
		m("V8 compiles JavaScript just in time, not ahead of time", "ahead of time & v8|engine & compile"),
		m("delete does not speed objects up", "delete & faster|speed up|speeds up|improve|improves"),
		m(
			"initialise every property in the constructor: adding properties later changes the shape",
			"add|adding & property|properties & lazily|on demand",
		),
		m(
			"delete does not shrink the hidden class or help the garbage collector",
			"delete & shrink|shrinks|help|helps & hidden class|shape|garbage collector",
		),
		m("ordinary code deoptimises too, not only eval and with", "deoptimi* & only & eval|with"),
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
		m("an iterable is not the same as an iterator", "iterator & iterable & same|identical"),
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
		m(
			"incidents caused by skipping safeguards are not an acceptable price",
			"incident|outage|bug & acceptable|worth it|price of",
		),
		m(
			"going around the owners of a system is not initiative",
			"~bother|bothered & ask|asking|tell|telling|raise|raising|check|checking|consult|consulting",
		),
		m("blaming others for the fallout is not initiative", "fault & their|theirs|they|team|them"),
		m(
			"speed does not excuse the outages it causes",
			"price of moving fast|cost of moving fast|price of speed",
		),
		m(
			"initiative brings people along rather than acting first and explaining later",
			"act|acting & first & explain|explaining & afterwards|later",
		),
		m(
			"forcing a change through with admin rights is not initiative",
			"merge|merged|push|pushed|deploy|deployed & admin right|admin rights|force push|force pushed",
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
		m(
			"people who push back are not simply resistant to change",
			"push back|pushed back|pushback|disagree|sceptic|skeptic & resistant|resistance|resist & change",
		),
		m(
			"escalating people who disagree is not how culture changes",
			"push back|pushed back|pushback|disagree|resist|resistant & escalate|escalated|escalating",
		),
		m(
			"ranking or naming teams in public harms trust",
			"rank|ranking|ranked|name|named|naming|shame|shamed & team & public|publicly|leaderboard",
		),
		m(
			"asking for feedback early is part of changing culture",
			"feedback & only & slow|slowed|slows|gave|give|platform",
		),
		m(
			"culture is not set from the top by mandate",
			"culture & set|change|changed|shaped|shape & from the top|top down|by mandate",
		),
		m("compliance is not culture", "compliance & non negotiable|culture"),
		m(
			"consultation strengthens a strategy rather than diluting it",
			"feedback|comment|comments|consultation|consensus|input|rfc & dilute|dilutes|waste|bikeshed|slow|slowed|slows",
		),
		m(
			"culture is not enforced through performance reviews",
			"performance review & flag|flagged|deviate|deviated|compliance|comply|punish",
		),
		m(
			"culture does not come from the top by mandate",
			"culture & from the top|top down|by mandate|by decree|non negotiable",
		),
		m(
			"strategy is shaped with the teams, not handed down",
			"strategy & hand down|handed down|set by the most senior|one strong person|one person at the top",
		),
		m("a gate with no discussion is not culture", "gate|block|blocked & no discussion|without discussion"),
		m(
			"people who push back are not weak engineers",
			"complain|complained|push back|pushed back|disagree|disagreed & weak|bad|worst & engineer|developer|people",
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
		m(
			"w: 1 is acknowledged by the primary alone, not every member",
			"w 1 & every|all & member|node|replica|secondary",
			"w 1 & fully durable|already durable|never lost|flushed to disk",
		),
		m(
			"majority write concern matters on any replica set, not only sharded clusters",
			"majority & only & shard|sharded|sharding",
		),
		m("single-document operations are atomic", "~single document|one document & atomic|atomicity|atomically"),
		m(
			"a single write does not need a transaction",
			"wrap & every|all|each & write|insert|update & transaction",
		),
		m("read concern majority does not take a vote among nodes", "read concern & vote|voting|votes"),
		m(
			"read concern is not read preference: it does not choose the node or the index",
			"read concern & decide|decides|choose|chooses|control|controls|pick|picks & which node|which member|which server|which index|node to read",
		),
		m("w: 0 is the weakest write concern", "w 0 & strict|strictest|safest|most durable"),
	],
	"react-j1": [
		m("each component instance has its own state", "state & shared & all instance|every instance|all copies"),
		m("changing a ref does not re-render", "ref|useref & trigger|cause & re render|rerender"),
		m(
			"changing an ordinary variable does not re-render",
			"any|every|normal|local|plain & variable & change & re render|rerender",
		),
		m("state is local to its component", "state & global|accessible by any|any component can read"),
		m(
			"props are read-only: a child cannot change them",
			"child & modify|change|mutate|update|assign|edit|write & prop & direct|directly|itself|its own",
			"prop & mutable|writable|writeable",
		),
		m(
			"mutating state in place does not trigger a re-render",
			">mutate|mutating|modify|push|pushing & state|array|object & in place|directly|direct & trigger|cause|re render|rerender",
		),
		m(
			"a component also re-renders when its parent does, not only when its props change",
			">re render|rerender|render & only & when|if & prop & change|changes|changed",
		),
		m(
			"without memo, a child re-renders with its parent even when its props are the same",
			"same prop & skip|skipped|skips & automatic|automatically|by default",
		),
		m(
			"immutable updates are how React sees a change, not a style preference",
			"immutable|immutability & style|preference|optional|cosmetic",
		),
		m(
			"React does not track state with proxies or re-render on a timer",
			"react & track & state & proxy|proxies",
			"re render|rerender|render & on a timer|every frame|sixty time|60 time",
		),
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
		m(
			"concurrent rendering does not run components in parallel threads",
			"concurrent|starttransition|transition & parallel|web worker|background thread|another thread|multiple thread",
		),
		m(
			"server components are not sent to the browser or hydrated",
			">server component & sent|send|ship|shipped|shipping & browser|client & hydrate|hydrated",
		),
		m(
			"server components shrink the client bundle rather than grow it",
			"server component & larger|bigger|increase|grow & bundle",
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
		m(
			"read committed never reads uncommitted data",
			">read committed & see|sees|return|returns|show|shows & uncommitted|dirty",
		),
		m(
			"serializable does not lock the whole table or database",
			"serializable & lock & whole|entire & table|database",
		),
		m(
			"stronger isolation has a cost",
			"serializable|higher isolation|stronger isolation & no cost|free|no overhead|always use",
		),
		m("read committed is not the strongest level", ">read committed & strongest|most isolated"),
		m(
			"serializable prevents anomalies the weaker levels allow",
			"serializable & legacy|no real protection|no protection|useless|pointless",
		),
		m("read uncommitted is not fine for most applications", "read uncommitted & fine|okay|most app|harmless"),
		m(
			"ACID terms are about the transaction, not CPUs, connections or backups",
			"atomicity & cpu|single operation|one instruction",
			"durability & backup|backups",
			"isolation & own connection|separate connection",
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
		m(
			"random or hashed short codes can collide",
			"collision|collide & impossible|can't happen|cannot happen|never happen|mathematically",
		),
		m("random or hashed codes need a collision check", "~random|hash & check & collision"),
		m("caching redirects is how reads scale", "caching|cache & bad idea|break|breaks|bad for|harmful"),
		m(
			"reads far outnumber writes in a URL shortener",
			"read & write & roughly equal|about equal|equal|same rate|balanced",
		),
		m(
			"reads scale out with caches and replicas, not one bigger machine",
			"read & scale|scaling & bigger machine|bigger server|larger machine|bigger box|vertical",
		),
		m(
			"a 301 is cached by browsers, so not every click is counted",
			">301 & count|track|see & every click|each click|all click",
		),
		m("a redirect answers 301 or 302, not 200 with the page", "redirect & return|respond|answer & 200"),
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
		m(
			"unit tests are not made redundant by end-to-end tests",
			"unit test & redundant|unnecessary|waste|pointless|not needed",
		),
		m(
			"an end-to-end failure does not pinpoint the broken line",
			">end to end|e2e & tell|show|pinpoint & exact|exactly|precisely & line",
		),
		m(
			"end-to-end tests alone are not enough",
			"end to end|e2e & only test|only kind|all the effort|all effort|only one that|only ones",
		),
		m(
			"end-to-end tests are the slowest and flakiest, not fast and deterministic",
			"end to end|e2e & fast & deterministic",
			"end to end|e2e & completely deterministic|fully deterministic|never flaky",
		),
		m(
			"the inverted pyramid is an anti-pattern, not best practice",
			"inverted pyramid|ice cream cone & best practice|best|recommended|right way",
		),
		m(
			"coverage does not mean there are no bugs",
			"coverage & no bug|bug free|no untested|correct by definition",
		),
		m(
			"integration tests use real parts, not more mocks",
			">integration test & just|really & unit test & more mock|with mock",
		),
		m("teams have not dropped end-to-end tests", "end to end|e2e & dropped|obsolete|qa thing|outdated"),
		m("correct units do not make a correct system", "unit & correct & system & correct|by definition"),
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
		m(
			"a passing run does not show there are no races",
			"one|single|passing & run & prove|show|shows|proves|mean|means & no race|race free|correct",
		),
		m(
			"failures are the application's concern, not only the orchestrator's",
			"failure & infrastructure concern|handled by kubernetes|kubernetes handle|orchestrator handle",
		),
		m(
			"a consensus store does not remove races in the application",
			"consensus|etcd|zookeeper & eliminate|eliminates|remove|removes|prevent|prevents & race",
		),
		m(
			"timing bugs can be reproduced with deterministic simulation; testing for them is not pointless",
			"test|testing & pointless|no point|waste of time",
		),
		m(
			"mocked unit tests do not make a distributed system correct",
			"unit test|unit coverage|mock & make|makes & correct|reliable|safe",
		),
	],
};
