/**
 * `npm run eval -- --base http://127.0.0.1:PORT --key <key>`: the same graded answers through the
 * running service. For each skill and answer kind it creates a test-mode interview for that skill,
 * joins its room over the WebSocket, answers every asked question that the graded set covers (the
 * service chooses the questions adaptively) with that kind's answer, ends the interview at the
 * first question the set does not cover, and reads the results and per-question scores back.
 */
import { BANKS } from "../src/interviewer/bank";
import { OfflineInterviewer } from "../src/interviewer/offline";
import type { PlannedQuestion } from "../src/interviewer/types";
import { mean } from "./metrics";
// Types only: run.ts imports this module while its own top-level await is pending.
import type { EvalFile, Kind } from "./run";

interface Options {
	base: string;
	key: string;
	files: EvalFile[];
	splits: Array<"tune" | "holdout">;
	limit: number;
	kinds: readonly Kind[];
	planned: (bankId: string) => PlannedQuestion;
	responseSeconds: number;
}

async function call(base: string, key: string, method: string, path: string, body?: unknown) {
	const res = await fetch(`${base}${path}`, {
		method,
		headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(15_000),
	});
	const json = (await res.json()) as { success?: boolean; data?: Record<string, unknown>; error?: unknown };
	if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json.error ?? json)}`);
	return json.data ?? {};
}

/** Answers one interview over the WebSocket; resolves with the bank ids answered, in order. */
function answerOverSocket(
	wsUrl: string,
	id: string,
	answerFor: (questionText: string) => string | null,
): Promise<string[]> {
	return new Promise((resolve, reject) => {
		const ws = new WebSocket(wsUrl);
		const answered: string[] = [];
		let current: string | null = null;
		const timer = setTimeout(() => {
			ws.close();
			reject(new Error(`interview ${id}: no completion within 60 s`));
		}, 60_000);
		const finish = () => {
			clearTimeout(timer);
			ws.close();
			resolve(answered);
		};
		ws.addEventListener("message", (event: { data: unknown }) => {
			const message = JSON.parse(String(event.data)) as {
				type: string;
				question?: { id: string; text: string };
				interview?: { status?: string };
				message?: string;
			};
			if (message.type === "error") {
				clearTimeout(timer);
				ws.close();
				reject(new Error(`interview ${id}: ${message.message}`));
			} else if (message.type === "question" && message.question && message.question.id !== current) {
				current = message.question.id;
				const text = answerFor(message.question.text);
				if (text === null) {
					ws.send(JSON.stringify({ type: "end_interview" }));
					return;
				}
				answered.push(message.question.text);
				ws.send(
					JSON.stringify({
						type: "candidate_response",
						session_id: id,
						question_id: current,
						response: text,
						timestamp: new Date().toISOString(),
					}),
				);
			} else if (message.type === "interview_update" && message.interview?.status === "completed") finish();
		});
		ws.addEventListener("error", () => {
			clearTimeout(timer);
			reject(new Error(`interview ${id}: WebSocket error`));
		});
	});
}

async function waitForResults(base: string, key: string, id: string) {
	for (let i = 0; i < 40; i++) {
		const data = await call(base, key, "GET", `/v1/interviews/${id}?include_results=true`);
		if (data.results)
			return data as {
				results: { overall_score: number; recommendation: string };
				analytics: { question_difficulty_progression: Array<{ score: number | null }> };
			};
		await new Promise((r) => setTimeout(r, 500));
	}
	throw new Error(`interview ${id}: no results within 20 s`);
}

export async function runServiceInterviews(options: Options): Promise<void> {
	const {
		base,
		key,
		files,
		splits,
		limit,
		kinds: KINDS,
		planned,
		responseSeconds: RESPONSE_SECONDS,
	} = options;
	const wsBase = base.replace(/^http/, "ws");
	const offline = new OfflineInterviewer();
	for (const split of splits) {
		console.log(
			`== service ${base}, split ${split} (questions the service asks outside the split end the interview)`,
		);
		const rows: Array<{
			kind: Kind;
			overall: number;
			recommendation: string;
			answered: number;
			agree: number;
		}> = [];
		for (const file of files) {
			const bank = BANKS.find((b) => b.key === file.skill);
			const questions = file.questions.filter((q) => q.split === split).slice(0, limit);
			if (!bank || questions.length === 0) continue;
			for (const kind of KINDS) {
				const byText = new Map(questions.map((q) => [q.question, q]));
				const created = await call(base, key, "POST", "/v1/interviews", {
					candidate_email: `eval+${file.skill}.${kind}@example.com`,
					position: "Software Engineer",
					skills: [file.skill_name],
					duration_minutes: 15,
					difficulty: "intermediate",
					send_invitation: false,
					test_mode: true,
				});
				const id = String(created.id);
				const token = new URL(String(created.interview_url)).searchParams.get("token") ?? "";
				const answeredTexts = await answerOverSocket(
					`${wsBase}/interview/${id}/?token=${encodeURIComponent(token)}`,
					id,
					(text) => {
						const q = byText.get(text);
						return q?.answers.find((a) => a.kind === kind)?.text ?? null;
					},
				);
				const data = await waitForResults(base, key, id);
				// The same answers scored in-process: the service must agree answer for answer.
				const steps = data.analytics.question_difficulty_progression;
				let agree = 0;
				for (const [i, text] of answeredTexts.entries()) {
					const q = byText.get(text);
					const a = q?.answers.find((x) => x.kind === kind);
					if (!q || !a) continue;
					const local = await offline.scoreAnswer(planned(q.question_id), a.text, RESPONSE_SECONDS);
					if (steps[i]?.score === local.score) agree++;
				}
				rows.push({
					kind,
					overall: data.results.overall_score,
					recommendation: data.results.recommendation,
					answered: answeredTexts.length,
					agree,
				});
			}
		}
		for (const kind of KINDS) {
			const r = rows.filter((x) => x.kind === kind);
			if (!r.length) continue;
			const count = (rec: string) => r.filter((x) => x.recommendation === rec).length;
			const answered = r.reduce((n, x) => n + x.answered, 0);
			console.log(
				`  ${kind.padEnd(18)} interviews ${r.length}, answers ${answered} (${r.reduce((n, x) => n + x.agree, 0)} scored as in-process), overall mean ${mean(r.map((x) => x.overall)).toFixed(1)}, hire ${count("hire")} maybe ${count("maybe")} no_hire ${count("no_hire")}`,
			);
		}
	}
}
