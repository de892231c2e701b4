import { env, exports } from "cloudflare:workers";
import { interviewStub } from "../../src/interviews/stub";
import { BASE } from "./helpers";

export interface Room {
	ws: WebSocket;
	messages: any[];
	/** Waits (at most `ms`) for the first message after index `from` that matches. */
	next: (match: (m: any) => boolean, options?: { from?: number; ms?: number }) => Promise<any>;
	send: (message: unknown) => void;
	close: () => void;
}

export async function connect(
	id: string,
	token: string,
): Promise<{ status: number; requestId: string | null; room?: Room; body?: any }> {
	const response = await exports.default.fetch(
		`${BASE}/interview/${id}/?token=${encodeURIComponent(token)}`,
		{
			headers: { Upgrade: "websocket" },
		},
	);
	const ws = response.webSocket;
	const requestId = response.headers.get("X-Request-Id");
	if (!ws) return { status: response.status, requestId, body: await response.json() };
	ws.accept();
	const messages: any[] = [];
	const waiters: (() => void)[] = [];
	ws.addEventListener("message", (event) => {
		const text = String(event.data);
		// The keepalive's answer is the one frame that is not JSON.
		messages.push(text === "pong" ? { type: "pong" } : JSON.parse(text));
		for (const wake of waiters.splice(0)) wake();
	});
	const next: Room["next"] = async (match, options = {}) => {
		const deadline = Date.now() + (options.ms ?? 5000);
		for (;;) {
			const found = messages.slice(options.from ?? 0).find(match);
			if (found) return found;
			const left = deadline - Date.now();
			if (left <= 0)
				throw new Error(`no matching message; got ${JSON.stringify(messages.map((m) => m.type))}`);
			await new Promise<void>((resolve) => {
				waiters.push(resolve);
				setTimeout(resolve, Math.min(left, 200));
			});
		}
	};
	return {
		status: response.status,
		requestId,
		room: {
			ws,
			messages,
			next,
			send: (message) => ws.send(JSON.stringify(message)),
			close: () => ws.close(1000, "bye"),
		},
	};
}

/** An answer that covers every concept the interviewer's rubric looks for. */
export async function strongAnswerFor(id: string): Promise<string> {
	const state = await interviewStub(env, id).get();
	const planned = state?.transcript.at(-1)?.planned as {
		concepts: { name: string; keywords: string[] }[];
	} | null;
	const parts = (planned?.concepts ?? []).map(
		(c) =>
			`Regarding ${c.name}, I would rely on ${c.keywords.slice(0, 3).join(", ")} because it matters in production.`,
	);
	return `${parts.join(" ")} For example, in my last project we measured the trade-offs first, then chose deliberately. In summary, I balance correctness, performance and maintainability.`;
}

export async function answerAll(
	id: string,
	room: Room,
	answer: (id: string) => Promise<string>,
): Promise<{ answers: string[] }> {
	const answers: string[] = [];
	for (let i = 0; i < 25; i++) {
		const state = await interviewStub(env, id).get();
		if (state?.status !== "in_progress") break;
		const question = state.currentQuestion;
		if (!question) throw new Error("no current question");
		const text = await answer(id);
		answers.push(text);
		const from = room.messages.length;
		room.send({
			type: "candidate_response",
			session_id: id,
			question_id: question.id,
			response: text,
			timestamp: new Date().toISOString(),
		});
		await room.next(
			(m) =>
				(m.type === "question" && m.question.id !== question.id) ||
				(m.type === "interview_update" && m.interview.status === "completed") ||
				m.type === "error",
			{ from },
		);
	}
	return { answers };
}
