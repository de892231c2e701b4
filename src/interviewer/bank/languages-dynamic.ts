import { c, type SkillBank } from "./types";

export const javascript: SkillBank = {
	key: "javascript",
	name: "JavaScript",
	category: "technical",
	aliases: ["js", "ecmascript", "es6", "es2015", "vanilla js", "java script"],
	questions: [
		{
			id: "javascript-j1",
			difficulty: "junior",
			topic: "let, const and var",
			text: "What are the differences between var, let and const in JavaScript, and which would you use by default?",
			concepts: [
				c(
					"block vs function scope",
					"block scope",
					"block-scoped",
					"function scope",
					"function-scoped",
					"scope",
				),
				c("hoisting and the temporal dead zone", "hoisting", "hoisted", "temporal dead zone", "tdz"),
				c("reassignment rules", "reassign", "cannot be reassigned", "immutable binding", "rebind"),
				c("const objects stay mutable", "mutate", "mutable", "object properties", "freeze"),
			],
			follow_ups: [
				"What happens if you read a let variable before its declaration?",
				"Does const make an array immutable? How would you make it so?",
			],
		},
		{
			id: "javascript-i1",
			difficulty: "intermediate",
			topic: "the event loop",
			text: "Explain how the JavaScript event loop works, including the difference between microtasks and macrotasks.",
			concepts: [
				c("single-threaded call stack", "call stack", "single thread", "single-threaded", "stack"),
				c("task (macrotask) queue", "macrotask", "task queue", "callback queue", "settimeout"),
				c("microtask queue and promises", "microtask", "promise", "then", "queuemicrotask"),
				c("ordering: microtasks drain first", "before the next", "drained", "after each task", "priority"),
				c("non-blocking I/O", "non-blocking", "asynchronous", "async", "i/o"),
			],
			follow_ups: [
				"In what order do a setTimeout(0) callback and a resolved promise's then callback run?",
				"How can a long synchronous loop affect the page or server?",
			],
		},
		{
			id: "javascript-i2",
			difficulty: "intermediate",
			topic: "closures",
			text: "What is a closure in JavaScript? Give a practical use and a pitfall.",
			concepts: [
				c(
					"function keeps its lexical scope",
					"lexical scope",
					"lexical environment",
					"outer scope",
					"remembers",
				),
				c("practical use", "private", "encapsulation", "factory", "memoize", "counter", "module pattern"),
				c("loop variable pitfall", "loop", "var in a loop", "same variable", "let in the loop"),
				c("memory retention", "memory leak", "retain", "garbage collect", "reference"),
			],
			follow_ups: [
				"How do closures interact with React hooks' stale state?",
				"How would you implement a once() helper?",
			],
		},
		{
			id: "javascript-s1",
			difficulty: "senior",
			topic: "memory leaks",
			text: "A long-running JavaScript application's memory keeps growing. How do you find and fix the leak?",
			concepts: [
				c(
					"heap snapshots and profiling",
					"heap snapshot",
					"profiler",
					"devtools",
					"memory tab",
					"allocation",
				),
				c("common leak sources", "event listener", "timer", "setinterval", "global", "detached dom", "cache"),
				c("references and garbage collection", "garbage collect", "reachable", "reference", "retainer"),
				c("weak references", "weakmap", "weakref", "weakset", "finalizationregistry"),
				c("verify the fix", "compare snapshots", "reproduce", "monitor", "regression test"),
			],
			follow_ups: [
				"When is a WeakMap the right tool, and when is it not?",
				"How would you catch such a leak before production?",
			],
		},
		{
			id: "javascript-e1",
			difficulty: "expert",
			topic: "engine optimisation",
			text: "How do modern JavaScript engines such as V8 optimise code, and how can code accidentally defeat those optimisations?",
			concepts: [
				c("JIT tiers", "jit", "just-in-time", "turbofan", "ignition", "interpreter", "optimizing compiler"),
				c("hidden classes / shapes", "hidden class", "shape", "object layout", "maps"),
				c("inline caches", "inline cache", "monomorphic", "polymorphic", "megamorphic"),
				c("deoptimisation", "deopt", "deoptimization", "deoptimise", "bail out"),
				c("measuring", "benchmark", "profile", "--trace", "flame graph"),
			],
			follow_ups: [
				"Why can adding properties in different orders slow a hot function?",
				"How would you verify that a change really improved performance?",
			],
		},
	],
};

export const typescript: SkillBank = {
	key: "typescript",
	name: "TypeScript",
	category: "technical",
	aliases: ["ts", "type script"],
	questions: [
		{
			id: "typescript-j1",
			difficulty: "junior",
			topic: "interfaces and types",
			text: "What does TypeScript add to JavaScript, and when would you use an interface versus a type alias?",
			concepts: [
				c(
					"static type checking at compile time",
					"static typing",
					"compile time",
					"type check",
					"catch errors",
				),
				c("types are erased at runtime", "erased", "runtime", "compiles to javascript", "transpile"),
				c(
					"interfaces for extendable object shapes",
					"interface",
					"extends",
					"declaration merging",
					"object shape",
				),
				c("type alias: unions and other types", "type alias", "union", "intersection", "primitive"),
			],
			follow_ups: ["What is declaration merging?", "What does the any type cost you?"],
		},
		{
			id: "typescript-i1",
			difficulty: "intermediate",
			topic: "generics and narrowing",
			text: "Explain generics and type narrowing in TypeScript with an example of each.",
			concepts: [
				c("generic type parameters", "generic", "type parameter", "<t>", "reusable"),
				c("constraints", "extends", "constraint", "keyof"),
				c("narrowing with guards", "narrowing", "typeof", "instanceof", "in operator", "type guard"),
				c("discriminated unions", "discriminated union", "tagged union", "discriminant", "switch"),
				c("exhaustiveness", "never", "exhaustive", "assertnever"),
			],
			follow_ups: [
				"How do you write a user-defined type guard?",
				"What is the difference between unknown and any?",
			],
		},
		{
			id: "typescript-s1",
			difficulty: "senior",
			topic: "types for untrusted data",
			text: "TypeScript types vanish at runtime. How do you keep data from APIs, files or users type-safe end to end?",
			concepts: [
				c("runtime validation", "runtime validation", "validate", "schema", "zod", "io-ts", "parse"),
				c("single source of truth", "infer", "z.infer", "derive the type", "single source"),
				c("unknown at the boundary", "unknown", "boundary", "untrusted", "never trust"),
				c(
					"strict compiler settings",
					"strict",
					"noimplicitany",
					"strictnullchecks",
					"nouncheckedindexedaccess",
				),
			],
			follow_ups: [
				"Where would you validate: at the edge or in every function?",
				"How do you share types between client and server?",
			],
		},
		{
			id: "typescript-e1",
			difficulty: "expert",
			topic: "advanced type-level programming",
			text: "Describe conditional types, mapped types and template literal types, and when type-level programming becomes a liability.",
			concepts: [
				c("conditional types and infer", "conditional type", "infer", "extends ?", "distributive"),
				c("mapped types", "mapped type", "keyof", "in keyof", "readonly", "partial", "record"),
				c("template literal types", "template literal", "string literal", "uppercase", "capitalize"),
				c(
					"compile-time cost and readability",
					"compile time",
					"slow",
					"readability",
					"error messages",
					"complexity",
				),
			],
			follow_ups: [
				"What makes a conditional type distributive?",
				"How would you debug a type that is too slow to check?",
			],
		},
	],
};

export const python: SkillBank = {
	key: "python",
	name: "Python",
	category: "technical",
	aliases: ["py", "python3", "python 3", "cpython"],
	questions: [
		{
			id: "python-j1",
			difficulty: "junior",
			topic: "lists, tuples and dicts",
			text: "Compare Python lists, tuples, sets and dictionaries. When would you choose each?",
			concepts: [
				c("mutability", "mutable", "immutable", "cannot change", "modify"),
				c("ordering and indexing", "ordered", "index", "sequence", "position"),
				c("hashing and lookups", "hash", "hashable", "lookup", "o(1)", "constant time", "key"),
				c("uniqueness", "unique", "duplicates", "membership"),
			],
			follow_ups: ["Why can a tuple be a dictionary key but a list cannot?", "What is a list comprehension?"],
		},
		{
			id: "python-i1",
			difficulty: "intermediate",
			topic: "generators and iterators",
			text: "What are generators and iterators in Python, and why would you use a generator?",
			concepts: [
				c("iterator protocol", "__iter__", "__next__", "iterator protocol", "stopiteration"),
				c("yield suspends the function", "yield", "suspend", "resume", "pause"),
				c("lazy evaluation and memory", "lazy", "memory", "one at a time", "on demand", "large file"),
				c("generator expressions and pipelines", "generator expression", "pipeline", "chain", "itertools"),
			],
			follow_ups: ["What does yield from do?", "Can you iterate a generator twice?"],
		},
		{
			id: "python-s1",
			difficulty: "senior",
			topic: "concurrency and the GIL",
			text: "Explain the GIL and how you would choose between threads, processes and asyncio in Python.",
			concepts: [
				c("global interpreter lock", "gil", "global interpreter lock", "one thread at a time", "bytecode"),
				c("threads for I/O-bound work", "i/o-bound", "io bound", "threading", "threads"),
				c("processes for CPU-bound work", "cpu-bound", "multiprocessing", "process pool", "processes"),
				c("asyncio event loop", "asyncio", "event loop", "await", "coroutine"),
				c("trade-offs", "overhead", "serialization", "pickle", "shared memory", "trade-off"),
			],
			follow_ups: [
				"How do C extensions such as NumPy interact with the GIL?",
				"What goes wrong when blocking code runs inside asyncio?",
			],
		},
		{
			id: "python-e1",
			difficulty: "expert",
			topic: "the object model",
			text: "How do descriptors, metaclasses and __slots__ work in Python, and where have you seen them used?",
			concepts: [
				c("descriptor protocol", "descriptor", "__get__", "__set__", "property"),
				c("attribute lookup order", "mro", "method resolution order", "__getattribute__", "__dict__"),
				c("metaclasses", "metaclass", "type(", "__new__", "__init_subclass__", "class creation"),
				c("__slots__ and memory", "__slots__", "slots", "memory", "no __dict__"),
				c("real uses", "orm", "django", "dataclass", "pydantic", "sqlalchemy"),
			],
			follow_ups: [
				"When would __init_subclass__ replace a metaclass?",
				"What do data and non-data descriptors differ in?",
			],
		},
	],
};
