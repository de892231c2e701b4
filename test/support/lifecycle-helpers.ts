import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { InterviewObject } from "../../src/interviews/object/interview-object";
import { interviewStub } from "../../src/interviews/stub";
import { call, validInterview } from "./helpers";

export function stubOf(id: string) {
	return env.INTERVIEW.get(env.INTERVIEW.idFromName(id));
}

export async function createInterview(key: string, body: Record<string, unknown> = {}) {
	const res = await call("POST", "/v1/interviews", { key, body: validInterview(body) });
	if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
	const url = new URL(res.body.data.interview_url);
	return {
		id: res.body.data.id as string,
		token: url.searchParams.get("token") as string,
		data: res.body.data,
	};
}

/** Reaches in_progress through the object's own join (the candidate's connection). */
export async function startInterview(key: string, body: Record<string, unknown> = {}) {
	const created = await createInterview(key, body);
	const result = await interviewStub(env, created.id).join(created.token, Date.now());
	if (result.status !== "ok" || result.interview.status !== "in_progress") {
		throw new Error(`join failed: ${JSON.stringify(result)}`);
	}
	return created;
}

/** Reaches completed through the object's own finish. */
export async function completeInterview(key: string, body: Record<string, unknown> = {}) {
	const created = await startInterview(key, body);
	const result = await interviewStub(env, created.id).finish("candidate_ended", Date.now());
	if (result.status !== "ok") throw new Error(`finish failed: ${JSON.stringify(result)}`);
	return created;
}

/** Fires the interview's alarm as if the clock read `at`. */
export async function fireAlarmAt(id: string, at: number): Promise<boolean> {
	const stub = stubOf(id);
	await runInDurableObject(stub, (instance: InterviewObject) => {
		instance.clock = () => at;
	});
	return runDurableObjectAlarm(stub);
}

export async function eventsOf(id: string): Promise<{ type: string; data: any }[]> {
	const rows = await env.DB.prepare("SELECT type, data FROM events WHERE interview_id = ? ORDER BY seq")
		.bind(id)
		.all<{ type: string; data: string }>();
	return rows.results.map((r) => ({ type: r.type, data: JSON.parse(r.data) }));
}

export async function ledgerOf(
	accountId: string,
): Promise<{ kind: string; amount: number; interview_id: string | null }[]> {
	const rows = await env.DB.prepare(
		"SELECT kind, amount, interview_id FROM credit_ledger WHERE account_id = ? ORDER BY created_at",
	)
		.bind(accountId)
		.all<{ kind: string; amount: number; interview_id: string | null }>();
	return rows.results;
}

export async function projectionOf(id: string) {
	return env.DB.prepare(
		"SELECT status, version, scheduled_at, position, company_name FROM interviews WHERE id = ?",
	)
		.bind(id)
		.first<{
			status: string;
			version: number;
			scheduled_at: number;
			position: string;
			company_name: string;
		}>();
}
