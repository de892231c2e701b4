import type { ExpectedLink, Misconception } from "../types";
import { l, m } from "./types";

/**
 * The claim rubric of the bank's questions, by question id: misconceptions a confident wrong
 * answer states and the causes and effects a correct explanation links (docs/interviewer.md).
 * Patterns: groups joined by `&` must all occur in one clause, alternatives joined by `|`, matched
 * by lemma; a leading `~` marks a claim that is itself a denial, a leading `>` (after any `~`) that
 * its groups must occur in the order written.
 */
export const CLAIMS: Record<string, { misconceptions?: Misconception[]; links?: ExpectedLink[] }> = {
	"sql-j1": {
		misconceptions: [
			m("INNER JOIN does not return every row of both tables", "inner join & every row|all row & both"),
			m("LEFT JOIN keeps all left rows, not only matched ones", "left join & only & match|appear"),
			m("FULL OUTER JOIN is not a cross join", "full outer|full join & cross join|every combination"),
			m("unmatched columns are NULL, not zero", "unmatched|no match|missing & zero"),
			m("finding rows without a match needs an outer join", "inner join & without order|unmatched|without"),
		],
	},
	"sql-i1": {
		misconceptions: [
			m(
				"indexes slow writes down rather than speeding them up",
				"index & write|insert & fast|faster|quick|cheap|speed up",
			),
			m("B-trees keep keys sorted", "b tree|btree|tree & key & unordered|unsorted|not sorted|random"),
			m(
				"composite index column order matters",
				"~order & matter",
				"column order|order of column & not matter|doesn't matter|irrelevant",
			),
			m(
				"low-cardinality columns make poor indexes",
				"low cardinality|few distinct|status flag|boolean & best|good|ideal",
			),
			m(
				"indexes have a cost: indexing every column is not free",
				"index & every column|all column & no downside|no cost|free",
				"no downside",
			),
		],
	},
	"sql-s1": {
		misconceptions: [
			m(
				"read committed does not prevent non-repeatable reads",
				"read committed & prevent|stop|avoid & non repeatable|phantom",
			),
			m(
				"serializable does not mean transactions run one at a time",
				"serializable & one at a time|sequentially|single thread",
			),
			m("isolation does not mean no concurrency", "acid & lock the whole|entire database"),
		],
	},
	"sql-e1": {
		misconceptions: [
			m(
				"an index does not always beat a scan",
				"index & always & beat|faster|better",
				"index & every column & report|touch",
			),
			m(
				"hash joins suit large tables; nested loops are not fastest for them",
				"nested loop & fastest|best & big|large",
				"hash join & only & tiny|small",
			),
			m(
				"partitioning helps reads through pruning",
				"~partition & help & read",
				"partition & purely|only & storage",
			),
			m("planner statistics can be stale: check the plan", "statistic & always & accurate", "~bother & plan"),
		],
	},
	"aws-j1": {
		misconceptions: [
			m("S3 can serve files to browsers, not only backups", "s3 & only|mean only & backup", "~s3 & serve"),
			m("RDS is a managed relational database, not only for warehouses", "rds & only & warehouse"),
			m(
				"applications should use IAM roles, never root keys",
				"root & key|access key & application|app|config|code",
				"iam role & only & human",
			),
			m("CloudFront is a CDN, not a database cache", "cloudfront & database & cache|caching"),
		],
	},
	"aws-i1": {
		misconceptions: [
			m(
				"the customer secures IAM and bucket settings under the shared responsibility model",
				"aws & secure|responsible & everything|iam permission|bucket setting",
			),
			m(
				"long-lived admin keys in code are not safe",
				"access key & code & safe|encrypt",
				"key & never expire",
				"administratoraccess & key",
			),
			m("security groups are stateful", "security group & stateless"),
			m("the default VPC has public subnets", "default vpc & private"),
		],
	},
	"aws-s1": {
		misconceptions: [
			m(
				"a single Availability Zone is not highly available",
				"single|one & availability zone|az & enough|sufficient|highly available",
			),
			m("S3 is not a file system mounted across instances", "s3 & mount & file system"),
			m("auto scaling does not replace health checks", "~need & health check"),
		],
	},
	"aws-e1": {
		misconceptions: [
			m(
				"separate accounts give isolation and still allow central cost visibility",
				"one|single & shared & account & simple|simplest|best",
				"multiple account & impossible|prevent & cost",
			),
			m(
				"service control policies limit permissions, they do not grant them",
				"service control polic|scp & grant|give",
			),
			m("VPC peering is not transitive", "peering & transitive"),
			m(
				"production changes belong in infrastructure as code, not the console",
				"infrastructure as code & documentation",
				"production change & console",
			),
		],
	},
	"javascript-j1": {
		misconceptions: [
			m("const prevents reassignment, it does not make values immutable", "const & deeply|deep & immutable"),
			m("var is function-scoped, not block-scoped", "var & block scoped|block scope"),
			m("var is hoisted (initialised to undefined)", "~var & hoist"),
			m(
				"let is in the temporal dead zone before its declaration",
				"let & initialise|initialize|initialised|initialized & undefined",
			),
			m("var shares one binding across loop iterations", "var & loop & each iteration|own copy"),
		],
	},
	"javascript-i1": {
		misconceptions: [
			m(
				"JavaScript runs callbacks on one thread, not a thread pool",
				"callback & own thread|separate thread",
				"event loop & thread pool",
			),
			m("microtasks and macrotasks are separate queues", "microtask & macrotask & same queue|one queue"),
			m("a long synchronous loop blocks everything", "~long loop|synchronous loop & block"),
		],
		links: [
			l(
				"ordering: microtasks drain first",
				["microtask", "promise", "promise reaction", "then callback", "queuemicrotask"],
				[">^before|first|earlier & settimeout|timer|macrotask|next task", "drain|emptied|empty"],
				"a resolved promise's callback runs before setTimeout(0)",
			),
			l(
				"single-threaded call stack",
				["one thread", "single thread", "single-threaded", "one piece of code"],
				["at a time", "block", "wait"],
			),
		],
	},
	"javascript-i2": {
		misconceptions: [
			m("a closure keeps live references, not a copy", "closure & copy|snapshot"),
			m("with var in a loop every callback shares one i", "var & own|separate & value|snapshot|copy"),
			m("closures can keep memory alive and leak", "~closure & leak", "closure & release|free & return"),
			m(
				"closures are not a performance feature inlining constants",
				"closure & inline|performance & constant",
			),
		],
	},
	"javascript-s1": {
		misconceptions: [
			m(
				"JavaScript collectors trace reachability; cycles do not leak",
				"reference counting",
				"circular reference & never free|leak",
			),
			m("calling gc() manually is not a fix", "call & gc & production", "gc() & manual"),
			m(
				"event listeners and timers can leak",
				"~listener|timer & leak",
				"listener|timer & remove & automatically",
			),
			m("heap snapshots show what retains objects", "heap snapshot & only & size"),
		],
	},
	"javascript-e1": {
		misconceptions: [
			m("engines compile JIT, not interpret only", "v8 & only & interpret"),
			m("changing object shapes defeats optimisation", "~shape|hidden class & matter"),
			m("deoptimisation exists: optimised code can be thrown away", "~deoptimi"),
		],
	},
	"typescript-s1": {},
	"python-j1": {
		misconceptions: [
			m(
				"membership in a set is O(1); in a tuple it scans",
				"tuple & o(1)|hash|faster & set",
				"set & scan every",
			),
			m("dicts keep insertion order (since Python 3.7)", "dict|dictionary & unordered", "~rely & order"),
			m("lists cannot be dictionary keys (they are unhashable)", "list & dictionary key|dict key"),
			m("sets hold no duplicates", "set & allow|store & duplicate"),
		],
	},
	"python-i1": {
		misconceptions: [
			m(
				"a generator produces values lazily, not all at once",
				"generator & build|create|return & whole list|all value & memory|at once",
			),
			m("a generator can be iterated only once", "generator & reuse|iterate again|restart"),
			m("iterators are not the same as lists", "iterator & same & list"),
		],
	},
	"python-s1": {
		misconceptions: [
			m(
				"the GIL is released during I/O waits, so threads help I/O-bound work",
				"thread & useless & network|i/o",
				"gil & freeze|frozen & i/o|wait|socket",
			),
			m(
				"threads do not run CPU-bound Python in parallel",
				"cpu bound & thread & right choice|parallel|own core",
				"gil & own core",
			),
			m("processes have separate memory and their own GIL", "process & share & memory|gil"),
			m(
				"asyncio runs coroutines on one thread; blocking calls stall the loop",
				"asyncio & own|separate & os thread|thread",
				"blocking & safe|safely",
			),
		],
	},
	"python-e1": {
		misconceptions: [
			m(
				"descriptors are the runtime protocol behind properties, not documentation",
				"descriptor & docstring|ignore",
			),
			m(
				"metaclasses create classes; inheritance does not copy methods",
				"metaclass & inheritance & copy",
				"metaclass & implement inheritance",
			),
			m(
				"__slots__ removes the per-instance dict and saves memory",
				"slots & add & dictionary|dict",
				"slots & extra dict|extra dictionary",
			),
			m("__slots__ prevents dynamic attributes", "slots & allow & dynamic attribute"),
		],
	},
	"react-j1": {
		misconceptions: [
			m("props are read-only to the child", "child & modify|change|mutate & prop & direct"),
			m(
				"setting state does not update the value immediately",
				"setstate|set state & immediately|synchronous",
			),
			m(
				"mutating state directly does not re-render",
				"mutate|modify|change & state & direct & re render|rerender|update",
			),
		],
	},
	"react-i1": {
		misconceptions: [
			m(
				"effects run after render, not before it",
				"useeffect|effect & synchronous|synchronously & before & render",
			),
			m("the dependency array is honoured in production", "dependency array & ignore|hint"),
			m(
				"an empty dependency array runs once; omitting it runs every render",
				"empty array|empty dependency array & every render",
			),
			m("cleanup runs before re-running the effect and on unmount", "cleanup & only & whole app|entire app"),
		],
	},
	"react-s1": {
		misconceptions: [
			m(
				"React reconciles; it does not rebuild the whole DOM",
				"rebuild|re create|recreate & entire|whole & dom",
			),
			m("memoisation has a cost", "memoi & free", "memoi & every|everything & always"),
			m("index keys break identity on reorder", "index & key & fastest|best"),
			m(
				"the virtual DOM renders every row; virtualization helps",
				"virtual dom & only & visible",
				"virtuali & doesn't help|not help",
			),
			m("profile before optimising", "~profil & necessary", "always & network"),
		],
	},
	"react-e1": {
		misconceptions: [
			m(
				"server components do not run in the browser",
				">server component & run|runs|execute|executes & in the browser|on the client|in the client|client side",
			),
			m("concurrent rendering is not multi-threading", "concurrent & thread|parallel thread"),
			m(
				"hydration does not re-fetch everything from scratch by design",
				"hydration & rebuild|recreate & dom",
			),
		],
	},
	"mongodb-j1": {
		misconceptions: [
			m("collections are not one JSON text file parsed per query", "json & text file|file & parse"),
			m("documents in a collection may have different fields", "document & must & same field|identical"),
			m("MongoDB has no enforced foreign keys", "mongodb|mongo|collection & enforce & foreign key"),
			m("single-document updates are atomic", "~update & atomic", "single document & not atomic"),
		],
	},
	"mongodb-i1": {
		misconceptions: [
			m("MongoDB is not optimised for joins: model for the reads", "optimi & join", "lookup & every read"),
			m(
				"documents are capped at 16 MB; unbounded arrays are an anti-pattern",
				"array & grow & without limit|forever|unbounded & fine",
				"grow without limit",
			),
			m("ESR puts equality first, then sort, then range", "range & first & equality & last"),
			m("indexes cost writes", "index & no write cost|lazily|at query time"),
		],
	},
	"mongodb-s1": {
		misconceptions: [
			m("replica set secondaries do not accept writes", ">secondary & accept|take & write"),
			m("writes acknowledged by one node can roll back", "w 1|w:1 & never & lose|lost"),
			m("transactions have a cost in MongoDB", "transaction & no cost|free"),
		],
	},
	"mongodb-e1": {
		misconceptions: [
			m(
				"monotonically increasing shard keys send every insert to one shard",
				"monotonic|timestamp|objectid & spread|round robin|even",
			),
			m("shard keys need high cardinality", "~cardinality & matter", "boolean & work fine|fine"),
			m(
				"queries without the shard key scatter to every shard",
				"without the shard key & faster|one shard|single shard",
				"random shard",
			),
			m("the shard key is fixed per collection, not a per-query hint", "shard key & hint|per query"),
		],
	},
	"system-design-j1": {
		misconceptions: [
			m(
				"the browser never writes to the database directly",
				"browser & write|writes & direct|directly & database",
				"connection string & page",
			),
			m(
				"client-side validation can be bypassed: validate on the server",
				"validation & only & browser|client",
				"~bypass",
			),
			m("POST bodies are not encrypted without HTTPS", "~https & need", "post & encrypt"),
			m("the server, not the database, answers the browser", "database & push & browser"),
		],
	},
	"system-design-i1": {
		misconceptions: [
			m("hashing long URLs can collide; handle collisions", "~hash|md5|sha* & collide|collision"),
			m("reads dominate: cache them", "~cache|caching & need|help|useful"),
			m(
				"a URL shortener is read-heavy, not write-heavy",
				"write heavy|writes dominate|more writes than reads",
			),
			m("browsers follow 301 and 302 redirects to any domain", "~browser & follow & 301|302|redirect"),
			m("redirects are not POST requests", "redirect & post request"),
		],
	},
	"system-design-s1": {
		misconceptions: [
			m(
				"sending inside the user's request is not the reliable design",
				"synchronous|synchronously|directly & inside|within & request & reliable",
				"most reliable design & synchronous",
			),
			m("queues make delivery reliable; they do not lose messages", "queue & lose|only add latency"),
			m(
				"no system guarantees exactly-once delivery to a device",
				"exactly once & guarantee",
				"~deduplication & need",
			),
			m("retries need backoff", "tight loop", "backoff & just delay"),
			m("push providers rate-limit", "~push & rate limit"),
		],
	},
	"system-design-e1": {
		misconceptions: [
			m(
				"CAP: during a partition a system gives up consistency or availability",
				"consistency & availability & partition & at once|all three|simultaneously|at the same time|all at once",
			),
			m(
				"synchronous cross-region replication costs latency",
				"synchronous & replicat & no latency|without latency|no cost",
			),
			m("hash sharding routes a key to one shard", "hash & shard & scan all"),
			m(
				"clocks are not perfectly synchronised; independent writes conflict",
				"clock & synchroni & safe",
				"~conflict & occur",
			),
		],
	},
	"testing-j1": {
		misconceptions: [
			m("tests do not prove the absence of bugs", "test & prove & no bug|bug free|correct"),
			m("unit tests do not replace integration tests", "unit test & enough|replace|all you need"),
			m("tests should be independent of each other", "test & depend on & other test|order"),
		],
	},
	"testing-i1": {
		misconceptions: [
			m("mocks, stubs and fakes are different", "mock & stub & fake & same|identical|different name"),
			m(
				"mocking every dependency couples tests to implementation",
				"mock & every dependency|everything|own class",
			),
			m("over-verifying interactions makes tests brittle", "more interaction & better"),
			m("mocks can give false confidence", "~mock & false confidence"),
		],
	},
	"testing-s1": {
		misconceptions: [
			m(
				"line coverage does not measure test quality",
				"coverage & reliable|best|most reliable & measure|quality",
				"coverage & guarantee",
			),
			m("retrying flaky tests hides problems", "retr & until & pass", "flak & noise"),
			m(
				"mocked unit tests do not catch integration bugs",
				"delete & integration test",
				"unit test & same bug",
			),
			m("critical existing code needs tests too", "only new code", "existing code & wait"),
		],
	},
	"testing-e1": {
		misconceptions: [
			m(
				"end-to-end tests should be the fewest, not the most",
				"end to end|e2e & most|majority|mostly & test",
			),
			m("contract tests do not replace all integration testing", "contract test & replace & all"),
			m("mutation testing measures test strength, not speed", "mutation test & speed|performance"),
		],
	},
	"leadership-j1": {
		misconceptions: [
			m("taking credit for the team's work is not leadership", "take credit|took credit"),
			m("leading does not require a title", "~lead & without & title", "only & manager & lead"),
		],
	},
	"leadership-i1": {
		misconceptions: [
			m("rewriting a junior's code does not help them grow", "take over|rewrite & their code|code myself"),
			m("asking about goals matters", "ask|asking & goal & not useful|isn't useful|useless"),
			m(
				"feedback should be timely and specific",
				"feedback & annual review|annual performance review|wait for",
				"feedback & kept general|keep general|keep it general",
			),
			m("juniors grow through ownership", "ownership & too risky|risky"),
		],
	},
	"leadership-s1": {
		misconceptions: [
			m("clarifying a vague goal is the first step", "clarifying question & worst|harmful|look unsure"),
			m("cutting scope is not failure", "cut scope & failure|admit", "build everything & at once"),
			m(
				"delegating decisions is part of leading",
				"delegat & confusion",
				"every technical decision & personally",
			),
			m("sustained overtime has a cost", "weekend|overtime|pressure & no long term cost|increase output"),
		],
	},
	"leadership-e1": {
		misconceptions: [
			m("silencing disagreement harms the organisation", "disagreement & ignore|silence|shut down"),
			m("culture is not set by memos alone", "culture & memo|email alone"),
		],
	},
};
