import { c, type SkillBank } from "./types";

export const java: SkillBank = {
	key: "java",
	name: "Java",
	category: "technical",
	aliases: ["java se", "java ee", "jakarta ee", "jvm", "core java"],
	questions: [
		{
			id: "java-j1",
			difficulty: "junior",
			topic: "equals and hashCode",
			text: "What is the contract between equals() and hashCode() in Java, and what breaks if you override only one?",
			concepts: [
				c("equal objects share a hash code", "same hash code", "equal objects", "consistent", "contract"),
				c("hash-based collections", "hashmap", "hashset", "bucket", "hash table"),
				c("broken lookups", "cannot find", "duplicates", "lookup fails", "not found"),
				c("reference vs value equality", "==", "reference", "identity", "value equality"),
			],
			follow_ups: ["Why should fields used in hashCode be immutable?", "What do records generate for you?"],
		},
		{
			id: "java-i1",
			difficulty: "intermediate",
			topic: "collections and concurrency",
			text: "How would you share a map between threads in Java? Compare the options.",
			concepts: [
				c("HashMap is not thread-safe", "not thread-safe", "race condition", "hashmap", "corrupt"),
				c("synchronized wrappers", "synchronized", "collections.synchronizedmap", "lock", "hashtable"),
				c("ConcurrentHashMap", "concurrenthashmap", "lock striping", "segments", "compute"),
				c("atomic compound operations", "atomic", "putifabsent", "computeifabsent", "merge"),
				c("immutability", "immutable", "map.of", "copy", "unmodifiable"),
			],
			follow_ups: [
				"Why is check-then-act on a ConcurrentHashMap still a bug?",
				"What does volatile guarantee?",
			],
		},
		{
			id: "java-s1",
			difficulty: "senior",
			topic: "garbage collection tuning",
			text: "A Java service shows long pauses under load. How do you investigate and tune garbage collection?",
			concepts: [
				c("GC logs and metrics", "gc log", "jfr", "flight recorder", "jstat", "metrics"),
				c("generational heap", "young generation", "old generation", "eden", "generational"),
				c("collector choice", "g1", "zgc", "shenandoah", "parallel gc", "collector"),
				c("heap sizing and allocation rate", "heap size", "-xmx", "allocation rate", "object churn"),
				c("find the allocator", "heap dump", "profiler", "allocation profiling", "leak"),
			],
			follow_ups: ["When would you pick ZGC over G1?", "How do you reduce allocation in a hot path?"],
		},
		{
			id: "java-e1",
			difficulty: "expert",
			topic: "the Java memory model",
			text: "Explain the Java Memory Model: happens-before, visibility and safe publication.",
			concepts: [
				c("happens-before", "happens-before", "happens before", "ordering guarantee"),
				c("visibility and reordering", "visibility", "reorder", "cpu cache", "stale"),
				c("volatile and synchronized", "volatile", "synchronized", "monitor", "memory barrier"),
				c("safe publication", "safe publication", "final field", "publish", "escape"),
				c(
					"virtual threads and modern concurrency",
					"virtual thread",
					"loom",
					"completablefuture",
					"executor",
				),
			],
			follow_ups: [
				"Why is double-checked locking broken without volatile?",
				"How do final fields help immutability?",
			],
		},
	],
};

export const csharp: SkillBank = {
	key: "csharp",
	name: "C#",
	category: "technical",
	aliases: ["c#", "c sharp", "csharp", ".net", "dotnet", ".net core", "asp.net", "asp.net core"],
	questions: [
		{
			id: "csharp-j1",
			difficulty: "junior",
			topic: "value and reference types",
			text: "What is the difference between value types and reference types in C#?",
			concepts: [
				c("struct vs class", "struct", "class", "value type", "reference type"),
				c("copy semantics", "copied", "copy", "by value", "by reference"),
				c("stack and heap", "stack", "heap", "allocated"),
				c("boxing", "boxing", "unboxing", "object"),
				c("nullability", "null", "nullable", "nullable reference"),
			],
			follow_ups: ["When would you define a struct?", "What does the ref keyword change?"],
		},
		{
			id: "csharp-i1",
			difficulty: "intermediate",
			topic: "async and await",
			text: "How do async and await work in C#, and what mistakes do you see with them?",
			concepts: [
				c("Task-based model", "task", "task<t>", "valuetask", "state machine"),
				c("non-blocking waits", "non-blocking", "thread pool", "free the thread", "i/o"),
				c("deadlocks from .Result/.Wait", ".result", ".wait", "deadlock", "sync over async"),
				c("async void", "async void", "event handler", "exception lost"),
				c(
					"ConfigureAwait and cancellation",
					"configureawait",
					"cancellationtoken",
					"synchronization context",
					"cancel",
				),
			],
			follow_ups: ["Why is async void dangerous?", "How do you cancel a long-running operation?"],
		},
		{
			id: "csharp-s1",
			difficulty: "senior",
			topic: "LINQ and EF Core performance",
			text: "A page backed by Entity Framework Core is slow. How do you find and fix the problem?",
			concepts: [
				c("inspect generated SQL", "generated sql", "logging", "totable", "sql profiler", "query plan"),
				c("N+1 queries", "n+1", "lazy loading", "include", "eager loading"),
				c("IQueryable vs IEnumerable", "iqueryable", "ienumerable", "client evaluation", "in memory"),
				c("projection and tracking", "select", "projection", "asnotracking", "no tracking"),
				c("indexes and pagination", "index", "pagination", "skip", "take"),
			],
			follow_ups: ["When would you drop to raw SQL or Dapper?", "What does AsSplitQuery solve?"],
		},
		{
			id: "csharp-e1",
			difficulty: "expert",
			topic: "high-performance .NET",
			text: "How do you write allocation-free, high-throughput code in modern .NET?",
			concepts: [
				c("Span and Memory", "span<t>", "span", "memory<t>", "stackalloc", "slicing"),
				c("pooling", "arraypool", "objectpool", "pool", "reuse"),
				c("GC behaviour", "gen0", "gen 0", "large object heap", "loh", "garbage collector"),
				c("measurement", "benchmarkdotnet", "profiler", "dotnet-counters", "dotnet-trace"),
				c("value types and ref structs", "ref struct", "readonly struct", "in parameter", "struct"),
			],
			follow_ups: ["Why cannot a Span live on the heap?", "How do you read a BenchmarkDotNet report?"],
		},
	],
};
