#!/usr/bin/env node
// `npm run floors`: the floor of each bench case's calls on this machine. Starts the real local
// service (`npm start`'s script) with the development-only floor probe on (DEV_FLOOR_PROBE=1,
// src/platform/lib/floor-probe.ts), then runs, round after round, a slice of each of: the health
// endpoint, do-nothing calls shaped like each case's (scripts/bench/floors.mjs), and the real
// single fetch, list, create and update. Requests per second are pooled over the rounds and given
// as ratios to health's; a case's floor is the ratio its calls alone reach. The creates go to an
// account of their own, so that the list's stays at 1,000 interviews. Options: --rounds N
// (default 10), --slice S (seconds, default 2), --connections N (10), --json.
import { prepareAccount } from "./bench/account.mjs";
import { interviewBody } from "./bench/bodies.mjs";
import { FLOORS, floorRows } from "./bench/floors.mjs";
import { runSlice } from "./bench/load.mjs";
import { serviceCpu } from "./bench/process-cpu.mjs";
import { numberOption as option } from "./lib.mjs";
import { call, startService } from "./local-service.mjs";

const rounds = Math.min(option("rounds", 10), 100);
const sliceS = Math.min(option("slice", 2), 30);
const connections = Math.min(option("connections", 10), 100);
const asJson = process.argv.includes("--json");
const log = (...args) => console.error(...args);

log("Starting the local service with the floor probe...");
const service = await startService({ vars: { DEV_FLOOR_PROBE: "1" }, stopOnSignal: true });
try {
	const key = (await prepareAccount(service, "Floors")).testKey;
	// The creates' own account: the list's keeps its 1,000 interviews through the run.
	const createKey = (await prepareAccount(service, "Floors creates")).testKey;
	log("Creating 1,000 interviews...");
	const ids = [];
	for (let start = 0; start < 1000; start += 100) {
		const body = { interviews: Array.from({ length: 100 }, (_, i) => interviewBody(start + i)) };
		const res = await call(service, "POST", "/v1/interviews/bulk", { key, body });
		ids.push(...res.data.successful.map((s) => s.interview.id));
	}
	const auth = { Authorization: `Bearer ${key}` };
	const json = { ...auth, "Content-Type": "application/json" };
	const pool = (list) => {
		let i = 0;
		return () => list[i++ % list.length];
	};
	const getId = pool(ids.slice(0, 100));
	const patchId = pool(ids.slice(100, 200));
	let n = 0;
	const cases = {
		health: { path: "/api/v1/health/" },
		...Object.fromEntries(FLOORS.map((f) => [f.id, { path: `/__dev/floor/${f.shape}` }])),
		get: {
			path: "/v1/interviews/x",
			headers: auth,
			setupRequest: (req) => ({ ...req, path: `/v1/interviews/${getId()}` }),
		},
		list: { path: "/v1/interviews?status=scheduled&limit=100", headers: auth },
		create: {
			method: "POST",
			path: "/v1/interviews",
			headers: { Authorization: `Bearer ${createKey}`, "Content-Type": "application/json" },
			body: JSON.stringify(interviewBody(0)),
		},
		patch: {
			method: "PATCH",
			path: "/v1/interviews/x",
			headers: json,
			setupRequest: (req) => ({
				...req,
				path: `/v1/interviews/${patchId()}`,
				body: JSON.stringify({ position: `Backend Engineer ${n++}` }),
			}),
		},
	};
	const floorOf = { get: "floor_ai", list: "floor_a_d", create: "floor_a_b", patch: "floor_a_b" };
	log("Warming up every case (the single fetch's interviews are opened here)...");
	for (const spec of Object.values(cases))
		await runSlice(service.baseUrl, spec, { connections, durationS: 1 });
	const slices = Object.fromEntries(Object.keys(cases).map((id) => [id, []]));
	const order = Object.keys(cases);
	for (let round = 0; round < rounds; round++) {
		log(`Round ${round + 1} of ${rounds}...`);
		for (const id of round % 2 === 0 ? order : [...order].reverse()) {
			const before = serviceCpu(service.pid);
			const slice = await runSlice(service.baseUrl, cases[id], { connections, durationS: sliceS });
			const after = serviceCpu(service.pid);
			const cpu =
				before && after ? Object.fromEntries(Object.keys(after).map((r) => [r, after[r] - before[r]])) : null;
			slices[id].push({ ...slice, cpu });
		}
	}
	const rows = floorRows(slices, floorOf);
	if (asJson) {
		console.log(JSON.stringify({ rounds, sliceS, connections, rows }, null, 2));
	} else {
		const fixed = (v, d = 2) => (v === null || v === undefined ? "-" : v.toFixed(d));
		const shapeOf = Object.fromEntries(FLOORS.map((f) => [f.id, `${f.shape} (${f.of})`]));
		console.log(
			"| case | req/s | vs health | runtime CPU ms | all CPU ms | floor | floor vs health | share of floor | errors |",
		);
		console.log("| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |");
		for (const r of rows) {
			const name = shapeOf[r.id] ? `floor ${shapeOf[r.id]}` : r.id;
			console.log(
				`| ${name} | ${fixed(r.rps, 0)} | ${fixed(r.ratio)} | ${fixed(r.runtimeMs)} | ${fixed(r.allMs)} | ${r.floor ?? "-"} | ${fixed(r.floorRatio)} | ${fixed(r.ofFloor)} | ${r.problems} |`,
			);
		}
	}
	if (rows.some((r) => r.problems > 0)) process.exitCode = 1;
} finally {
	await service.stop();
}
