import type { Decoder } from "socket.io-parser";
import type { RoomLink } from "./room-link";
import type { EnginePacket, EngineSettings } from "./wire";

export interface Live {
	sid: string;
	origin: string;
	/**
	 * The client's address at the handshake (`CF-Connecting-IP`), handed on with each namespace's
	 * room request so the candidate routes' refusal limit counts the client, not the session object.
	 */
	address: string | null;
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
	/** When the handshake opened the session, and whether a namespace has connected since. */
	openedAt: number;
	joined: boolean;
	decoder: Decoder;
	links: Map<string, RoomLink>;
	/** Namespaces whose room connection is being opened. */
	connecting: Set<string>;
	closed: boolean;
}

export const SESSION_KEY = "session";

/**
 * A session that has connected no namespace this long after its handshake ends, as Socket.IO's
 * own server ends it (its `connectTimeout`, 45 s by default): a client that never authenticates
 * cannot keep a session object, and the record it stored, alive by answering pings.
 */
export const CONNECT_TIMEOUT_MS = 45_000;
