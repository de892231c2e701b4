#!/usr/bin/env node
// `npm run bench`: starts the real local service (workerd through wrangler) with its own state,
// prepares a bench account and data, measures every case with bounded load runs on 127.0.0.1,
// prints a table and rewrites the generated part of docs/performance.md. `--json` prints the
// results as JSON instead of the table. Options: --duration S, --warmup S, --connections N,
// --slices N (a case and its health baseline alternate in N slices of duration/N seconds each),
// --no-write (leave docs/performance.md alone).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { prepareAccount } from "./bench/account.mjs";
import { interviewBody, WEEK_AHEAD } from "./bench/bodies.mjs";
import { bundleSize } from "./bench/bundle.mjs";
import { measureLiveRoom } from "./bench/live-room.mjs";
import { measurePaired } from "./bench/load.mjs";
import { cpuPer, serviceCpu, waitForIdleRuntime } from "./bench/process-cpu.mjs";
import {
	caseRatios,
	consoleTable,
	evaluateTargets,
	generatedSection,
	spliceGenerated,
	tableRows,
	targetsTable,
} from "./bench/report.mjs";
import { seedProjection } from "./bench/seed.mjs";
import { measureFanOut } from "./bench/webhooks.mjs";
import { numberOption as option, ROOT } from "./lib.mjs";
import { call, startService } from "./local-service.mjs";

const settings = {
	durationS: option("duration", 10),
	warmupS: option("warmup", 3),
	connections: option("connections", 10),
	slices: option("slices", 5),
};
const asJson = process.argv.includes("--json");
const write = !process.argv.includes("--no-write");
const log = (...args) => (asJson ? console.error(...args) : console.log(...args));

const LIST_SIZE = 10_000;
const LARGE_LIST_SIZE = 100_000;
const BULK_SIZE = 100;
/** Round trips made, and not measured, before the WebSocket case. */
const WS_WARMUP_ANSWERS = 100;

async function main() {
	const startedAt = Date.now();
	const machine = {
		cpus: cpus().length,
		cpuModel: cpus()[0]?.model?.trim() ?? "unknown",
		loadBefore: loadavg()
			.map((v) => v.toFixed(2))
			.join(" / "),
		node: process.versions.node,
		wrangler: execFileSync(join(ROOT, "node_modules", ".bin", "wrangler"), ["--version"], {
			encoding: "utf8",
			timeout: 60_000,
			env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
		})
			.trim()
			.split("\n")
			.at(-1)
			.replace(/[^0-9.]/g, ""),
	};
	log("Starting the local service...");
	const service = await startService({ stopOnSignal: true });
	const results = { generatedAt: new Date().toISOString(), machine, settings, cases: [], baselines: [] };
	try {
		const admin = service.adminToken;
		const account = await prepareAccount(service, "Bench Company");
		const key = account.testKey;
		const auth = { Authorization: `Bearer ${key}` };
		const json = { ...auth, "Content-Type": "application/json" };

		const bulk = async (n, offset = 0, scheduledAt = WEEK_AHEAD) => {
			const created = [];
			for (let start = 0; start < n; start += BULK_SIZE) {
				const size = Math.min(BULK_SIZE, n - start);
				const body = {
					interviews: Array.from({ length: size }, (_, i) => interviewBody(offset + start + i, scheduledAt)),
				};
				const res = await call(service, "POST", "/v1/interviews/bulk", { key, body });
				if (res.data.failed.length !== 0)
					throw new Error(`bulk creation failed: ${JSON.stringify(res.data.failed).slice(0, 500)}`);
				created.push(...res.data.successful.map((s) => s.interview));
			}
			return created;
		};

		log(`Creating ${LIST_SIZE.toLocaleString("en-US")} interviews through bulk creation...`);
		const seedStart = Date.now();
		const seeded = await bulk(LIST_SIZE);
		log(`  done in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);
		const ids = seeded.map((i) => i.id);
		const getPool = ids.slice(0, 100);
		const patchPool = ids.slice(100, 200);
		const deletePool = ids.slice(200);

		const health = { path: "/api/v1/health/" };
		/** The service's CPU so far per process role (read around every slice of every case). */
		const cpu = () => serviceCpu(service.pid);
		const run = async (id, name, spec, extra = {}) => {
			const connections = extra.connections ?? settings.connections;
			const settledMs = await waitForIdleRuntime(cpu);
			log(`Measuring ${name}...`);
			const { result, baseline } = await measurePaired(
				service.baseUrl,
				spec,
				id === "health" ? null : health,
				{
					connections,
					durationS: settings.durationS,
					warmupS: settings.warmupS,
					slices: settings.slices,
					cpu,
					...extra,
				},
			);
			const entry = {
				id,
				name,
				connections,
				settledMs,
				result,
				baseline,
				ratio: caseRatios(result, baseline),
			};
			results.cases.push(entry);
			return entry;
		};
		/** The health endpoint alone, right before a measurement that is not an HTTP load case. */
		const healthNow = async (connections) =>
			(
				await measurePaired(service.baseUrl, health, null, {
					connections,
					durationS: settings.durationS,
					warmupS: 1,
					slices: settings.slices,
				})
			).result;
		const roundRobin = (pool, make) => {
			let i = 0;
			return (req) => make(req, pool[i++ % pool.length], i);
		};

		await run("health", "GET /api/v1/health/ (baseline)", { path: "/api/v1/health/" });
		await run("get", "GET /v1/interviews/{id}", {
			path: "/v1/interviews/x",
			headers: auth,
			setupRequest: roundRobin(getPool, (req, id) => ({ ...req, path: `/v1/interviews/${id}` })),
		});
		await run(`list_10k`, `GET /v1/interviews?status=scheduled&limit=100 (10,000 in account)`, {
			path: "/v1/interviews?status=scheduled&limit=100",
			headers: auth,
		});
		// The dashboard's two busiest pages, signed in as an owner of the bench account: the list
		// (its test data, the 10,000 interviews above) and a completed interview's results.
		log("Signing in to the dashboard...");
		const cookie = await dashboardSession(service, account.id);
		const [finished] = await bulk(1, 90_000, null);
		await call(service, "POST", `/v1/interviews/${finished.id}/test/advance`, {
			key,
			body: { to: "completed" },
		});
		for (const path of ["/dashboard/interviews?mode=test", `/dashboard/interviews/${finished.id}/results`]) {
			const page = await fetch(`${service.baseUrl}${path}`, { headers: { cookie }, redirect: "manual" });
			if (page.status !== 200) throw new Error(`${path} answered ${page.status}, not the page`);
			await page.arrayBuffer();
		}
		await run("dash_list", "GET /dashboard/interviews?mode=test (page)", {
			path: "/dashboard/interviews?mode=test",
			headers: { cookie },
		});
		await run("dash_results", "GET /dashboard/interviews/{id}/results (page)", {
			path: `/dashboard/interviews/${finished.id}/results`,
			headers: { cookie },
		});
		await run("post", "POST /v1/interviews", {
			method: "POST",
			path: "/v1/interviews",
			headers: json,
			body: JSON.stringify(interviewBody(0)),
		});
		await run(
			"post_1",
			"POST /v1/interviews, one connection",
			{ method: "POST", path: "/v1/interviews", headers: json, body: JSON.stringify(interviewBody(0)) },
			{ connections: 1 },
		);
		await run(
			"bulk",
			`POST /v1/interviews/bulk (${BULK_SIZE} items), one connection`,
			{
				method: "POST",
				path: "/v1/interviews/bulk",
				headers: json,
				body: JSON.stringify({ interviews: Array.from({ length: BULK_SIZE }, (_, i) => interviewBody(i)) }),
			},
			{ connections: 1, timeoutS: 120 },
		);
		await run("patch", "PATCH /v1/interviews/{id}", {
			method: "PATCH",
			path: "/v1/interviews/x",
			headers: json,
			// Every request changes the position, so each one is a real update with its event.
			setupRequest: roundRobin(patchPool, (req, id, n) => ({
				...req,
				path: `/v1/interviews/${id}`,
				body: JSON.stringify({ position: `Backend Engineer ${n}` }),
			})),
		});
		let next = 0;
		const deletes = await run(
			"delete",
			"DELETE /v1/interviews/{id} (each a fresh interview)",
			{
				method: "DELETE",
				path: "/v1/interviews/x",
				headers: auth,
				setupRequest: (req) => {
					const id = deletePool[next++];
					return id === undefined ? null : { ...req, path: `/v1/interviews/${id}` };
				},
			},
			{ warmupMaxRequests: Math.floor(deletePool.length / 5), budget: () => deletePool.length - next },
		);
		if (next > deletePool.length) log(`  the pool of ${deletePool.length} interviews ran out`);
		deletes.poolSize = deletePool.length;

		log("Measuring the WebSocket round trip...");
		let wsOffset = 50_000;
		const liveRoom = (answers, timeLimitMs, client = "websocket") =>
			measureLiveRoom({
				client,
				baseUrl: service.baseUrl,
				createInterviews: async (n) => {
					const made = await bulk(n, wsOffset, null);
					wsOffset += n;
					return made;
				},
				clients: settings.connections,
				answers,
				timeLimitMs,
			});
		// A warm-up like every HTTP case's: the room's code has not run before this point.
		await waitForIdleRuntime(cpu);
		const wsWarmup = await liveRoom(WS_WARMUP_ANSWERS, 30_000);
		await waitForIdleRuntime(cpu);
		const wsBaseline = await healthNow(settings.connections);
		results.baselines.push(wsBaseline);
		await waitForIdleRuntime(cpu);
		const wsCpuBefore = cpu();
		const room = await liveRoom(300, 90_000);
		results.websocket = {
			...room,
			cpuMsPerAnswer: cpuPer(wsCpuBefore, cpu(), room.answers),
			warmup: { answers: wsWarmup.answers, errors: wsWarmup.errors },
			baseline: wsBaseline,
		};
		log("Measuring the same round trip over socket.io-client...");
		await waitForIdleRuntime(cpu);
		const sioWarmup = await liveRoom(WS_WARMUP_ANSWERS, 30_000, "socketio");
		await waitForIdleRuntime(cpu);
		results.socketio = {
			...(await liveRoom(300, 90_000, "socketio")),
			warmup: { answers: sioWarmup.answers, errors: sioWarmup.errors },
			baseline: wsBaseline,
		};

		const total = (await call(service, "GET", "/v1/interviews?limit=1", { key })).pagination.total_count;
		log(`Seeding ${(LARGE_LIST_SIZE - total).toLocaleString("en-US")} projection rows (bench-only path)...`);
		seedProjection(service, {
			accountId: account.id,
			count: LARGE_LIST_SIZE - total,
			first: 1,
			before: Date.now() - 365 * 24 * 3600 * 1000,
		});
		const after = (await call(service, "GET", "/v1/interviews?limit=1", { key })).pagination.total_count;
		if (after !== LARGE_LIST_SIZE)
			throw new Error(`expected ${LARGE_LIST_SIZE} interviews after seeding, found ${after}`);
		await run("list_100k", `GET /v1/interviews?status=scheduled&limit=100 (100,000 in account)`, {
			path: "/v1/interviews?status=scheduled&limit=100",
			headers: auth,
		});

		log("Measuring webhook fan-out...");
		await waitForIdleRuntime(cpu);
		const hooksBaseline = await healthNow(settings.connections);
		results.baselines.push(hooksBaseline);
		const hooksAccount = await prepareAccount(service, "Bench Webhooks");
		const secret = (await call(service, "GET", `/admin/accounts/${hooksAccount.id}`, { key: admin })).data
			.webhook_secret;
		results.webhooks = {
			...(await measureFanOut({
				secret,
				endpoints: 10,
				timeLimitMs: 120_000,
				register: async (url) => {
					await call(service, "POST", "/v1/webhooks", {
						key: hooksAccount.testKey,
						body: { url, events: ["interview.scheduled"] },
					});
				},
				generate: async () => {
					let n = 0;
					for (let b = 0; b < 2; b++) {
						const res = await call(service, "POST", "/v1/interviews/bulk", {
							key: hooksAccount.testKey,
							body: {
								interviews: Array.from({ length: BULK_SIZE }, (_, i) => interviewBody(b * BULK_SIZE + i)),
							},
						});
						n += res.data.successful.length;
					}
					return n;
				},
			})),
			baseline: hooksBaseline,
		};
	} finally {
		await service.stop();
	}
	log("Building the bundle...");
	try {
		results.bundle = bundleSize();
	} catch (error) {
		log(String(error));
		results.bundle = null;
	}
	results.elapsedS = (Date.now() - startedAt) / 1000;
	results.targets = evaluateTargets(results);
	if (asJson) console.log(JSON.stringify(results, null, 2));
	else {
		console.log(`\n${consoleTable(tableRows(results))}\n`);
		console.log(targetsTable(results.targets));
		if (results.bundle)
			console.log(`\nBundle: ${results.bundle.bytes} bytes, ${results.bundle.gzipBytes} gzipped`);
	}
	if (write) {
		const path = join(ROOT, "docs", "performance.md");
		writeFileSync(path, spliceGenerated(readFileSync(path, "utf8"), generatedSection(results)));
		log("docs/performance.md updated.");
	}
}

/** A signed-in dashboard session of a new owner of the account: its Cookie header. */
async function dashboardSession(service, accountId) {
	const user = await call(service, "POST", `/admin/accounts/${accountId}/users`, {
		key: service.adminToken,
		body: { email: `bench-owner-${Date.now()}@example.com`, role: "owner" },
	});
	// The form first, as a browser shows it: its token, and the cookie that holds the same.
	const form = await fetch(`${service.baseUrl}/dashboard/login`);
	const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
	const formCookie = form.headers.getSetCookie().map((c) => c.split(";")[0]);
	const response = await fetch(`${service.baseUrl}/dashboard/login`, {
		method: "POST",
		redirect: "manual",
		headers: {
			"Content-Type": "application/x-www-form-urlencoded",
			Origin: service.baseUrl,
			Cookie: formCookie.join("; "),
		},
		body: new URLSearchParams({ _csrf: token, email: user.data.email, password: user.data.password }),
	});
	const cookies = response.headers.getSetCookie().map((c) => c.split(";")[0]);
	if (response.status !== 303 || cookies.length === 0)
		throw new Error(`dashboard sign-in failed: ${response.status} ${await response.text()}`);
	return cookies.join("; ");
}

/** A bench account on the enterprise plan, its limits and credits raised through the admin API. */
await main();
