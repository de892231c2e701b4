import { c, type SkillBank } from "./types";

export const mongodb: SkillBank = {
	key: "mongodb",
	name: "MongoDB",
	category: "technical",
	aliases: ["mongo", "mongo db", "mongoose", "nosql", "document database"],
	questions: [
		{
			id: "mongodb-j1",
			difficulty: "junior",
			topic: "documents and collections",
			text: "How does MongoDB store data, and how does that differ from a relational database?",
			concepts: [
				c("documents in collections", "document", "collection", "bson", "json"),
				c("flexible schema", "flexible schema", "schemaless", "schema-less", "different fields"),
				c("embedding vs referencing", "embed", "embedded", "reference", "nested"),
				c("no joins by default", "join", "$lookup", "denormalize", "denormalise"),
			],
			follow_ups: ["When would you reference instead of embed?", "What is the _id field?"],
		},
		{
			id: "mongodb-i1",
			difficulty: "intermediate",
			topic: "schema design and indexes",
			text: "How do you design a MongoDB schema and its indexes around the application's queries?",
			concepts: [
				c(
					"model for access patterns",
					"access pattern",
					"query pattern",
					"how the data is read",
					"read together",
				),
				c("document size and unbounded arrays", "16mb", "unbounded array", "document size", "growth"),
				c("compound indexes and ESR", "compound index", "equality", "sort", "range", "esr"),
				c("explain plans", "explain", "collscan", "ixscan", "executionstats"),
				c("aggregation pipeline", "aggregation", "pipeline", "$group", "$match"),
			],
			follow_ups: ["What is the ESR rule?", "How would you model comments on posts at scale?"],
		},
		{
			id: "mongodb-s1",
			difficulty: "senior",
			topic: "consistency",
			text: "Explain MongoDB's write concerns, read concerns and transactions. How do you choose them?",
			concepts: [
				c("write concern", "write concern", "w: majority", "majority", "acknowledged"),
				c("read concern and preference", "read concern", "read preference", "secondary", "linearizable"),
				c("replica sets", "replica set", "primary", "election", "secondary"),
				c("multi-document transactions", "transaction", "multi-document", "session", "atomic"),
				c("durability vs latency trade-off", "latency", "durability", "rollback", "trade-off"),
			],
			follow_ups: ["What can go wrong reading from secondaries?", "Why keep transactions short?"],
		},
		{
			id: "mongodb-e1",
			difficulty: "expert",
			topic: "sharding",
			text: "How do you shard a MongoDB collection, and how do you choose the shard key?",
			concepts: [
				c("shard key properties", "shard key", "cardinality", "frequency", "monotonic"),
				c("hashed vs ranged", "hashed", "range", "ranged sharding", "zone"),
				c("hot shards", "hot shard", "hotspot", "jumbo chunk", "uneven"),
				c("query routing", "mongos", "targeted", "scatter-gather", "broadcast"),
				c("balancing and resharding", "balancer", "chunk migration", "reshard", "resharding"),
			],
			follow_ups: ["Why is a timestamp a poor shard key?", "What does a scatter-gather query cost?"],
		},
	],
};

export const redis: SkillBank = {
	key: "redis",
	name: "Redis",
	category: "technical",
	aliases: ["redis cache", "valkey", "elasticache"],
	questions: [
		{
			id: "redis-j1",
			difficulty: "junior",
			topic: "data structures",
			text: "What is Redis and which of its data structures would you use for a cache, a queue and a leaderboard?",
			concepts: [
				c("in-memory key-value store", "in-memory", "in memory", "key-value", "key value"),
				c("strings with expiry for a cache", "string", "expire", "ttl", "set with ex"),
				c("lists or streams for queues", "list", "lpush", "rpop", "stream", "brpop"),
				c("sorted sets for leaderboards", "sorted set", "zset", "zadd", "score", "zrange"),
			],
			follow_ups: ["What happens to data when Redis restarts?", "How would you store a user profile?"],
		},
		{
			id: "redis-i1",
			difficulty: "intermediate",
			topic: "caching patterns",
			text: "Describe caching patterns with Redis and how you keep the cache consistent with the database.",
			concepts: [
				c("cache-aside", "cache-aside", "cache aside", "lazy loading", "read-through"),
				c("write strategies", "write-through", "write-behind", "write back", "invalidate"),
				c("expiry and eviction", "ttl", "eviction", "lru", "maxmemory", "expire"),
				c("stampede protection", "stampede", "thundering herd", "dogpile", "lock", "jitter"),
				c("stale data trade-off", "stale", "consistency", "eventual", "trade-off"),
			],
			follow_ups: [
				"How do you avoid a cache stampede when a hot key expires?",
				"Delete or update the cache on write?",
			],
		},
		{
			id: "redis-s1",
			difficulty: "senior",
			topic: "persistence and availability",
			text: "How do Redis persistence and high availability work, and what can still lose data?",
			concepts: [
				c("RDB snapshots", "rdb", "snapshot", "bgsave", "point in time"),
				c("AOF", "aof", "append only", "append-only", "fsync"),
				c("replication and Sentinel", "replica", "replication", "sentinel", "failover"),
				c(
					"asynchronous replication loses writes",
					"asynchronous",
					"lose writes",
					"data loss",
					"wait command",
				),
				c("Redis Cluster", "cluster", "hash slot", "shard", "16384"),
			],
			follow_ups: ["Which fsync policy would you pick and why?", "What does WAIT guarantee?"],
		},
		{
			id: "redis-e1",
			difficulty: "expert",
			topic: "distributed locks and rate limiting",
			text: "How would you build a distributed rate limiter and a distributed lock with Redis, and what are their failure modes?",
			concepts: [
				c("atomic operations and Lua", "lua", "atomic", "multi", "incr", "eval"),
				c("rate limit algorithms", "sliding window", "token bucket", "fixed window", "leaky bucket"),
				c("lock with SET NX and expiry", "set nx", "nx", "px", "lease", "expiry"),
				c("lock safety problems", "redlock", "clock", "gc pause", "fencing token", "expired lock"),
				c(
					"single-threaded execution",
					"single-threaded",
					"single threaded",
					"event loop",
					"blocking command",
				),
			],
			follow_ups: [
				"Why does a lock need a fencing token?",
				"How do you make the limiter exact across a window boundary?",
			],
		},
	],
};
