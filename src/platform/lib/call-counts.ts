/**
 * Development-only counters of the work a request causes: D1 statements and batches (counted in
 * the D1 guard, `src/platform/db/client.ts`) and the Worker's Durable Object calls (counted on the
 * namespaces the Worker is handed). On only when `ENVIRONMENT` is `development` and
 * `DEV_CALL_COUNTS=1` (`npm run capacity` sets it); production never counts.
 *
 * The counters are module state, so they see everything this isolate runs: locally the Worker and
 * every Durable Object share one isolate, so D1 statements made inside the objects are counted
 * too. Durable Object calls are counted where the Worker makes them; calls one object makes to
 * another (a slot release) are not. `scripts/capacity.mjs` reads them at `GET /__dev/call-counts`.
 */
export interface CallCounts {
	/** Statements prepared (each statement run, alone or in a batch). */
	d1Statements: number;
	/** Batches sent (one round trip each, however many statements). */
	d1Batches: number;
	/** Statements sent inside batches. */
	d1BatchedStatements: number;
	/** Statements run alone (one round trip each). Round trips = `d1Batches + d1Executions`. */
	d1Executions: number;
	/** Durable Object calls by binding and method (`ACCOUNT.countRequest`). */
	durableObjectCalls: Record<string, number>;
}

let enabled = false;
let counts: CallCounts = fresh();

function fresh(): CallCounts {
	return { d1Statements: 0, d1Batches: 0, d1BatchedStatements: 0, d1Executions: 0, durableObjectCalls: {} };
}

/** Turns counting on for this isolate when the environment asks for it; says whether it is on. */
export function callCountsWanted(env: { ENVIRONMENT?: string; DEV_CALL_COUNTS?: string }): boolean {
	enabled = env.ENVIRONMENT === "development" && env.DEV_CALL_COUNTS === "1";
	return enabled;
}

export function countD1Statement(): void {
	if (enabled) counts.d1Statements++;
}

/** Whether this isolate counts (then the D1 guard also wraps statements to count their runs). */
export function callCountsOn(): boolean {
	return enabled;
}

export function countD1Execution(): void {
	if (enabled) counts.d1Executions++;
}

export function countD1Batch(statements: number): void {
	if (!enabled) return;
	counts.d1Batches++;
	counts.d1BatchedStatements += statements;
}

/** The counts so far; with `reset`, counting starts again from zero. */
export function readCallCounts(reset: boolean): CallCounts {
	const current = counts;
	if (reset) counts = fresh();
	return current;
}

/** A namespace whose stubs count each method called on them. */
export function countingNamespace<T extends object>(namespace: T, binding: string): T {
	return new Proxy(namespace, {
		get(target, prop) {
			const value = Reflect.get(target, prop, target);
			if (prop !== "get" || typeof value !== "function") {
				return typeof value === "function" ? value.bind(target) : value;
			}
			return (...args: unknown[]) => countingStub(Reflect.apply(value, target, args), binding);
		},
	});
}

function countingStub(stub: object, binding: string): object {
	return new Proxy(stub, {
		get(target, prop) {
			const value = Reflect.get(target, prop);
			if (typeof prop !== "string" || typeof value !== "function") return value;
			return (...args: unknown[]) => {
				if (enabled) {
					const name = `${binding}.${prop}`;
					counts.durableObjectCalls[name] = (counts.durableObjectCalls[name] ?? 0) + 1;
				}
				return Reflect.apply(value, target, args);
			};
		},
	});
}
