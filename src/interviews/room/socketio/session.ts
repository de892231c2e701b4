import { DurableObject } from "cloudflare:workers";
import { Decoder } from "socket.io-parser";
import { randomBase62 } from "../../../platform/lib/random";
import {
	type AckResult,
	type Awaited,
	ackPacket,
	awaitedOf,
	connectError,
	connectOk,
	decodeBody,
	decodeFrame,
	type EnginePacket,
	type EngineSettings,
	encodeBody,
	encodeFrame,
	engineError,
	engineSettings,
	eventOfPlain,
	interviewOfNamespace,
	openPacket,
	PacketType,
	type PlainMessage,
	parsePlain,
	plainOfEvent,
	refusalOf,
	type SocketPacket,
	settle,
	socketMessage,
} from "./wire";

/** Close codes of the room that end a namespace for good (docs/live-room.md). */
const FINAL_ROOM_CLOSES = new Set([4001, 4002]);
/** At most this many interview namespaces on one Engine.IO session. */
const MAX_NAMESPACES = 8;
/** An event whose outcome never shows (it should not happen) frees the queue after this. */
const ACK_TIMEOUT_MS = 60_000;
/** Client events waiting behind one whose outcome is awaited, per namespace. */
const MAX_QUEUED_EVENTS = 32;

interface Waiting {
	frame: string;
	ackId: number | undefined;
}

/**
 * One namespace `/interview/{id}/` on a session: a relay to the interview's Durable Object over
 * the plain channel's WebSocket, opened with the client's token exactly as a plain client opens
 * it. Room frames become events; events become room frames, sent one at a time: the next
 * waits until the room's replies show the outcome of the one before (`settle`), so each
 * acknowledgement and each `error` belongs to the event that caused it.
 */
class RoomLink {
	/** The question the client was last shown (`candidate_response` without `question_id`). */
	current: string | null = null;
	answered = 0;
	status = "";
	private outstanding: {
		ackId: number | undefined;
		awaited: Awaited;
		timer: ReturnType<typeof setTimeout>;
	} | null = null;
	private readonly queue: Waiting[] = [];

	/** Whether the client was told the namespace is connected (with the room's first frame). */
	connected = false;

	constructor(
		readonly nsp: string,
		readonly relay: WebSocket,
		private readonly emit: (packet: SocketPacket) => void,
	) {}

	/** A frame of the room: tracked, turned into an event, and matched against the awaited outcome. */
	fromRoom(message: PlainMessage): void {
		if (!this.connected) {
			// The room's first frame is the current state: the namespace is connected once it is
			// known, so events the client buffered while reconnecting answer the question it shows.
			this.connected = true;
			this.emit(connectOk(this.nsp, randomBase62(20)));
		}
		if (message.type === "interview_update") {
			const interview = message.interview as {
				current_question?: { id?: string } | null;
				questions_answered?: number;
				status?: string;
			};
			this.current = interview?.current_question?.id ?? null;
			this.answered = interview?.questions_answered ?? this.answered;
			this.status = interview?.status ?? this.status;
		} else if (message.type === "question") {
			this.current = (message.question as { id?: string } | undefined)?.id ?? this.current;
		}
		this.emit(eventOfPlain(this.nsp, message));
		if (this.outstanding) {
			const result = settle(this.outstanding.awaited, message);
			if (result) this.finish(result);
		}
	}

	/** A client event (`args` = [name, payload]), with the ack id when the client asked for one. */
	fromClient(args: unknown[], ackId: number | undefined): void {
		// The question is the one shown when the event arrived, not when it is sent.
		const { frame } = plainOfEvent(args, this.current);
		if (this.queue.length >= MAX_QUEUED_EVENTS) {
			if (ackId !== undefined) {
				this.emit(
					ackPacket(this.nsp, ackId, {
						ok: false,
						error: { code: "RATE_LIMITED", message: "Too many events waiting for their outcome." },
					}),
				);
			}
			return;
		}
		this.queue.push({ frame, ackId });
		this.pump();
	}

	/** Sends queued frames until one waits for its outcome. */
	private pump(): void {
		while (!this.outstanding) {
			const next = this.queue.shift();
			if (!next) return;
			try {
				this.relay.send(next.frame);
			} catch {
				return;
			}
			const { ackId } = next;
			// Counted when sent: an answer before it has had its outcome by now.
			const awaited = awaitedOf(next.frame, this.answered);
			// `resync` has no outcome of its own (the replay follows); ending an interview that is
			// over already changes nothing, as on the plain channel.
			if (awaited.type === "resync" || (awaited.type === "end_interview" && this.status === "completed")) {
				if (ackId !== undefined) this.emit(ackPacket(this.nsp, ackId, { ok: true }));
				continue;
			}
			const timer = setTimeout(
				() =>
					this.finish({
						ok: false,
						error: { code: "TIMEOUT", message: "The interview did not answer in time." },
					}),
				ACK_TIMEOUT_MS,
			);
			this.outstanding = { ackId, awaited, timer };
		}
	}

	private finish(result: AckResult): void {
		const outstanding = this.outstanding;
		if (!outstanding) return;
		clearTimeout(outstanding.timer);
		this.outstanding = null;
		if (outstanding.ackId !== undefined) this.emit(ackPacket(this.nsp, outstanding.ackId, result));
		this.pump();
	}

	close(code = 1000, reason = "Disconnected."): void {
		if (this.outstanding) clearTimeout(this.outstanding.timer);
		this.outstanding = null;
		this.queue.length = 0;
		try {
			this.relay.close(code, reason);
		} catch {
			// already closed
		}
	}
}

interface Live {
	sid: string;
	origin: string;
	settings: EngineSettings;
	transport: "polling" | "websocket";
	/** Packets for a polling client, sent with its next GET. */
	outbox: EnginePacket[];
	poll: ((packets: EnginePacket[]) => void) | null;
	ws: WebSocket | null;
	/** The WebSocket being probed while the client upgrades from polling. */
	probe: WebSocket | null;
	awaitingPong: boolean;
	pingSentAt: number;
	decoder: Decoder;
	links: Map<string, RoomLink>;
	/** Namespaces whose room connection is being opened. */
	connecting: Set<string>;
	closed: boolean;
}

const SESSION_KEY = "session";

/**
 * One Engine.IO session of a Socket.IO client (docs/live-room.md): the Worker routes every
 * request of the session here by its id. The object answers long-polling, accepts the WebSocket
 * (directly, or as the upgrade of a polling session), sends the heartbeat from its alarm, and
 * relays each namespace to the interview's own object over the plain channel. The composition
 * (src/worker.ts) hands it `openRoom`: the Worker's own route for the plain channel, so the
 * Socket.IO client is authenticated and refused exactly as a plain one.
 *
 * The client's socket uses the standard WebSocket API, not hibernation: the relay to the
 * interview is an outgoing WebSocket, which keeps the object in memory for as long as the
 * session lasts, so hibernating the client side would save nothing and make every frame a new
 * event for the runtime.
 */
export abstract class SocketIoSessionObject extends DurableObject<Env> {
	private live: Live | null = null;
	/** The alarm's clock. */
	clock: () => number = Date.now;

	/** Opens the plain channel for a namespace: a WebSocket upgrade request to the Worker's own route. */
	protected abstract openRoom(request: Request): Promise<Response>;

	override async fetch(request: Request): Promise<Response> {
		const url = new URL(request.url);
		const transport = url.searchParams.get("transport");
		const upgrade = request.headers.get("Upgrade")?.toLowerCase() === "websocket";
		if (!url.searchParams.get("sid")) return this.handshake(request, url, transport, upgrade);
		const live = this.live;
		if (!live || live.closed || live.sid !== url.searchParams.get("sid")) return engineError(1);
		if (transport === "websocket") {
			if (!upgrade || live.transport !== "polling" || live.probe) return engineError(3);
			return this.acceptProbe(live);
		}
		if (live.transport !== "polling") return engineError(3);
		if (request.method === "GET") return this.longPoll(live);
		if (request.method === "POST") return this.receive(live, request);
		return engineError(3);
	}

	private async handshake(request: Request, url: URL, transport: string | null, upgrade: boolean) {
		const sid = this.ctx.id.name ?? "";
		if (this.live || (await this.ctx.storage.get(SESSION_KEY))) return engineError(3);
		if (request.method !== "GET") return engineError(2);
		const settings = engineSettings(this.env);
		const websocket = transport === "websocket";
		if (websocket && !upgrade) return engineError(3);
		const live: Live = {
			sid,
			origin: url.origin,
			settings,
			transport: websocket ? "websocket" : "polling",
			outbox: [],
			poll: null,
			ws: null,
			probe: null,
			awaitingPong: false,
			pingSentAt: this.clock(),
			decoder: new Decoder(),
			links: new Map(),
			connecting: new Set(),
			closed: false,
		};
		live.decoder.on("decoded", (packet: SocketPacket) => this.onSocketPacket(live, packet));
		this.live = live;
		await this.ctx.storage.put(SESSION_KEY, { sid, opened_at: this.clock() });
		await this.ctx.storage.setAlarm(this.clock() + settings.pingInterval);
		const open = openPacket(sid, settings, websocket ? [] : ["websocket"]);
		if (!websocket) return pollingResponse([open]);
		const pair = new WebSocketPair();
		const [client, server] = [pair[0], pair[1]];
		server.accept();
		live.ws = server;
		this.listen(live, server);
		server.send(encodeFrame(open));
		return new Response(null, { status: 101, webSocket: client });
	}

	/** The long-polling GET: answered at once with what is waiting, else when something is. */
	private longPoll(live: Live): Promise<Response> | Response {
		if (live.poll) {
			// Two polls at once is a broken client: the session ends, as in the reference server.
			void this.close(live, "multiple polls");
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

	private async receive(live: Live, request: Request): Promise<Response> {
		const length = Number(request.headers.get("Content-Length") ?? 0);
		if (length > live.settings.maxPayload) {
			await this.close(live, "payload too large");
			return engineError(3, 413);
		}
		const body = await request.text();
		if (body.length > live.settings.maxPayload) {
			await this.close(live, "payload too large");
			return engineError(3, 413);
		}
		for (const packet of decodeBody(body)) {
			if (live.closed) break;
			this.onEnginePacket(live, packet, null);
		}
		return new Response("ok", { headers: { "Content-Type": "text/html", "Cache-Control": "no-store" } });
	}

	private acceptProbe(live: Live): Response {
		const pair = new WebSocketPair();
		const [client, server] = [pair[0], pair[1]];
		server.accept();
		live.probe = server;
		this.listen(live, server);
		return new Response(null, { status: 101, webSocket: client });
	}

	private listen(live: Live, ws: WebSocket): void {
		ws.addEventListener("message", (event) => {
			if (live.closed) return;
			if (typeof event.data !== "string" || event.data.length > live.settings.maxPayload) {
				void this.close(live, "unsupported frame");
				return;
			}
			this.onEnginePacket(live, decodeFrame(event.data), ws);
		});
		ws.addEventListener("close", () => {
			if (ws === live.probe) {
				live.probe = null;
				return;
			}
			if (ws === live.ws) void this.close(live, "transport close");
		});
		ws.addEventListener("error", () => {
			if (ws === live.ws) void this.close(live, "transport error");
		});
	}

	private onEnginePacket(live: Live, packet: EnginePacket, via: WebSocket | null): void {
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
					live.decoder.add(String(packet.data));
				} catch {
					void this.close(live, "parse error");
				}
				return;
			case "close":
				void this.close(live, "client close");
				return;
			case "error":
				void this.close(live, "parse error");
				return;
			default:
				return;
		}
	}

	private onSocketPacket(live: Live, packet: SocketPacket): void {
		switch (packet.type) {
			case PacketType.CONNECT:
				void this.connectNamespace(live, packet.nsp, packet.data);
				return;
			case PacketType.DISCONNECT: {
				const link = live.links.get(packet.nsp);
				live.links.delete(packet.nsp);
				link?.close();
				return;
			}
			case PacketType.EVENT: {
				const link = live.links.get(packet.nsp);
				if (link && Array.isArray(packet.data)) link.fromClient(packet.data, packet.id);
				return;
			}
			case PacketType.BINARY_EVENT:
			case PacketType.BINARY_ACK:
				void this.close(live, "binary packets are not supported");
				return;
			default:
				return;
		}
	}

	/** A namespace connection: refused with the room's own refusal, or relayed to the room. */
	private async connectNamespace(live: Live, nsp: string, auth: unknown): Promise<void> {
		if (live.links.has(nsp) || live.connecting.has(nsp)) return;
		const interviewId = interviewOfNamespace(nsp);
		if (!interviewId) {
			return this.send(
				live,
				connectError(nsp, { code: "NOT_FOUND", message: `No namespace '${nsp}': use /interview/{id}/.` }),
			);
		}
		if (live.links.size + live.connecting.size >= MAX_NAMESPACES) {
			return this.send(
				live,
				connectError(nsp, {
					code: "RATE_LIMITED",
					message: `At most ${MAX_NAMESPACES} interviews on one connection.`,
				}),
			);
		}
		const token =
			auth && typeof auth === "object" && typeof (auth as { token?: unknown }).token === "string"
				? (auth as { token: string }).token
				: "";
		live.connecting.add(nsp);
		let response: Response;
		try {
			response = await this.openRoom(
				new Request(
					`${live.origin}/interview/${encodeURIComponent(interviewId)}/?token=${encodeURIComponent(token)}`,
					{ headers: { Upgrade: "websocket" } },
				),
			);
		} catch (error) {
			console.error(JSON.stringify({ message: "socket.io room connect failed", error: String(error) }));
			response = Response.json(
				{ error: { code: "INTERNAL_ERROR", message: "The interview could not be reached." } },
				{ status: 500 },
			);
		} finally {
			live.connecting.delete(nsp);
		}
		const relay = response.status === 101 ? response.webSocket : null;
		if (!relay) return this.send(live, connectError(nsp, await refusalOf(response)));
		if (live.closed) {
			relay.accept();
			relay.close(1000, "Session closed.");
			return;
		}
		const link = new RoomLink(nsp, relay, (packet) => this.send(live, packet));
		live.links.set(nsp, link);
		relay.addEventListener("message", (event) => {
			const message = parsePlain(event.data as string | ArrayBuffer);
			if (message && live.links.get(nsp) === link) link.fromRoom(message);
		});
		relay.addEventListener("close", (event) => {
			if (live.links.get(nsp) !== link) return;
			live.links.delete(nsp);
			if (FINAL_ROOM_CLOSES.has(event.code) && link.connected) {
				// The join link was replaced or the observer's key is no longer valid: this
				// namespace ends, and the client does not reconnect to it by itself.
				this.send(live, { type: PacketType.DISCONNECT, nsp });
			} else {
				// The interview's object went away (evicted, redeployed): the client reconnects and
				// resumes, as the plain page does.
				void this.close(live, "room closed");
			}
		});
		relay.accept();
	}

	private send(live: Live, packet: SocketPacket): void {
		this.sendEngine(live, socketMessage(packet));
	}

	private sendEngine(live: Live, packet: EnginePacket): void {
		if (live.closed) return;
		if (live.transport === "websocket" && live.ws) {
			try {
				live.ws.send(encodeFrame(packet));
			} catch {
				void this.close(live, "transport close");
			}
			return;
		}
		live.outbox.push(packet);
		if (live.poll) live.poll(live.outbox.splice(0));
	}

	/** The heartbeat: a ping every `pingInterval`, and the session ends without a pong within `pingTimeout`. */
	override async alarm(): Promise<void> {
		const live = this.live;
		if (!live || live.closed) {
			await this.ctx.storage.deleteAll();
			return;
		}
		const now = this.clock();
		const { pingInterval, pingTimeout } = live.settings;
		if (live.awaitingPong) {
			if (now >= live.pingSentAt + pingTimeout) return this.close(live, "ping timeout");
			await this.ctx.storage.setAlarm(live.pingSentAt + pingTimeout);
			return;
		}
		const due = live.pingSentAt + pingInterval;
		if (now < due) {
			await this.ctx.storage.setAlarm(due);
			return;
		}
		live.awaitingPong = true;
		live.pingSentAt = now;
		this.sendEngine(live, { type: "ping" });
		// Fires at the pong's deadline: closes the session without one, else schedules the next ping.
		await this.ctx.storage.setAlarm(now + pingTimeout);
	}

	/** Ends the session: its room connections, its transport, and everything it stored. */
	private async close(live: Live, reason: string): Promise<void> {
		if (live.closed) return;
		live.closed = true;
		for (const link of live.links.values()) link.close(1000, "Socket.IO session closed.");
		live.links.clear();
		// A polling client learns of it from its pending poll (or the next, which is refused).
		live.poll?.([{ type: "close" }]);
		for (const ws of [live.ws, live.probe]) {
			try {
				ws?.close(1000, reason);
			} catch {
				// already closed
			}
		}
		if (this.live === live) this.live = null;
		await this.ctx.storage.deleteAlarm();
		await this.ctx.storage.deleteAll();
	}
}

function pollingResponse(packets: EnginePacket[]): Response {
	return new Response(encodeBody(packets), {
		headers: { "Content-Type": "text/plain; charset=UTF-8", "Cache-Control": "no-store" },
	});
}
