// A real webhook receiver on 127.0.0.1 (Node): records every request with its raw body and
// headers, checks the `sha256=` signatures with node's crypto and the Standard Webhooks headers
// with the `standardwebhooks` library alone, and answers as each route's fault mode says.
// Tests steer it through a small control API, so one server serves every test in isolation:
//   PUT /__control/routes/<name>   {modes?: Mode[], fallback?: Mode, failRate?, seed?, secret?, previousSecret?}
//   GET /__control/requests/<name> -> RecordedRequest[]
//   GET /__control/trap            -> requests that reached the redirect target (must stay empty)
// Webhooks go to POST /hook/<name>.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Webhook } from "standardwebhooks";

export type Mode = "ok" | "500" | "503" | "404" | "410" | "hang" | "reset" | "redirect" | "random";

export interface RouteConfig {
	/** Answers for the next requests, in order; then `fallback` for every later one. */
	modes?: Mode[];
	fallback?: Mode;
	/** For `random`: the share of requests answered 500, drawn from a seeded generator. */
	failRate?: number;
	seed?: number;
	secret?: string;
	previousSecret?: string;
}

export interface RecordedRequest {
	method: string;
	path: string;
	headers: Record<string, string>;
	body: string;
	receivedAt: number;
	answered: Mode;
	status: number | null;
	/** Checked here with node:crypto, independently of the service's code. */
	signatureValid: boolean | null;
	envelopeSignatureValid: boolean | null;
	previousSignatureValid: boolean | null;
	/**
	 * `webhook-id`, `webhook-timestamp` and `webhook-signature` verified by the `standardwebhooks`
	 * library only (its 5-minute window included), keyed as docs/webhooks.md tells receivers to.
	 */
	standardSignatureValid: boolean | null;
	/** The same with the previous secret, which signs too during a rotation's overlap. */
	standardPreviousValid: boolean | null;
}

export interface WebhookReceiver {
	port: number;
	trapPort: number;
	close: () => Promise<void>;
}

interface RouteState extends RouteConfig {
	queue: Mode[];
	random: () => number;
}

function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function hmacMatches(secret: string, text: string, header: string | undefined): boolean {
	if (!header) return false;
	const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(text, "utf8").digest("hex")}`);
	const given = Buffer.from(header);
	return expected.length === given.length && timingSafeEqual(expected, given);
}

function envelopeSignatureMatches(secret: string, body: string): boolean {
	try {
		const inner = JSON.parse(body)?.webhook?.signature;
		if (typeof inner !== "string" || inner === "") return false;
		const emptied = body.replace(`"signature":"${inner}"`, '"signature":""');
		return emptied !== body && hmacMatches(secret, emptied, inner);
	} catch {
		return false;
	}
}

/** A receiver that knows only the Standard Webhooks library and the account's secret. */
function standardWebhookValid(secret: string, body: string, headers: Record<string, string>): boolean {
	try {
		new Webhook(secret, { format: "raw" }).verify(body, headers);
		return true;
	} catch {
		return false;
	}
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on("data", (c: Buffer) => chunks.push(c));
		req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
		req.on("error", reject);
	});
}

function listen(server: Server): Promise<number> {
	return new Promise((resolve) =>
		server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
	);
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
	const routes = new Map<string, RouteState>();
	const records = new Map<string, RecordedRequest[]>();
	const trapped: { path: string; headers: Record<string, string> }[] = [];
	const sockets = new Set<Socket>();
	const hanging = new Set<ServerResponse>();

	const trap = createServer((req, res) => {
		trapped.push({ path: req.url ?? "", headers: flatHeaders(req) });
		res.writeHead(200).end("trapped");
	});
	const trapPort = await listen(trap);

	const json = (res: ServerResponse, status: number, value: unknown) => {
		res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(value));
	};

	const server = createServer(async (req, res) => {
		const url = new URL(req.url ?? "/", "http://127.0.0.1");
		const body = await readBody(req);
		const control = /^\/__control\/(routes|requests)\/([\w-]+)$/.exec(url.pathname);
		if (control && req.method === "PUT" && control[1] === "routes") {
			const config = JSON.parse(body || "{}") as RouteConfig;
			routes.set(control[2] as string, {
				...config,
				queue: [...(config.modes ?? [])],
				random: mulberry32(config.seed ?? 1),
			});
			records.set(control[2] as string, []);
			return json(res, 200, { ok: true });
		}
		if (control && req.method === "GET" && control[1] === "requests") {
			return json(res, 200, records.get(control[2] as string) ?? []);
		}
		if (url.pathname === "/__control/trap") return json(res, 200, trapped);
		const hook = /^\/hook\/([\w-]+)$/.exec(url.pathname);
		if (!hook) return json(res, 404, { error: "unknown path" });
		const name = hook[1] as string;
		const route = routes.get(name) ?? { queue: [], random: mulberry32(1) };
		let mode: Mode = route.queue.shift() ?? route.fallback ?? "ok";
		if (mode === "random") mode = route.random() < (route.failRate ?? 0.3) ? "500" : "ok";
		const headers = flatHeaders(req);
		const secret = route.secret;
		const record: RecordedRequest = {
			method: req.method ?? "",
			path: url.pathname,
			headers,
			body,
			receivedAt: Date.now(),
			answered: mode,
			status: null,
			signatureValid: secret ? hmacMatches(secret, body, headers["x-service-signature"]) : null,
			envelopeSignatureValid: secret ? envelopeSignatureMatches(secret, body) : null,
			previousSignatureValid: route.previousSecret
				? hmacMatches(route.previousSecret, body, headers["x-service-signature-previous"])
				: null,
			standardSignatureValid: secret ? standardWebhookValid(secret, body, headers) : null,
			standardPreviousValid: route.previousSecret
				? standardWebhookValid(route.previousSecret, body, headers)
				: null,
		};
		const list = records.get(name) ?? [];
		list.push(record);
		records.set(name, list);
		switch (mode) {
			case "ok":
				record.status = 200;
				return json(res, 200, { received: true });
			case "500":
			case "503":
			case "404":
			case "410":
				record.status = Number(mode);
				return json(res, Number(mode), { error: `fault ${mode}` });
			case "redirect":
				record.status = 302;
				res.writeHead(302, { Location: `http://127.0.0.1:${trapPort}/trap/${name}` }).end();
				return;
			case "reset":
				req.socket.resetAndDestroy();
				return;
			case "hang":
				// Never answered; closed when the client gives up or the receiver stops.
				hanging.add(res);
				res.on("close", () => hanging.delete(res));
				return;
		}
	});
	server.on("connection", (socket) => {
		sockets.add(socket);
		socket.on("close", () => sockets.delete(socket));
	});
	const port = await listen(server);

	return {
		port,
		trapPort,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await Promise.all([
				new Promise((resolve) => server.close(resolve)),
				new Promise((resolve) => trap.close(resolve)),
			]);
		},
	};
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) {
		if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
	}
	return out;
}
