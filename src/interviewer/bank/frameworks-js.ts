import { c, type SkillBank } from "./types";

export const react: SkillBank = {
	key: "react",
	name: "React",
	category: "technical",
	aliases: ["react.js", "reactjs", "react js", "react native"],
	questions: [
		{
			id: "react-j1",
			difficulty: "junior",
			topic: "state and props",
			text: "What is the difference between props and state in React, and what triggers a re-render?",
			concepts: [
				c("props come from the parent", "props", "parent", "passed down", "read-only", "read only"),
				c("state is owned by the component", "state", "usestate", "setstate", "owned"),
				c("re-render triggers", "re-render", "rerender", "render again", "state change", "new props"),
				c("immutability of updates", "immutable", "new object", "do not mutate", "spread", "copy"),
			],
			follow_ups: ["Why should you not mutate state directly?", "What is lifting state up?"],
		},
		{
			id: "react-i1",
			difficulty: "intermediate",
			topic: "hooks and effects",
			text: "Explain useEffect: when it runs, how the dependency array works and common mistakes.",
			concepts: [
				c("runs after render", "after render", "after the render", "commit", "after paint"),
				c("dependency array", "dependency array", "dependencies", "deps", "empty array"),
				c("cleanup", "cleanup", "clean up", "unsubscribe", "return a function"),
				c("stale closures and loops", "stale", "stale closure", "infinite loop", "missing dependency"),
				c(
					"you may not need an effect",
					"derived",
					"compute during render",
					"event handler",
					"not need an effect",
				),
			],
			follow_ups: [
				"Why does an effect run twice in development with StrictMode?",
				"When is useLayoutEffect needed?",
			],
		},
		{
			id: "react-s1",
			difficulty: "senior",
			topic: "performance",
			text: "A React screen with a large list feels slow. How do you diagnose and fix it?",
			concepts: [
				c("profile first", "profiler", "react devtools", "flame graph", "measure"),
				c("avoid unnecessary renders", "memo", "react.memo", "usememo", "usecallback", "unnecessary render"),
				c("stable keys", "key", "keys", "index as key", "stable id"),
				c("virtualisation", "virtualization", "virtualisation", "windowing", "react-window", "virtual list"),
				c("state placement", "colocate", "lift", "context", "state placement", "split the context"),
			],
			follow_ups: ["When does memoisation cost more than it saves?", "How does context cause extra renders?"],
		},
		{
			id: "react-e1",
			difficulty: "expert",
			topic: "concurrent rendering and server components",
			text: "Explain React's concurrent rendering features and Server Components. What problems do they solve and what do they cost?",
			concepts: [
				c("interruptible rendering", "concurrent", "interruptible", "fiber", "time slicing", "priority"),
				c("transitions and suspense", "usetransition", "transition", "suspense", "usedeferredvalue"),
				c("server components", "server component", "rsc", "no client javascript", "bundle size"),
				c("streaming and hydration", "streaming", "hydration", "hydrate", "selective hydration"),
				c("costs", "complexity", "caching", "serialization", "boundary", "trade-off"),
			],
			follow_ups: ["What can a Server Component not do?", "How does Suspense interact with data fetching?"],
		},
	],
};

export const nodejs: SkillBank = {
	key: "nodejs",
	name: "Node.js",
	category: "technical",
	aliases: ["node", "node.js", "node js", "nodejs", "express", "express.js", "nestjs"],
	questions: [
		{
			id: "nodejs-j1",
			difficulty: "junior",
			topic: "modules and npm",
			text: "How do modules and npm packages work in Node.js? Explain package.json and the lock file.",
			concepts: [
				c("CommonJS and ES modules", "require", "commonjs", "es modules", "import", "esm"),
				c("package.json", "package.json", "dependencies", "scripts", "devdependencies"),
				c("lock file", "package-lock", "lock file", "lockfile", "exact versions", "reproducible"),
				c("semantic versioning", "semver", "semantic versioning", "caret", "major version"),
			],
			follow_ups: ["When would you use npm ci rather than npm install?", "What does a caret range allow?"],
		},
		{
			id: "nodejs-i1",
			difficulty: "intermediate",
			topic: "streams and backpressure",
			text: "How would you process a multi-gigabyte file in Node.js without running out of memory?",
			concepts: [
				c("streams", "stream", "readable", "writable", "transform"),
				c("chunked processing", "chunk", "line by line", "readline", "buffer"),
				c("backpressure", "backpressure", "back pressure", "highwatermark", "drain"),
				c("pipeline and errors", "pipeline", "pipe", "error handling", "stream.pipeline"),
				c("not reading it all into memory", "readfile", "into memory", "out of memory", "heap"),
			],
			follow_ups: [
				"What happens if you ignore the return value of write()?",
				"How do async iterators work with streams?",
			],
		},
		{
			id: "nodejs-s1",
			difficulty: "senior",
			topic: "scaling a Node service",
			text: "A Node.js API becomes slow under load and its event loop lag grows. What do you do?",
			concepts: [
				c("measure event loop lag", "event loop lag", "event loop delay", "monitor", "metrics", "clinic"),
				c("CPU work blocks the loop", "blocking", "synchronous", "cpu-bound", "json.parse", "crypto"),
				c("offload work", "worker thread", "worker_threads", "queue", "background job", "child process"),
				c("scale out", "cluster", "multiple processes", "horizontal", "load balancer", "pm2"),
				c("profiling", "profile", "--prof", "flame graph", "inspector"),
			],
			follow_ups: ["When do worker threads help and when not?", "How do you find a synchronous hot spot?"],
		},
		{
			id: "nodejs-e1",
			difficulty: "expert",
			topic: "Node internals",
			text: "Describe Node's internals: libuv, the thread pool and the phases of the event loop. How do they shape production behaviour?",
			concepts: [
				c("libuv", "libuv", "epoll", "kqueue", "io_uring"),
				c("thread pool", "thread pool", "uv_threadpool_size", "fs", "dns.lookup", "zlib"),
				c("event loop phases", "timers", "poll", "check", "setimmediate", "phase"),
				c("process.nextTick and microtasks", "nexttick", "process.nexttick", "microtask", "starvation"),
				c("production effects", "latency", "thread pool saturation", "tail latency", "tuning"),
			],
			follow_ups: ["Why can slow DNS lookups stall file reads?", "When does nextTick starve I/O?"],
		},
	],
};
