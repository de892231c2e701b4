import type { Decoder } from "socket.io-parser";
import type { RoomLink } from "./room-link";
import type { EnginePacket, EngineSettings } from "./wire";

export interface Live {
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

export const SESSION_KEY = "session";
