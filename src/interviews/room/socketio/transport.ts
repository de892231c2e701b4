import type { Live } from "./live";
import { decodeBody, decodeFrame, type EnginePacket, encodeBody, encodeFrame, engineError } from "./wire";

/**
 * The Engine.IO transports of a session: long-polling, the WebSocket, and the upgrade from one
 * to the other.
 */

/** Ends the session (the session object's own `close`). */
export type CloseSession = (live: Live, reason: string) => Promise<void>;

/** The long-polling GET: answered at once with what is waiting, else when something is. */
export function longPoll(live: Live, close: CloseSession): Promise<Response> | Response {
	if (live.poll) {
		// Two polls at once is a broken client: the session ends, as in the reference server.
		void close(live, "multiple polls");
		return engineError(3);
	}
	if (live.outbox.length > 0) {
		const packets = live.outbox.splice(0);
		return pollingResponse(packets);
	}
	// A client upgrading to the WebSocket waits for this poll to end before it switches.
	if (live.probe) return pollingResponse([{ type: "noop" }]);
	return new Promise((resolve) => {
		live.poll = (packets) => {
			live.poll = null;
			resolve(pollingResponse(packets));
		};
	});
}

export async function receive(live: Live, request: Request, close: CloseSession): Promise<Response> {
	const length = Number(request.headers.get("Content-Length") ?? 0);
	if (length > live.settings.maxPayload) {
		await close(live, "payload too large");
		return engineError(3, 413);
	}
	const body = await request.text();
	if (body.length > live.settings.maxPayload) {
		await close(live, "payload too large");
		return engineError(3, 413);
	}
	for (const packet of decodeBody(body)) {
		if (live.closed) break;
		onEnginePacket(live, packet, null, close);
	}
	return new Response("ok", { headers: { "Content-Type": "text/html", "Cache-Control": "no-store" } });
}

export function acceptProbe(live: Live, close: CloseSession): Response {
	const pair = new WebSocketPair();
	const [client, server] = [pair[0], pair[1]];
	server.accept();
	live.probe = server;
	listen(live, server, close);
	return new Response(null, { status: 101, webSocket: client });
}

export function listen(live: Live, ws: WebSocket, close: CloseSession): void {
	// Binary frames (a binary event's attachments) as bytes, not the standard's default Blob.
	ws.binaryType = "arraybuffer";
	ws.addEventListener("message", (event) => {
		if (live.closed) return;
		const size = typeof event.data === "string" ? event.data.length : event.data.byteLength;
		if (size > live.settings.maxPayload) {
			void close(live, "payload too large");
			return;
		}
		onEnginePacket(live, decodeFrame(event.data), ws, close);
	});
	ws.addEventListener("close", () => {
		if (ws === live.probe) {
			live.probe = null;
			return;
		}
		if (ws === live.ws) void close(live, "transport close");
	});
	ws.addEventListener("error", () => {
		if (ws === live.ws) void close(live, "transport error");
	});
}

export function onEnginePacket(
	live: Live,
	packet: EnginePacket,
	via: WebSocket | null,
	close: CloseSession,
): void {
	if (via && via === live.probe) {
		if (packet.type === "ping" && packet.data === "probe") {
			via.send(encodeFrame({ type: "pong", data: "probe" }));
			// The client pauses polling before it switches: end the poll it is waiting on.
			live.poll?.([{ type: "noop" }]);
		} else if (packet.type === "upgrade") {
			live.transport = "websocket";
			live.ws = via;
			live.probe = null;
			live.poll?.([{ type: "noop" }]);
			for (const waiting of live.outbox.splice(0)) via.send(encodeFrame(waiting));
		}
		return;
	}
	switch (packet.type) {
		case "pong":
			live.awaitingPong = false;
			return;
		case "message":
			try {
				// Text is a Socket.IO packet; bytes are the next attachment of a binary one (at most
				// 10 a packet: socket.io-parser refuses more, and bytes with no packet waiting).
				live.decoder.add(packet.data);
			} catch {
				void close(live, "parse error");
			}
			return;
		case "close":
			void close(live, "client close");
			return;
		case "error":
			void close(live, "parse error");
			return;
		default:
			return;
	}
}

export function sendEngine(live: Live, packet: EnginePacket, close: CloseSession): void {
	if (live.closed) return;
	if (live.transport === "websocket" && live.ws) {
		try {
			live.ws.send(encodeFrame(packet));
		} catch {
			void close(live, "transport close");
		}
		return;
	}
	live.outbox.push(packet);
	if (live.poll) live.poll(live.outbox.splice(0));
}

export function pollingResponse(packets: EnginePacket[]): Response {
	return new Response(encodeBody(packets), {
		headers: { "Content-Type": "text/plain; charset=UTF-8", "Cache-Control": "no-store" },
	});
}
