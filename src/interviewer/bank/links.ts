import type { ExpectedLink } from "../types";
import { l } from "./types";

/**
 * The causes and effects a correct explanation of each evaluated question links, by question id
 * (added to the links of bank/claims.ts). Cause and effect entries are patterns: groups joined by
 * `&` must all occur in one clause, alternatives joined by `|`, matched by lemma and through the
 * synonyms of claim-words.ts. An effect group made only of direction words ("slow|expensive",
 * "before", "sorted", "separate" ...) makes the link directional: the opposite direction, or the
 * expected one denied, states the link inverted, which is judged a misconception (its `wrong`
 * claim, named in areas for improvement). Written from what each question is about, not from
 * graded answers.
 */
export const LINKS: Record<string, ExpectedLink[]> = {
	"sql-j1": [
		l(
			"inner join keeps matches",
			["inner join", "plain join", "inner"],
			["only & match|matching|pair|both", "drop|disappear|exclude|leave out|lose|discard|miss"],
		),
		l(
			"left join keeps all left rows",
			["left join", "left outer", "left table", "first table"],
			["all|every|each|keep|regardless|still & row|record|left|customer|appear", "null|empty|blank"],
		),
		l(
			"full outer join",
			["full outer", "full join", "both side", "both table", "both list"],
			["all|every|keep|nothing & row|side|table|drop|lose", "null|empty|blank"],
		),
	],
	"sql-i1": [
		l(
			"faster reads at the cost of writes",
			["index", "every index", "each index", "extra one", "copy"],
			["^slow|expensive|costly & write|insert|update|delete|change|saving"],
			"indexes slow writes down rather than speeding them up",
		),
		l(
			"B-tree structure",
			["b tree", "btree", "tree", "hierarchy", "balanced"],
			[
				"^sorted|ordered & key|value|entry|column|copy",
				"level|page & instead|few|rather than|not the whole",
				"lookup|find|search|range & fast|quick|few|instead|rather than|scan",
			],
			"B-trees keep keys sorted",
		),
		l(
			"selectivity and composite order",
			["selective", "selectivity", "cardinality", "distinct value", "narrow", "equality"],
			["first|lead|leading|leftmost", "few row|fewer row|filter|narrow"],
		),
	],
	"sql-s1": [
		l(
			"ACID properties",
			["transaction", "atomic", "atomicity", "all or nothing", "all-or-nothing"],
			["all or nothing", "roll back|rollback|undo|none of", "either & all|every|whole|none"],
		),
		l(
			"anomalies",
			[
				"read committed",
				"repeatable read",
				"serializable",
				"isolation level",
				"weaker level",
				"stronger level",
			],
			["prevent|stop|avoid|allow|permit & dirty read|non repeatable|phantom|lost update|write skew|anomal*"],
		),
		l(
			"locking vs MVCC",
			["mvcc", "snapshot", "version", "lock"],
			["reader & block|wait|writer", "block|wait & reader|writer|each other", "concurren*|contention"],
		),
	],
	"sql-e1": [
		l(
			"read the plan",
			["explain", "plan", "statistic", "estimate"],
			["actual|real & row|time|estimate", "stale|outdated|wrong|bad & plan|join|estimate|strategy|choice"],
		),
		l(
			"partitioning",
			["partition", "split & table|month|date", "by month", "by date"],
			["prune|pruning|skip|only & read|touch|scan|month|partition|need"],
			"partitioning helps reads through pruning",
		),
		l(
			"pre-aggregation",
			[
				"materialized view",
				"materialised view",
				"summary table",
				"rollup",
				"precompute*",
				"pre aggregat*",
				"side table",
			],
			["fast|quick|millisecond|second|instant", "refresh|incremental|overnight|once a day|nightly"],
		),
	],
	"aws-j1": [
		l(
			"object storage",
			["s3", "object storage", "bucket"],
			["upload|file|image|static|asset", "serve|deliver|cloudfront|cdn"],
		),
		l(
			"managed database",
			["rds", "aurora", "managed database", "hosted postgres", "hosted mysql", "hosted"],
			["backup|patch|failover|standby|multi az|replica|maintenance"],
		),
		l(
			"access control",
			["iam role", "role", "least privilege", "assigned identity", "instance profile"],
			["permission|access|credential|key|password|secret", "only & need"],
		),
	],
	"aws-i1": [
		l(
			"no long-lived keys",
			["role", "sts", "temporary credential", "short lived", "short-lived", "sso", "identity center"],
			[
				"expire|temporary|short lived|short-lived|rotate",
				"instead of|rather than|never|no & key|secret|password|credential",
			],
		),
		l(
			"network isolation",
			["private subnet", "security group", "vpc", "firewall", "network section"],
			["reach|reachable|expose|exposed|internet|public|traffic|only"],
		),
		l(
			"audit and detection",
			["cloudtrail", "guardduty", "config", "security hub", "log of every", "audit"],
			["record|log|detect|alert|notice|investigat*|who did"],
		),
	],
	"aws-s1": [
		l(
			"multiple availability zones",
			["availability zone", "multi az", "multi-az", "az", "data centre", "data center", "zone"],
			["fail|failure|outage|down|lose|survive|still|keep running|available"],
			"a single Availability Zone is not highly available",
		),
		l(
			"autoscaling or serverless",
			["auto scaling", "autoscaling", "serverless", "lambda", "fargate", "scale out", "scale in"],
			["spike|peak|burst|traffic|load|demand", "pay|cost|idle|zero|down"],
		),
		l(
			"decoupling with queues",
			["queue", "sqs", "buffer", "eventbridge", "sns", "decouple"],
			["absorb|smooth|spike|burst|backlog|later|retry|own pace|decouple"],
		),
		l(
			"caching and CDN",
			["cache", "cloudfront", "cdn", "elasticache"],
			["fewer|less|reduce|offload|absorb|edge|origin|load|cost|latency"],
		),
	],
	"aws-e1": [
		l(
			"organisations and guardrails",
			["scp", "service control polic*", "guardrail", "organisation-wide rule", "organization-wide rule"],
			["deny|limit|restrict|forbid|cap|take away|prevent|outer limit|never grant|do not grant|not grant"],
			"service control policies limit permissions, they do not grant them",
		),
		l(
			"organisations and guardrails",
			[
				"account per",
				"separate account",
				"own account",
				"multiple account",
				"each team",
				"separate tenancy",
				"own tenancy",
			],
			["isolat*|blast radius|limit|contain|separate|boundary|bill|cost"],
		),
		l(
			"network topology",
			["transit gateway", "hub and spoke", "hub-and-spoke", "central hub", "routing hub", "privatelink"],
			["connect|route|instead of|rather than|mesh|peering|central"],
		),
	],
	"javascript-j1": [
		l(
			"block vs function scope",
			["var", "oldest keyword", "old keyword"],
			[
				"function scope|function scoped|whole function|entire function|enclosing function",
				"leak & block|brace|loop",
			],
			"var is function-scoped, not block-scoped",
		),
		l(
			"hoisting and the temporal dead zone",
			["temporal dead zone", "tdz", "let", "const", "newer keyword", "new keyword"],
			["throw|error|referenceerror|before & declaration|line|declare"],
		),
		l(
			"const objects stay mutable",
			["const", "forbid", "never allow"],
			["still & change|mutate|modify|push|property|field", "mutable|mutate|not freeze|freeze"],
			"const prevents reassignment, it does not make values immutable",
		),
	],
	"javascript-i1": [
		l(
			"task (macrotask) queue",
			["settimeout", "macrotask", "task queue", "timer"],
			["after|next|later|wait & microtask|promise|stack|current|task"],
		),
		l(
			"non-blocking I/O",
			["non blocking", "non-blocking", "asynchronous", "async", "callback", "await"],
			["not block|never block|does not block|doesn't block|free|keep|continue|meanwhile|while waiting"],
		),
	],
	"javascript-i2": [
		l(
			"function keeps its lexical scope",
			["closure", "inner function", "function defined inside", "defined inside", "inner"],
			["remember|keep|retain|access|still|live & variable|scope|outer|surrounding|after"],
		),
		l(
			"loop variable pitfall",
			["var", "old style loop", "old-style loop", "loop"],
			["same & variable|binding|i|value", "share|shared|one & variable|binding", "last|final & value|number"],
			"with var in a loop every callback shares one i",
		),
		l(
			"memory retention",
			["closure", "capture", "captured", "reference", "link"],
			["memory|leak|alive|garbage|retain|keep"],
		),
	],
	"javascript-s1": [
		l(
			"heap snapshots and profiling",
			["heap snapshot", "snapshot", "capture", "profiler", "devtools", "memory tab", "allocation"],
			["compare|diff|before and after|accumulate|pile up|grow|retain|retainer|holder|what keeps"],
		),
		l(
			"references and garbage collection",
			["garbage collect*", "collector", "engine", "gc"],
			["unreachable|reachable|reach|reference|only free|free only|nothing can reach|nothing refers"],
			"JavaScript collectors trace reachability; cycles do not leak",
		),
		l(
			"common leak sources",
			["listener", "handler", "timer", "setinterval", "cache", "detached", "global", "lookup table"],
			["remove|removed|clear|stop|detach|never|bound|unbounded|grow|keep|alive|leak"],
		),
	],
	"javascript-e1": [
		l(
			"hidden classes / shapes",
			["hidden class", "shape", "object layout", "map", "property order", "add property", "delete"],
			["optimi*|fast|inline cache|monomorphic|same|predictable|deopt*|slow|polymorphic|megamorphic"],
		),
		l(
			"deoptimisation",
			["deopt*", "bail out", "assumption", "type feedback", "speculat*"],
			["throw away|discard|fall back|back to|interpreter|slow|invalid|wrong|change"],
		),
		l(
			"JIT tiers",
			[
				"jit",
				"just in time",
				"turbofan",
				"ignition",
				"interpreter",
				"optimizing compiler",
				"optimising compiler",
				"hot",
			],
			["compile|machine code|bytecode|optimi*|hot|profile|feedback"],
			"engines compile JIT, not interpret only",
		),
	],
	"python-j1": [
		l(
			"hashing and lookups",
			["set", "dict", "dictionary", "hash", "hashable", "hash table", "curly"],
			["o 1|o(1)|constant time|instant|instantly|fast|quick|without scan*|lookup|membership"],
		),
		l(
			"mutability",
			["tuple", "immutable", "round bracket", "cannot change", "never change"],
			["key|hashable|hash|fixed|record|cannot change|never change|safe"],
		),
		l(
			"uniqueness",
			["set", "curly"],
			["unique|duplicate|once|repeat|no duplicate"],
			"sets hold no duplicates",
		),
	],
	"python-i1": [
		l(
			"yield suspends the function",
			["yield", "generator"],
			[
				"suspend|pause|resume|continue|freeze|stop & where|state|next|call|value",
				"one at a time|one value|next value|each value",
			],
		),
		l(
			"lazy evaluation and memory",
			["generator", "yield"],
			["^lazily|lazy|on demand|one at a time & value|item|line|element|result"],
			"a generator produces values lazily, not all at once",
		),
		l(
			"lazy evaluation and memory",
			["generator", "lazy", "lazily", "on demand", "one at a time", "iterator"],
			[
				"memory|never & whole|all|entire",
				"large file|large data|large dataset|large amount|large list|large sequence|large collection|large input|large result|infinite|stream|constant memory|little memory",
			],
		),
		l(
			"iterator protocol",
			["__next__", "next", "__iter__", "iter", "for loop"],
			["stopiteration|exhaust*|end|done|once|again|raise"],
		),
	],
	"python-s1": [
		l(
			"global interpreter lock",
			["gil", "global interpreter lock", "one big lock", "interpreter lock", "lock"],
			["one & thread|at a time", "only one|single thread"],
		),
		l(
			"threads for I/O-bound work",
			["thread", "threads", "threading"],
			["i o|io|network|disk|wait|waiting|socket|request & release|give up|help|fine|useful|good"],
			"the GIL is released during I/O waits, so threads help I/O-bound work",
		),
		l(
			"processes for CPU-bound work",
			["process", "processes", "multiprocessing", "process pool", "worker program", "separate program"],
			[
				"cpu|compute|crunch|parallel|own interpreter|own gil|own lock|core",
				"pickle|serializ*|copy data|overhead",
			],
			"threads do not run CPU-bound Python in parallel",
		),
		l(
			"asyncio event loop",
			["asyncio", "event loop", "coroutine", "await", "cooperative"],
			["one thread|single thread|blocking|block|stall|freeze|switch"],
			"asyncio runs coroutines on one thread; blocking calls stall the loop",
		),
	],
	"python-e1": [
		l(
			"descriptor protocol",
			["descriptor", "__get__", "__set__", "get hook", "set hook", "special get"],
			["property|method|attribute|lookup|read|access|call"],
			"descriptors are the runtime protocol behind properties, not documentation",
		),
		l(
			"metaclasses",
			["metaclass", "type", "class of a class", "build a class", "builds a class"],
			["create|creation|build|defined|define|register|registry|__new__"],
			"metaclasses create classes; inheritance does not copy methods",
		),
		l(
			"__slots__ and memory",
			["__slots__", "slots", "fixed list", "fixed attribute", "fixed set"],
			[
				"no __dict__|no dict|remove & dict|dictionary",
				"less memory|save memory|saving memory|smaller|less space",
				"cannot & add|new attribute|grow",
			],
			"__slots__ removes the per-instance dict and saves memory",
		),
	],
	"react-j1": [
		l(
			"props come from the parent",
			["props", "prop", "parent"],
			[
				"pass|passed|give|hand|read only|read-only|cannot change|not change|never change|from the parent|down",
			],
			"props are read-only to the child",
		),
		l(
			"re-render triggers",
			["setstate", "set state", "state change", "state setter", "setter", "new prop", "parent re render"],
			["re render|rerender|render again|redraw|update & component|screen|ui|child"],
		),
		l(
			"immutability of updates",
			["mutate", "mutation", "push", "modify", "same object", "same array", "in place"],
			["not & re render|rerender|notice|see|update|detect", "new object|new array|copy|spread"],
			"mutating state directly does not re-render",
		),
	],
	"react-i1": [
		l(
			"runs after render",
			["useeffect", "effect", "callback", "hook"],
			["after & render|commit|paint|update|screen|dom"],
			"effects run after render, not before it",
		),
		l(
			"dependency array",
			["dependency array", "dependency", "dependencies", "deps", "array", "list"],
			["change|differ|again|re run|rerun|whenever|once|mount|every render|each update|first appear"],
		),
		l(
			"cleanup",
			["cleanup", "clean up", "return a function", "hand back a function", "returned function", "return"],
			["unmount|before the next|go away|goes away|unsubscribe|stop|clear|remove|next run"],
			"cleanup runs before re-running the effect and on unmount",
		),
	],
	"react-s1": [
		l(
			"profile first",
			["profiler", "devtools", "measure", "record", "flame graph", "profile"],
			["which & component|render|part|row", "how long|time|slow|cost"],
			"profile before optimising",
		),
		l(
			"avoid unnecessary renders",
			["memo", "react.memo", "usememo", "usecallback", "skip", "stable"],
			["re render|rerender|redraw|render|work & unnecessary|avoid|skip|not change|unchanged|only when"],
		),
		l(
			"virtualisation",
			["virtuali*", "windowing", "react window", "react-window", "only the row", "only rows", "visible row"],
			["visible|on screen|scroll|dom|fewer|few|only"],
			"the virtual DOM renders every row; virtualization helps",
		),
	],
	"react-e1": [
		l(
			"interruptible rendering",
			["concurrent", "interruptible", "transition", "usetransition", "time slicing", "fiber", "priority"],
			["interrupt|pause|yield|urgent|responsive|input|typing|abandon|resume"],
			"concurrent rendering is not multi-threading",
		),
		l(
			"server components",
			["server component", "rsc", "run on the server", "runs on the server"],
			["bundle|no javascript|less javascript|ship|client|browser|data|database|fetch"],
			"server components do not run in the browser",
		),
		l(
			"streaming and hydration",
			["streaming", "stream", "suspense", "hydration", "hydrate"],
			["progressive|piece|chunk|first|interactive|early|selective|attach|event handler"],
		),
	],
	"mongodb-j1": [
		l(
			"documents in collections",
			["document", "bson", "json", "nested object", "self contained", "record"],
			["collection|group|nested|embed|field|binary"],
		),
		l(
			"flexible schema",
			["flexible", "schemaless", "schema-less", "different field", "no fixed schema", "shape"],
			["different|differ|evolve|vary|without migration|no migration|change"],
			"documents in a collection may have different fields",
		),
		l(
			"embedding vs referencing",
			["embed", "embedded", "inside one", "read together", "nested"],
			["one read|single read|join|stitch|lookup|reference|no join|instead of"],
		),
	],
	"mongodb-i1": [
		l(
			"model for access patterns",
			[
				"access pattern",
				"query pattern",
				"read together",
				"how the data is read",
				"what each read",
				"screen",
			],
			["embed|nest|shape|one read|single read|document|fetch"],
		),
		l(
			"document size and unbounded arrays",
			[
				"unbounded",
				"grow forever",
				"pile up",
				"without bound",
				"grows without",
				"16mb",
				"16 mb",
				"size ceiling",
				"size limit",
				"hard size",
			],
			["separate|own collection|reference|cap|limit|ceiling|bucket"],
			"documents are capped at 16 MB; unbounded arrays are an anti-pattern",
		),
		l(
			"compound indexes and ESR",
			["esr", "equality", "matched exactly", "exact match"],
			["first & sort|range|then", "sort & range|then|before"],
			"ESR puts equality first, then sort, then range",
		),
	],
	"mongodb-s1": [
		l(
			"write concern",
			["majority", "w majority", "write concern", "acknowledg*"],
			["roll back|rollback|lose|lost|survive|durable|durability|failover|election", "latency|slower|wait"],
			"writes acknowledged by one node can roll back",
		),
		l(
			"read concern and preference",
			["secondary", "read preference", "read concern", "replica"],
			["stale|lag|behind|old|out of date|eventual|not see|may not"],
		),
		l(
			"multi-document transactions",
			["transaction", "multi document", "multi-document", "session"],
			["cost|overhead|slower|latency|lock|conflict|sparingly|abort|retry|atomic|all or nothing"],
			"transactions have a cost in MongoDB",
		),
	],
	"mongodb-e1": [
		l(
			"shard key properties",
			["monotonic", "timestamp", "increase", "increasing", "objectid", "auto increment"],
			["hot|hotspot|one shard|single shard|last chunk|same shard|same server|one server"],
		),
		l(
			"hashed vs ranged",
			["hashed", "hash", "scramble", "random"],
			[
				"even|evenly|spread|distribute & write|insert|load|data",
				"range & query|scatter|every shard|all shard|broadcast|ask every",
			],
		),
		l(
			"query routing",
			["mongos", "router", "routing", "include the key", "shard key", "carry the field"],
			["targeted|one shard|single shard|right shard|one server|scatter|every shard|all shard|broadcast"],
		),
	],
	"system-design-j1": [
		l(
			"HTTP request and response",
			["browser", "client", "form"],
			["send|post|request|submit & server|backend|application|api|address|url"],
		),
		l(
			"server validates and processes",
			["server", "backend", "application", "api"],
			["check|validate|verify|authenticate|sanitize|sanitise|make sense"],
		),
		l(
			"persistence",
			["database", "data store", "store", "transaction"],
			["write|insert|save|persist|commit|record"],
		),
		l(
			"feedback to the user",
			["response", "redirect", "status", "answer", "reply"],
			["show|display|confirmation|success|error|message|page"],
		),
	],
	"system-design-i1": [
		l(
			"key generation",
			["base62", "counter", "unique id", "id", "hash", "random"],
			["short|collision|collide|unique|clash|encode|key|code"],
		),
		l(
			"read scaling with caching",
			["cache", "redis", "cdn", "memory"],
			["read|redirect|lookup|hot|popular|database|load|latency|fast"],
			"reads dominate: cache them",
		),
		l(
			"API design",
			["redirect", "301", "302", "get", "short link", "short url"],
			["browser|location|long url|original|target|follow"],
		),
	],
	"system-design-s1": [
		l(
			"queues decouple producers",
			["queue", "kafka", "sqs", "broker", "buffer", "log"],
			[
				"decouple|asynchronous|later|do not wait|never wait|not hold|without wait|move on|absorb|spike|durable",
			],
			"queues make delivery reliable; they do not lose messages",
		),
		l(
			"retries and idempotency",
			["idempotency key", "idempotent", "unique id", "unique tag", "dedup*", "message id"],
			["twice|duplicate|double|again|repeat|retry|once"],
		),
		l(
			"rate limits and provider failover",
			["rate limit", "provider", "throttle", "backoff", "back off", "growing pause"],
			["limit|fail over|failover|backup|second provider|slow down|pace|wait|exponential"],
		),
	],
	"system-design-e1": [
		l(
			"CAP and consistency models",
			["partition", "network split", "cannot talk", "network partition", "cap"],
			["choose|either|give up|trade|sacrifice|refuse|reject|stale|disagree|available|consistent"],
			"CAP: during a partition a system gives up consistency or availability",
		),
		l(
			"partitioning",
			["consistent hashing", "hash ring", "ring", "shard", "partition by", "hash"],
			["move only|only a|few key|slice|rebalanc*|evenly|spread|node|machine"],
		),
		l(
			"conflict resolution",
			["crdt", "vector clock", "merge", "concurrent", "at once", "conflict"],
			["lose|lost|drop|both|merge|combine|union|add wins|add-wins|keep"],
		),
	],
	"testing-j1": [
		l(
			"unit tests",
			["unit test", "unit", "single function", "in isolation"],
			["fast|quick|pinpoint|precise|exactly where|cheap|many"],
		),
		l(
			"integration tests",
			["integration test", "integration", "together", "real database", "component together"],
			["catch|find|miss|bug|boundary|wiring|contract|interaction|mismatch"],
			"unit tests do not replace integration tests",
		),
		l(
			"test pyramid trade-offs",
			["end to end", "e2e", "browser test", "whole system", "user flow", "pyramid"],
			["slow|brittle|flaky|expensive|fewer|few|costly|confidence"],
			"end-to-end tests should be the fewest, not the most",
		),
	],
	"testing-i1": [
		l(
			"isolate slow or external parts",
			["mock", "stub", "fake", "double", "stand in", "stand-in"],
			["slow|external|network|third party|outside|clock|payment|cost|control|isolate"],
		),
		l(
			"over-mocking couples to implementation",
			[
				"mock every",
				"mocking every",
				"over mock*",
				"own class",
				"own code",
				"every call",
				"every interaction",
			],
			["brittle|couple|coupled|break|fail|refactor|restructur*|implementation|miss|mirror"],
			"mocking every dependency couples tests to implementation",
		),
		l(
			"prefer real dependencies where cheap",
			[
				"real database",
				"real dependency",
				"container",
				"in memory",
				"in-memory",
				"genuine",
				"real one",
				"real thing",
			],
			["cheap|fast|confidence|prefer|instead|catch|realistic|behave"],
		),
	],
	"testing-s1": [
		l(
			"risk-based priorities",
			[
				"risk",
				"critical path",
				"critical flow",
				"hurt the business",
				"most important",
				"payment",
				"checkout",
			],
			["first|before|priorit*|start|focus"],
		),
		l(
			"fix flakiness at the root",
			["flaky", "flakiness", "random", "intermittent", "pass or fail"],
			["root cause|quarantin*|set aside|fix|repair|find why|shared state|shared data|timing|order"],
			"retrying flaky tests hides problems",
		),
		l(
			"speed",
			["parallel", "several machine", "shard", "split the suite", "at once", "faster level", "lower level"],
			["fast|faster|quick|minute|feedback|time|shorter"],
		),
	],
	"testing-e1": [
		l(
			"fault injection",
			["fault injection", "chaos", "kill", "partition", "crash", "inject", "drop message", "delay"],
			["while|during|under|check|verify|invariant|observe|recover|survive|lose"],
		),
		l(
			"deterministic simulation",
			["deterministic", "simulation", "seed", "replay", "simulated"],
			["reproduce|replay|same|repeat|again|exact|debug"],
		),
		l(
			"linearizability checking",
			["history", "linearizab*", "jepsen", "model checking", "tla", "checker", "model"],
			["check|verify|consistent|correct|anomal*|legal|sequential|valid|spec"],
		),
		l(
			"property-based testing",
			[
				"property based",
				"property-based",
				"hypothesis",
				"quickcheck",
				"fast check",
				"fast-check",
				"generated input",
				"random input",
			],
			["shrink|minimal|edge case|case|invariant|property|hold|find|many"],
		),
	],
	"leadership-j1": [
		l(
			"noticing the problem",
			["noticed", "problem", "manual", "slow", "pain", "kept breaking", "waste", "hour"],
			[
				"i decided|i proposed|i wrote|i built|i set up|i started|i automat*|i suggested|so i|i took|i asked|i talked|i fixed",
			],
		),
		l(
			"measurable result",
			["as a result", "after", "result", "outcome", "now", "since then"],
			["reduce|cut|save|fewer|less|faster|increase|improve|drop|from & to|percent|%|hour|minute|day"],
		),
	],
	"leadership-i1": [
		l(
			"stretch tasks with support",
			["stretch", "ownership", "responsibility", "lead", "beyond", "harder"],
			["pair|support|side by side|together|help|check in|safety|review|coach"],
		),
		l(
			"feedback",
			["feedback", "review", "told them", "tell them", "concrete"],
			["specific|concrete|regular|weekly|every week|often|timely|soon|what to change|what went well"],
			"feedback should be timely and specific",
		),
		l(
			"measurable result",
			["later", "after", "result", "as a result", "month", "now"],
			["deliver|reduce|improve|faster|lead|teach|mentor|promot*|independent|confident|own"],
		),
	],
	"leadership-s1": [
		l(
			"clarifying the goal",
			["clarify", "stakeholder", "sponsor", "people who asked", "ask", "success"],
			["success|good outcome|goal|constraint|what|fixed|cannot move|done|criteria"],
			"clarifying a vague goal is the first step",
		),
		l(
			"prioritisation",
			["mvp", "smallest version", "scope", "priorit*", "cut", "drop"],
			["deadline|goal|serve|trade off|trade-off|compromise|agree|first|matter|achieve"],
			"cutting scope is not failure",
		),
		l(
			"delegation and ownership",
			["delegate", "owner", "ownership", "own", "piece to own", "responsib*"],
			["decide|decision|freedom|autonomy|trust|within|inside"],
			"delegating decisions is part of leading",
		),
	],
	"leadership-e1": [
		l(
			"aligning leaders",
			["leaders", "managers", "buy in", "buy-in", "sponsor", "director", "staff engineer", "tech lead"],
			["align|agree|support|sponsor|champion|adopt|commit|together"],
		),
		l(
			"mechanisms",
			[
				"rfc",
				"guild",
				"standard",
				"process",
				"career ladder",
				"hiring",
				"review",
				"forum",
				"written decision",
			],
			["adopt|spread|consistent|scale|across|every team|decision|visible|transparent"],
		),
		l(
			"reflection and learning",
			[
				"did not work",
				"didn't work",
				"failed",
				"mistake",
				"learned",
				"learnt",
				"lesson",
				"in hindsight",
				"would do differently",
			],
			["because|so|instead|next time|now i|change|adjust|differently"],
		),
	],
};
