// sendWebhook against a real receiver on 127.0.0.1 started in this process (Node's fetch): the
// attempt's timer covers reading the answer's body, not only connecting and the status line.
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifyAttempt } from "../../src/webhooks/classify";
import { sendWebhook } from "../../src/webhooks/send";

let server: Server;
let port: number;
const sockets = new Set<Socket>();
const stalled = new Set<ServerResponse>();

beforeAll(async () => {
	server = createServer((req, res) => {
		req.resume();
		req.on("end", () => {
			if (req.url === "/stall-body") {
				// 200 and one byte of the body, then nothing more until the client gives up.
				res.writeHead(200, { "Content-Type": "text/plain" });
				res.write("x");
				stalled.add(res);
				res.on("close", () => stalled.delete(res));
				return;
			}
			res.writeHead(200, { "Content-Type": "application/json" }).end('{"received":true}');
		});
	});
	server.on("connection", (socket) => {
		sockets.add(socket);
		socket.on("close", () => sockets.delete(socket));
	});
	port = await new Promise<number>((resolve) =>
		server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
	);
});

afterAll(async () => {
	for (const socket of sockets) socket.destroy();
	await new Promise((resolve) => server?.close(resolve));
});

const request = (path: string, timeoutMs: number) => ({
	url: `http://127.0.0.1:${port}${path}`,
	headers: { "Content-Type": "application/json" },
	body: '{"event":"interview.scheduled"}',
	timeoutMs,
});

/** Fails the test instead of hanging it when `promise` does not settle within `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const limit = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms);
	});
	return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

describe("sendWebhook timeout", () => {
	it("reports a complete 2xx answer within the timeout as a response", async () => {
		const outcome = await within(sendWebhook(request("/ok", 2000)), 5000);
		expect(outcome.result).toEqual({ kind: "response", status: 200 });
		expect(outcome.responseBody).toBe('{"received":true}');
		expect(classifyAttempt(outcome.result).outcome).toBe("succeeded");
	});

	it("reports a timeout when the timer runs out while the body of a 200 is still being read", async () => {
		const outcome = await within(sendWebhook(request("/stall-body", 300)), 5000);
		expect(outcome.result).toEqual({ kind: "timeout", afterMs: 300 });
		expect(outcome.durationMs).toBeGreaterThanOrEqual(250);
		expect(classifyAttempt(outcome.result)).toMatchObject({ outcome: "failed", errorType: "timeout" });
	});
});
