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
	decoder: Decoder;
	links: Map<string, RoomLink>;
	/** Namespaces whose room connection is being opened. */
	connecting: Set<string>;
	closed: boolean;
}

export const SESSION_KEY = "session";
