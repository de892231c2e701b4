import { env, exports } from "cloudflare:workers";
import type { KeyEnvironment } from "../../src/accounts/keys";
import type { PlanId } from "../../src/accounts/plans";

export const BASE = "http://service.test";
export const ADMIN_TOKEN = "test-admin-token";

export interface Envelope<T = any> {
	success: boolean;
	data: T;
	pagination?: {
		next_cursor: string | null;
		has_more: boolean;
		total_count: number;
	};
	meta?: { timestamp: string; request_id: string };
	/** Present on errors; typed as always there so tests read it directly. */
	error: { code: string; message: string; details: Record<string, any> };
}

export interface Call<T = any> {
	status: number;
	headers: Headers;
	body: Envelope<T>;
}

export async function call<T = any>(
	method: string,
	path: string,
	options: {
		key?: string;
		body?: unknown;
		rawBody?: string;
		headers?: Record<string, string>;
	} = {},
): Promise<Call<T>> {
	const headers: Record<string, string> = { ...options.headers };
	if (options.key !== undefined) headers.Authorization = `Bearer ${options.key}`;
	let body: string | undefined = options.rawBody;
	if (options.body !== undefined) {
		body = JSON.stringify(options.body);
		headers["Content-Type"] ??= "application/json";
	}
	const response = await exports.default.fetch(`${BASE}${path}`, {
		method,
		headers,
		body,
	});
	return {
		status: response.status,
		headers: response.headers,
		body: (await response.json()) as Envelope<T>,
	};
}

export async function admin<T = any>(method: string, path: string, body?: unknown): Promise<Call<T>> {
	return call<T>(method, `/admin${path}`, { key: ADMIN_TOKEN, body });
}

export interface TestAccount {
	id: string;
	webhookSecret: string;
	key: (
		environment?: KeyEnvironment,
		options?: { permissions?: string[]; expires_at?: string },
	) => Promise<string>;
	live: string;
	test: string;
	dev: string;
}

/** A fresh account with one key per environment: storage is shared within a file. */
export async function newAccount(
	options: { plan?: PlanId; credits?: number; company_name?: string } = {},
): Promise<TestAccount> {
	const created = await admin("POST", "/accounts", {
		company_name: options.company_name ?? "Acme Testing",
		plan: options.plan ?? "enterprise",
		...(options.credits === undefined ? {} : { credits: options.credits }),
	});
	if (created.status !== 201) throw new Error(`account creation failed: ${JSON.stringify(created.body)}`);
	const id: string = created.body.data.id;
	const key: TestAccount["key"] = async (environment = "live", extra = {}) => {
		const res = await admin("POST", `/accounts/${id}/keys`, {
			name: `${environment} key`,
			environment,
			...extra,
		});
		if (res.status !== 201) throw new Error(`key creation failed: ${JSON.stringify(res.body)}`);
		return res.body.data.key as string;
	};
	return {
		id,
		webhookSecret: created.body.data.webhook_secret,
		key,
		live: await key("live"),
		test: await key("test"),
		dev: await key("dev"),
	};
}

export const validInterview = (overrides: Record<string, unknown> = {}) => ({
	candidate_email: "ada@example.com",
	position: "Backend Engineer",
	skills: ["TypeScript", "SQL"],
	...overrides,
});

/** Makes a D1 table unavailable while `run` runs: a real failure of the projection or the log. */
export async function withTableRenamed<T>(table: string, run: () => Promise<T>): Promise<T> {
	await env.DB.exec(`ALTER TABLE ${table} RENAME TO ${table}_unavailable`);
	try {
		return await run();
	} finally {
		await env.DB.exec(`ALTER TABLE ${table}_unavailable RENAME TO ${table}`);
	}
}

/** Runs `run` while every insert into `table` fails (a trigger aborts it); reads still work. */
export function withInsertsRefused<T>(table: string, run: () => Promise<T>): Promise<T> {
	return withStatementsRefused(table, "INSERT", run);
}

/** Runs `run` while every update of `table` fails (a trigger aborts it); reads still work. */
export function withUpdatesRefused<T>(table: string, run: () => Promise<T>): Promise<T> {
	return withStatementsRefused(table, "UPDATE", run);
}

async function withStatementsRefused<T>(
	table: string,
	kind: "INSERT" | "UPDATE",
	run: () => Promise<T>,
): Promise<T> {
	const trigger = `refuse_${table}_${kind.toLowerCase()}`;
	await env.DB.exec(
		`CREATE TRIGGER ${trigger} BEFORE ${kind} ON ${table} BEGIN SELECT RAISE(ABORT, '${kind.toLowerCase()}s refused'); END`,
	);
	try {
		return await run();
	} finally {
		await env.DB.exec(`DROP TRIGGER ${trigger}`);
	}
}
