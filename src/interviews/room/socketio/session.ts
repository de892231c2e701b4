import { DurableObject } from "cloudflare:workers";
import { Decoder } from "socket.io-parser";
import { errorText } from "../../../platform/lib/error-text";
import { CONNECT_TIMEOUT_MS, type Live, SESSION_KEY } from "./live";
import { FINAL_ROOM_CLOSES, MAX_NAMESPACES, RoomLink } from "./room-link";
import {
	acceptProbe,
	type CloseSession,
	listen,
	longPoll,
	pollingResponse,
	receive,
	sendEngine,
} from "./transport";
import {
	connectError,
	encodeFrame,
	engineError,
	engineSettings,
	interviewOfNamespace,
	openPacket,
	PacketType,
	parsePlain,
	refusalOf,
	type SocketPacket,
	socketMessage,
} from "./wire";

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
	/** `close`, for the transports. */
	private readonly closeSession: CloseSession = (live, reason) => this.close(live, reason);

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
			return acceptProbe(live, this.closeSession);
		}
		if (live.transport !== "polling") return engineError(3);
		if (request.method === "GET") return longPoll(live, this.closeSession);
		if (request.method === "POST") return receive(live, request, this.closeSession);
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
			address: request.headers.get("CF-Connecting-IP"),
			settings,
			transport: websocket ? "websocket" : "polling",
			outbox: [],
			poll: null,
			ws: null,
			probe: null,
			awaitingPong: false,
			pingSentAt: this.clock(),
			openedAt: this.clock(),
			joined: false,
			decoder: new Decoder(),
			links: new Map(),
			connecting: new Set(),
			closed: false,
		};
		live.decoder.on("decoded", (packet: SocketPacket) => this.onSocketPacket(live, packet));
		this.live = live;
		await this.ctx.storage.put(SESSION_KEY, { sid, opened_at: this.clock() });
		await this.ctx.storage.setAlarm(wakeAt(live, this.clock() + settings.pingInterval));
		const open = openPacket(sid, settings, websocket ? [] : ["websocket"]);
		if (!websocket) return pollingResponse([open]);
		const pair = new WebSocketPair();
		const [client, server] = [pair[0], pair[1]];
		server.accept();
		live.ws = server;
		listen(live, server, this.closeSession);
		server.send(encodeFrame(open));
		return new Response(null, { status: 101, webSocket: client });
	}

	private onSocketPacket(live: Live, packet: SocketPacket): void {
		switch (packet.type) {
			case PacketType.CONNECT:
				this.connectNamespace(live, packet.nsp, packet.data).catch((error: unknown) => {
					// Not expected: every refusal is answered inside. Logged, and the client told.
					console.error(JSON.stringify({ message: "socket.io connect failed", error: errorText(error) }));
					this.send(
						live,
						connectError(packet.nsp, {
							code: "INTERNAL_ERROR",
							message: "The namespace could not be opened.",
						}),
					);
				});
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
					{
						headers: {
							Upgrade: "websocket",
							...(live.address ? { "CF-Connecting-IP": live.address } : {}),
						},
					},
				),
			);
		} catch (error) {
			console.error(JSON.stringify({ message: "socket.io room connect failed", error: errorText(error) }));
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
		live.joined = true;
		relay.addEventListener("message", (event) => {
			const message = parsePlain(event.data as string | ArrayBuffer);
			if (message && live.links.get(nsp) === link) link.fromRoom(message);
		});
		relay.addEventListener("close", (event) => {
			if (live.links.get(nsp) !== link) return;
			live.links.delete(nsp);
			if (FINAL_ROOM_CLOSES.has(event.code) && link.connected) {
				// The join link was replaced, or the observer's key or dashboard session is no
				// longer valid: this namespace ends, and the client does not reconnect to it by itself.
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
		sendEngine(live, socketMessage(packet), this.closeSession);
	}

	/** The heartbeat: a ping every `pingInterval`, and the session ends without a pong within `pingTimeout`. */
	override async alarm(): Promise<void> {
		const live = this.live;
		if (!live || live.closed) {
			await this.ctx.storage.deleteAll();
			return;
		}
		const now = this.clock();
		if (!live.joined && now >= live.openedAt + CONNECT_TIMEOUT_MS) return this.close(live, "connect timeout");
		const { pingInterval, pingTimeout } = live.settings;
		if (live.awaitingPong) {
			if (now >= live.pingSentAt + pingTimeout) return this.close(live, "ping timeout");
			await this.ctx.storage.setAlarm(wakeAt(live, live.pingSentAt + pingTimeout));
			return;
		}
		const due = live.pingSentAt + pingInterval;
		if (now < due) {
			await this.ctx.storage.setAlarm(wakeAt(live, due));
			return;
		}
		live.awaitingPong = true;
		live.pingSentAt = now;
		sendEngine(live, { type: "ping" }, this.closeSession);
		// Fires at the pong's deadline: closes the session without one, else schedules the next ping.
		await this.ctx.storage.setAlarm(wakeAt(live, now + pingTimeout));
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

/** The alarm's next time: the heartbeat's `at`, or sooner the connect timeout of a session with no namespace. */
function wakeAt(live: Live, at: number): number {
	return live.joined ? at : Math.min(at, live.openedAt + CONNECT_TIMEOUT_MS);
}
