// A local OpenAI-compatible server on 127.0.0.1 (Node) for the openai interviewer's tests:
// POST /v1/chat/completions answers as the request's `model` says:
//   well-formed  a chat completion whose content is a valid judgement of the prompt's rubric
//   fenced       the same judgement wrapped in a ```json fence with prose around it
//   malformed    content that is not JSON
//   invalid      JSON that fails the schema (depth 7)
//   slow         a valid judgement after 8 s
//   failing      500 with an error body
// GET /__requests/<model> returns the requests received for that model (headers and JSON body).
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

interface Rubric {
	concepts: Array<{ name: string; hints: string[] }>;
	misconceptions: string[];
	links: Array<{ concept: string; cause: string; effect: string }>;
}

/** A judgement of the answer: concepts covered when a hint is in it, quoted verbatim. */
export function judge(prompt: { rubric: Rubric; answer: string }) {
	const answer = prompt.answer;
	const lower = answer.toLowerCase();
	return {
		concepts: prompt.rubric.concepts.map((c) => {
			const hint = c.hints.find((h) => lower.includes(h.replace(/\*$/, "").toLowerCase()));
			const at = hint ? lower.indexOf(hint.replace(/\*$/, "").toLowerCase()) : -1;
			return {
				name: c.name,
				covered: at >= 0,
				quote: at >= 0 ? answer.slice(at, at + (hint?.length ?? 0)) : null,
			};
		}),
		misconceptions: prompt.rubric.misconceptions.map((claim) => ({ claim, stated: false, quote: null })),
		links: prompt.rubric.links.map((l) => ({ concept: l.concept, made: lower.includes(" because ") })),
		depth: 0.8,
		structure: 0.7,
		feedback: "Judged by the local test server.",
		follow_up: "Which trade-off would you check first?",
	};
}

export interface OpenAiTestServer {
	port: number;
	close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString("utf8");
}

export async function startOpenAiServer(): Promise<OpenAiTestServer> {
	const requests = new Map<string, unknown[]>();
	const sockets = new Set<Socket>();
	const timers = new Set<ReturnType<typeof setTimeout>>();
	const server: Server = createServer(async (req, res) => {
		const url = new URL(req.url ?? "/", "http://127.0.0.1");
		if (req.method === "GET" && url.pathname.startsWith("/__requests/")) {
			res.writeHead(200, { "content-type": "application/json" });
			res.end(JSON.stringify(requests.get(decodeURIComponent(url.pathname.slice(12))) ?? []));
			return;
		}
		if (req.method !== "POST" || url.pathname !== "/v1/chat/completions") {
			res.writeHead(404).end();
			return;
		}
		const body = JSON.parse(await readBody(req)) as { model: string; messages: Array<{ content: string }> };
		const list = requests.get(body.model) ?? [];
		list.push({ headers: req.headers, body });
		requests.set(body.model, list);
		const prompt = JSON.parse(body.messages.at(-1)?.content ?? "{}") as { rubric: Rubric; answer: string };
		const completion = (content: string) =>
			JSON.stringify({
				id: "chatcmpl-test",
				object: "chat.completion",
				model: body.model,
				choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }],
			});
		const send = (status: number, text: string) => {
			if (res.writableEnded || res.destroyed) return;
			res.writeHead(status, { "content-type": "application/json" });
			res.end(text);
		};
		switch (body.model) {
			case "well-formed":
				return send(200, completion(JSON.stringify(judge(prompt))));
			case "fenced":
				return send(200, completion(`Here it is:\n\`\`\`json\n${JSON.stringify(judge(prompt))}\n\`\`\``));
			case "malformed":
				return send(200, completion("I think the answer is quite good {not json"));
			case "invalid":
				return send(200, completion(JSON.stringify({ ...judge(prompt), depth: 7 })));
			case "slow": {
				const timer = setTimeout(() => {
					timers.delete(timer);
					send(200, completion(JSON.stringify(judge(prompt))));
				}, 8_000);
				timers.add(timer);
				return;
			}
			default:
				return send(500, JSON.stringify({ error: { message: "upstream failure", type: "server_error" } }));
		}
	});
	server.on("connection", (s) => {
		sockets.add(s);
		s.on("close", () => sockets.delete(s));
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	return {
		port: (server.address() as AddressInfo).port,
		close: () =>
			new Promise<void>((resolve) => {
				for (const t of timers) clearTimeout(t);
				for (const s of sockets) s.destroy();
				server.close(() => resolve());
			}),
	};
}
