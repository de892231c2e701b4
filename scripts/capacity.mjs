// `npm run capacity`: measures what one interview costs the storage, and what each endpoint costs
// in D1 statements and Durable Object calls, on the real local service (docs/capacity.md).
//
// 1. Starts the service (`npm start`'s script, as the end-to-end suite does) with DEV_CALL_COUNTS=1,
//    which turns on the development-only counters (src/platform/lib/call-counts.ts).
// 2. Per endpoint: resets the counters, sends one request, reads them when it has answered ("in
//    the request") and again two seconds later ("with what follows": queue consumers, e-mail,
//    webhook sends caused by it).
// 3. One interview's whole life on a live key: create, the candidate joins over the WebSocket,
//    answers ten questions, completes; results analysed; webhooks to two endpoints on a receiver on
//    127.0.0.1; e-mails. Rows per D1 table before and after (read from the local D1 SQLite file),
//    and the sizes of the D1 database and of the interview's Durable Object database.
//
// Options: --json (machine-readable on stdout).
import { readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { startReceiver } from "./bench/webhooks.mjs";
import { call, startService } from "./local-service.mjs";

const asJson = process.argv.includes("--json");
const log = (...args) => console.error(...args);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const ANSWER =
	"I would start from the access pattern, add an index that covers the query, check the plan with " +
	"EXPLAIN, and measure before and after; the trade-off is slower writes and more storage.";
const ANSWERS = 10;
/** Interviews run through their whole life; the figures are their mean. */
const LIVES = 3;

/** Files under `dir` (recursively) whose name ends with `suffix`. */
function filesUnder(dir, suffix) {
	const found = [];
	let entries = [];
	try {
		entries = readdirSync(dir, { withFileTypes: true });
	} catch {
		return found;
	}
	for (const entry of entries) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) found.push(...filesUnder(path, suffix));
		else if (entry.name.endsWith(suffix)) found.push(path);
	}
	return found;
}

/** A SQLite database's size compacted (VACUUM INTO a temporary copy): its pages in use. */
function compactBytes(path) {
	const copy = join(tmpdir(), `capacity-${process.pid}-${Math.random().toString(36).slice(2)}.sqlite`);
	const db = new DatabaseSync(path, { readOnly: true });
	try {
		db.exec(`VACUUM INTO '${copy}'`);
		return statSync(copy).size;
	} finally {
		db.close();
		rmSync(copy, { force: true });
	}
}

/** A SQLite database's size on disk: the file and its write-ahead log. */
function sqliteBytes(path) {
	let bytes = 0;
	for (const file of [path, `${path}-wal`]) {
		try {
			bytes += statSync(file).size;
		} catch {
			// no WAL
		}
	}
	return bytes;
}

/** The local D1 database: the SQLite file under the state folder that holds the `interviews` table. */
function d1File(persistTo) {
	const files = filesUnder(join(persistTo, "v3", "d1"), ".sqlite").filter((path) => {
		const db = new DatabaseSync(path, { readOnly: true });
		try {
			return db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'interviews'").get() !== undefined;
		} finally {
			db.close();
		}
	});
	if (files.length !== 1) throw new Error(`Expected one local D1 database, found ${files.length}`);
	return files[0];
}

/** Durable Object databases of the interview class. */
function interviewObjectFiles(persistTo) {
	const root = join(persistTo, "v3", "do");
	return filesUnder(root, ".sqlite").filter((path) => path.includes("InterviewObject"));
}

/** Rows per table and bytes per table (dbstat, when SQLite has it) of the local D1 database. */
function d1Tables(path) {
	const db = new DatabaseSync(path, { readOnly: true });
	try {
		const tables = db
			.prepare(
				"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' ORDER BY name",
			)
			.all()
			.map((row) => String(row.name));
		const rows = {};
		for (const table of tables)
			rows[table] = Number(db.prepare(`SELECT count(*) AS n FROM "${table}"`).get().n);
		let bytes = null;
		try {
			bytes = {};
			for (const row of db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name").all()) {
				bytes[String(row.name)] = Number(row.bytes);
			}
		} catch {
			bytes = null;
		}
		return { rows, bytes };
	} finally {
		db.close();
	}
}

/** Payload bytes of one interview's rows in each table (the sum of the lengths of their values). */
function interviewPayload(path, interviewId) {
	const db = new DatabaseSync(path, { readOnly: true });
	const lengthOf = (table) => {
		const columns = db
			.prepare(`SELECT name FROM pragma_table_info('${table}')`)
			.all()
			.map((row) => `coalesce(length("${row.name}"), 0)`);
		return `(${columns.join(" + ")})`;
	};
	const sum = (table, where, ...params) =>
		Number(
			db
				.prepare(
					`SELECT coalesce(sum(${lengthOf(table)}), 0) AS bytes, count(*) AS n FROM "${table}" WHERE ${where}`,
				)
				.get(...params).bytes,
		);
	try {
		return {
			interviews: sum("interviews", "id = ?", interviewId),
			events: sum("events", "interview_id = ?", interviewId),
			webhook_deliveries: sum(
				"webhook_deliveries",
				"event_id IN (SELECT id FROM events WHERE interview_id = ?)",
				interviewId,
			),
			webhook_attempts: sum(
				"webhook_attempts",
				"delivery_id IN (SELECT d.id FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE e.interview_id = ?)",
				interviewId,
			),
			candidate_emails: sum("candidate_emails", "interview_id = ?", interviewId),
			credit_ledger: sum("credit_ledger", "interview_id = ?", interviewId),
			monthly_interview_usage: sum("monthly_interview_usage", "interview_id = ?", interviewId),
			interview_seeds: sum("interview_seeds", "id = ?", interviewId),
		};
	} finally {
		db.close();
	}
}

async function counts(service, reset) {
	const response = await fetch(`${service.baseUrl}/__dev/call-counts${reset ? "?reset=1" : ""}`);
	return response.json();
}

function summary(c) {
	const calls = Object.entries(c.durableObjectCalls)
		.sort()
		.map(([name, n]) => `${name}×${n}`)
		.join(" ");
	const doCalls = Object.values(c.durableObjectCalls).reduce((a, b) => a + b, 0);
	// Statements run: those run alone (a round trip each) and those inside batches (one round
	// trip per batch). Preparing a statement is not running it (a query builder may prepare twice).
	return {
		d1Statements: c.d1Executions + c.d1BatchedStatements,
		d1RoundTrips: c.d1Batches + c.d1Executions,
		doCalls,
		calls: calls || "-",
	};
}

/** What was counted between two readings taken without a reset. */
function difference(now, then) {
	const calls = {};
	for (const [name, n] of Object.entries(now.durableObjectCalls)) {
		const d = n - (then.durableObjectCalls[name] ?? 0);
		if (d) calls[name] = d;
	}
	return summary({
		d1Statements: now.d1Statements - then.d1Statements,
		d1Batches: now.d1Batches - then.d1Batches,
		d1BatchedStatements: now.d1BatchedStatements - then.d1BatchedStatements,
		d1Executions: now.d1Executions - then.d1Executions,
		durableObjectCalls: calls,
	});
}

/** Waits until nothing runs (no D1 statement for a second: queue consumers, e-mails are done). */
async function quiesce(service) {
	await counts(service, true);
	for (let i = 0; i < 30; i++) {
		await sleep(1_000);
		const c = await counts(service, true);
		if (c.d1Statements === 0 && Object.keys(c.durableObjectCalls).length === 0) return;
	}
}

/** Counts one request's work: in the request, and with what follows it within two seconds. */
async function measure(service, label, send) {
	await quiesce(service);
	const result = await send();
	const during = summary(await counts(service, false));
	await sleep(2_000);
	const after = summary(await counts(service, true));
	log(`  ${label}: ${during.d1Statements} statements, ${during.doCalls} object calls`);
	return { label, during, after, result };
}

/** Runs a candidate through the room: join, `ANSWERS` answers, then ends; counts per answer. */
function candidate(service, interview) {
	return new Promise((resolve, reject) => {
		const token = new URL(interview.interview_url).searchParams.get("token");
		const ws = new WebSocket(
			`${service.baseUrl.replace(/^http/, "ws")}/interview/${interview.id}/?token=${encodeURIComponent(token)}`,
		);
		const perAnswer = [];
		let current = null;
		let answered = 0;
		let ended = false;
		const timer = setTimeout(() => reject(new Error("the room did not finish within 120 s")), 120_000);
		const finish = (value) => {
			clearTimeout(timer);
			try {
				ws.close();
			} catch {
				// closed
			}
			resolve(value);
		};
		let baseline = null;
		const answer = async () => {
			baseline = await counts(service, false);
			ws.send(
				JSON.stringify({
					type: "candidate_response",
					session_id: interview.id,
					question_id: current,
					response: ANSWER,
					timestamp: new Date().toISOString(),
				}),
			);
			answered++;
		};
		ws.onmessage = async (event) => {
			const message = JSON.parse(String(event.data));
			if (message.type === "error") return reject(new Error(`room error: ${JSON.stringify(message)}`));
			if (message.type === "question" && message.question?.id && message.question.id !== current) {
				if (current !== null && baseline) perAnswer.push(difference(await counts(service, false), baseline));
				current = message.question.id;
				if (answered < ANSWERS) return answer();
				if (!ended) {
					ended = true;
					ws.send(JSON.stringify({ type: "end_interview" }));
				}
			}
			if (message.type === "interview_update" && message.interview?.status === "completed") {
				finish({ answered, perAnswer });
			}
		};
		ws.onerror = () => reject(new Error("WebSocket error"));
	});
}

async function main() {
	log("Starting the local service...");
	// The local cron (npm start runs housekeeping every minute) would add its statements to
	// whichever request it overlaps: off while measuring.
	process.env.CRON_INTERVAL_S = "0";
	const service = await startService({ vars: { DEV_CALL_COUNTS: "1" }, stopOnSignal: true });
	const admin = service.adminToken;
	let receiver = null;
	try {
		const created = await call(service, "POST", "/admin/accounts", {
			key: admin,
			body: { company_name: "Capacity", plan: "enterprise" },
		});
		const accountId = created.data.id;
		await call(service, "PATCH", `/admin/accounts/${accountId}`, {
			key: admin,
			body: { limits: { requests_per_minute: 100_000, monthly_interviews: 100_000 }, credits_delta: 100_000 },
		});
		const secret = (await call(service, "GET", `/admin/accounts/${accountId}`, { key: admin })).data
			.webhook_secret;
		receiver = await startReceiver(secret);
		const key = (
			await call(service, "POST", `/admin/accounts/${accountId}/keys`, {
				key: admin,
				body: { name: "capacity", environment: "live" },
			})
		).data.key;
		for (const path of ["a", "b"]) {
			await call(service, "POST", "/v1/webhooks", {
				key,
				body: { url: `http://127.0.0.1:${receiver.port}/hook/${path}`, events: ["*"] },
			});
		}
		const body = (i) => ({
			candidate_email: `candidate${i}@example.com`,
			candidate_name: "Ada Lovelace",
			position: "Backend Engineer",
			skills: ["TypeScript", "SQL", "PostgreSQL", "Node.js", "AWS", "Docker"],
			duration_minutes: 60,
			scheduled_at: new Date(Date.now() + 7 * 24 * 3_600_000).toISOString(),
		});
		const create = (i) => call(service, "POST", "/v1/interviews", { key, body: body(i) });
		// Warm every path once, unmeasured (the first use of code pays for its loading).
		const warm = (await create(0)).data;
		await call(service, "GET", `/v1/interviews/${warm.id}`, { key });
		await call(service, "PATCH", `/v1/interviews/${warm.id}`, { key, body: { position: "Warm" } });
		await call(service, "DELETE", `/v1/interviews/${warm.id}`, { key });
		await call(service, "GET", "/v1/interviews?limit=100", { key });

		log("Per endpoint (one request each):");
		const endpoints = [];
		const m = async (label, send) => endpoints.push(await measure(service, label, send));
		await m("GET /api/v1/health", () => call(service, "GET", "/api/v1/health/"));
		await m("POST /v1/interviews", () => create(1));
		const seeded = (await create(2)).data;
		const opened = (await create(3)).data;
		await m("GET /v1/interviews/{id} (never opened: adopts)", () =>
			call(service, "GET", `/v1/interviews/${opened.id}`, { key }),
		);
		await m("GET /v1/interviews/{id} (opened)", () =>
			call(service, "GET", `/v1/interviews/${opened.id}`, { key }),
		);
		await m("GET /v1/interviews?limit=100", () => call(service, "GET", "/v1/interviews?limit=100", { key }));
		await m("PATCH /v1/interviews/{id} (never opened)", () =>
			call(service, "PATCH", `/v1/interviews/${seeded.id}`, { key, body: { position: "Staff Engineer" } }),
		);
		// The same interview again: this isolate decides against its copy of the seed, without reading it.
		await m("PATCH /v1/interviews/{id} (never opened, again)", () =>
			call(service, "PATCH", `/v1/interviews/${seeded.id}`, {
				key,
				body: { position: "Principal Engineer" },
			}),
		);
		await m("PATCH /v1/interviews/{id} (opened)", () =>
			call(service, "PATCH", `/v1/interviews/${opened.id}`, { key, body: { position: "Staff Engineer" } }),
		);
		const fresh = (await create(4)).data;
		await m("DELETE /v1/interviews/{id} (never opened, its first change)", () =>
			call(service, "DELETE", `/v1/interviews/${fresh.id}`, { key }),
		);
		await m("DELETE /v1/interviews/{id} (never opened, after its PATCHes)", () =>
			call(service, "DELETE", `/v1/interviews/${seeded.id}`, { key }),
		);
		await m("DELETE /v1/interviews/{id} (opened)", () =>
			call(service, "DELETE", `/v1/interviews/${opened.id}`, { key }),
		);
		await m("POST /v1/interviews/bulk (10 items)", () =>
			call(service, "POST", "/v1/interviews/bulk", {
				key,
				body: { interviews: Array.from({ length: 10 }, (_, i) => body(100 + i)) },
			}),
		);
		await m("GET /v1/events?limit=100", () => call(service, "GET", "/v1/events?limit=100", { key }));
		await m("GET /v1/account/profile", () => call(service, "GET", "/v1/account/profile", { key }));
		await sleep(3_000);

		log(`${LIVES} interviews' lives, one after another...`);
		const d1Path = d1File(service.persistTo);
		const objectsBefore = new Set(interviewObjectFiles(service.persistTo));
		await quiesce(service);
		const before = { tables: d1Tables(d1Path), d1Bytes: compactBytes(d1Path) };
		const arrivalsBefore = receiver.stats().arrivals.length;
		// Counted from here without a reset: everything the lives cause (requests, rooms, alarms,
		// queue consumers), read once they are over.
		await counts(service, true);
		const lives = [];
		for (let n = 0; n < LIVES; n++) {
			const interview = (
				await call(service, "POST", "/v1/interviews", {
					key,
					body: { ...body(900 + n), scheduled_at: undefined },
				})
			).data;
			const room = await candidate(service, interview);
			// The analysis timer publishes results a few seconds after completion; webhooks and e-mails follow.
			let results = null;
			for (let i = 0; i < 60 && !results; i++) {
				await sleep(1_000);
				const got = await call(service, "GET", `/v1/interviews/${interview.id}?include_results=true`, {
					key,
				});
				if (got.data.results) results = got.data.results;
			}
			lives.push({ interview, room, results });
		}
		let stable = 0;
		let last = -1;
		for (let i = 0; i < 60 && stable < 3; i++) {
			await sleep(1_000);
			const n = receiver.stats().arrivals.length;
			stable = n === last ? stable + 1 : 0;
			last = n;
		}
		let lifeCounts = await counts(service, false);
		for (let i = 0; i < 30; i++) {
			await sleep(1_000);
			const more = await counts(service, false);
			if (more.d1Statements === lifeCounts.d1Statements) break;
			lifeCounts = more;
		}
		const after = { tables: d1Tables(d1Path), d1Bytes: compactBytes(d1Path) };
		const newObjects = interviewObjectFiles(service.persistTo).filter((path) => !objectsBefore.has(path));
		const per = (n) => n / LIVES;
		const rowsWritten = Object.fromEntries(
			Object.keys(after.tables.rows)
				.map((table) => [table, per(after.tables.rows[table] - (before.tables.rows[table] ?? 0))])
				.filter(([, n]) => n !== 0),
		);
		const payloads = lives.map((life) => interviewPayload(d1Path, life.interview.id));
		const payloadBytes = Object.fromEntries(
			Object.keys(payloads[0]).map((table) => [table, per(payloads.reduce((n, p) => n + p[table], 0))]),
		);
		const lifeSummary = summary(lifeCounts);
		const output = {
			endpoints: endpoints.map(({ label, during, after: follow }) => ({ label, during, after: follow })),
			life: {
				lives: LIVES,
				answers: per(lives.reduce((n, l) => n + l.room.answered, 0)),
				resultsPublished: lives.every((l) => l.results !== null),
				webhookArrivals: per(receiver.stats().arrivals.length - arrivalsBefore),
				perAnswer: lives.flatMap((l) => l.room.perAnswer),
				rowsWritten,
				d1: {
					...lifeSummary,
					d1Statements: per(lifeSummary.d1Statements),
					d1RoundTrips: per(lifeSummary.d1RoundTrips),
					doCalls: per(lifeSummary.doCalls),
				},
				payloadBytes,
				d1BytesGrowth: per(after.d1Bytes - before.d1Bytes),
				objectDatabases: per(newObjects.length),
				objectBytes: per(newObjects.reduce((n, path) => n + sqliteBytes(path), 0)),
				objectCompactBytes: per(newObjects.reduce((n, path) => n + compactBytes(path), 0)),
				webhookInvalid: receiver.stats().invalid,
			},
		};
		output.model = model(output.life);
		if (asJson) console.log(JSON.stringify(output, null, 2));
		else print(output);
	} catch (error) {
		await sleep(1_000);
		log(service.output().slice(-4_000));
		throw error;
	} finally {
		await receiver?.close();
		await service.stop();
	}
}

/**
 * The capacity model (docs/capacity.md): the measured per-interview figures against one D1
 * database's 10 GB and its single-threaded throughput, at three volumes, with the retention
 * defaults (docs/retention.md); then the first step past the limit, sharding by account,
 * simulated: accounts with Zipf-distributed volumes hashed onto shards.
 */
function model(life) {
	const GB = 1e9;
	const bytes = life.payloadBytes;
	// Pages hold rows and their indexes: the compacted growth over the payload, measured.
	const payload = Object.values(bytes).reduce((a, b) => a + b, 0);
	const overhead = Math.max(1, life.d1BytesGrowth / Math.max(1, payload));
	const windowed =
		(bytes.webhook_deliveries + bytes.webhook_attempts + bytes.candidate_emails) * 1 + // 30 days ≈ a month
		bytes.events * 3; // 90 days
	const permanent = bytes.interviews + bytes.credit_ledger + bytes.monthly_interview_usage;
	const statements = life.d1.d1Statements;
	const volumes = [10_000, 1_000_000, 10_000_000].map((perMonth) => {
		const resident = (months) => (perMonth * (windowed + permanent * months) * overhead) / GB;
		const perSecond = perMonth / (30 * 86_400);
		return {
			perMonth,
			residentGbAfter1Month: resident(1),
			residentGbAfter12Months: resident(12),
			monthsTo10Gb: ((10 * GB) / overhead / perMonth - windowed) / permanent,
			statementsPerSecondMean: perSecond * statements,
			statementsPerSecondPeak: perSecond * statements * 10,
			queueMessagesPerSecondPeak: perSecond * (life.webhookArrivals + 2) * 10,
		};
	});
	return { overhead, windowedBytes: windowed, permanentBytes: permanent, volumes, shards: simulateShards() };
}

/** Accounts (Zipf s=1.1 volumes) hashed onto shards: the fullest shard's share, and the largest account's. */
function simulateShards() {
	const accounts = 20_000;
	const weights = Array.from({ length: accounts }, (_, i) => 1 / (i + 1) ** 1.1);
	const total = weights.reduce((a, b) => a + b, 0);
	const hash = (i) => {
		// FNV-1a of the account's id, as the router would hash it.
		let h = 0x811c9dc5;
		for (const ch of `acc_${i}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
		return h;
	};
	return [4, 16, 64].map((shards) => {
		const load = new Array(shards).fill(0);
		weights.forEach((w, i) => {
			load[hash(i) % shards] += w / total;
		});
		return {
			shards,
			fullestShare: Math.max(...load),
			evenShare: 1 / shards,
			largestAccountShare: weights[0] / total,
		};
	});
}

function table(header, rows) {
	rows = rows.map((row) =>
		row.map((cell) => (typeof cell === "number" && !Number.isInteger(cell) ? cell.toFixed(1) : cell)),
	);
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
	const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
	return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

function print(output) {
	console.log("\nPer request (in the request; with what follows within 2 s):\n");
	console.log(
		table(
			[
				"endpoint",
				"D1 statements",
				"D1 round trips",
				"object calls",
				"calls",
				"D1 statements with follow-up",
			],
			output.endpoints.map((e) => [
				e.label,
				e.during.d1Statements,
				e.during.d1RoundTrips,
				e.during.doCalls,
				e.during.calls,
				e.during.d1Statements + e.after.d1Statements,
			]),
		),
	);
	const { life } = output;
	const answers = life.perAnswer;
	const mean = (f) =>
		answers.length ? (answers.reduce((n, a) => n + f(a), 0) / answers.length).toFixed(1) : "-";
	console.log(
		`\nWebSocket answer -> next question: ${mean((a) => a.d1Statements)} D1 statements, ${mean((a) => a.d1RoundTrips)} round trips on average (${answers.length} answers)`,
	);
	console.log(
		`\nOne interview's life, the mean of ${life.lives} (${life.answers} answers, results ${life.resultsPublished ? "published" : "NOT published"}, ${life.webhookArrivals} webhook deliveries received):\n`,
	);
	console.log(
		table(
			["D1 table", "rows written", "payload bytes of its rows"],
			Object.entries(life.rowsWritten).map(([t, n]) => [t, n, life.payloadBytes[t] ?? "-"]),
		),
	);
	console.log(
		`\nD1 over the whole life (with the queue consumers and alarms it caused): ${life.d1.d1Statements.toFixed(1)} statements in ${life.d1.d1RoundTrips.toFixed(1)} round trips; the Worker's object calls ${life.d1.doCalls.toFixed(1)} (all lives: ${life.d1.calls})`,
	);
	console.log(`D1 database growth (compacted, pages in use): ${life.d1BytesGrowth} bytes`);
	console.log(
		`Interview object databases created: ${life.objectDatabases}, ${life.objectBytes} bytes on disk, ${life.objectCompactBytes} compacted`,
	);
	const { model: m } = output;
	console.log(
		`\nModel (index overhead ×${m.overhead.toFixed(2)}; ${m.windowedBytes} payload bytes kept for their retention, ${m.permanentBytes} for ever, per interview):\n`,
	);
	console.log(
		table(
			[
				"interviews/month",
				"D1 GB after 1 month",
				"after 12 months",
				"months to 10 GB",
				"statements/s mean",
				"peak (×10)",
				"queue msgs/s peak",
			],
			m.volumes.map((v) => [
				v.perMonth.toLocaleString("en"),
				v.residentGbAfter1Month.toFixed(2),
				v.residentGbAfter12Months.toFixed(2),
				v.monthsTo10Gb > 0 ? v.monthsTo10Gb.toFixed(0) : "over at once",
				v.statementsPerSecondMean.toFixed(1),
				v.statementsPerSecondPeak.toFixed(0),
				v.queueMessagesPerSecondPeak.toFixed(0),
			]),
		),
	);
	console.log("\nSharding by account, simulated (20,000 accounts, Zipf 1.1 volumes, FNV-1a of the id):\n");
	console.log(
		table(
			["shards", "fullest shard's share", "even share", "largest account's share"],
			m.shards.map((x) => [
				x.shards,
				x.fullestShare.toFixed(3),
				x.evenShare.toFixed(3),
				x.largestAccountShare.toFixed(3),
			]),
		),
	);
}

await main();
