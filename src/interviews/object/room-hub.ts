import { usableKeyIds } from "../../accounts/accounts-repo";
import { getDb } from "../../platform/db/client";
import { constantTimeEqual } from "../../platform/lib/crypto";
import { errorText } from "../../platform/lib/error-text";
import type { InterviewState } from "../core/model";
import { joinRefusal, notFoundRefusal, parseClientFrame, upgradeRefusal } from "../room/frames";
import { liveSessionHashes } from "../room/observer-tickets";
import type { OutgoingMessage } from "../room/protocol";
import { roomView } from "../room/view";
import type { CommandResult, Rejected } from "./command-result";
import { messagesAfter, SeqCounter, saveMessages } from "./storage";

/** Close code of a candidate connection whose join link was replaced (docs/live-room.md). */
export const LINK_REPLACED_CLOSE = 4001;
/** Close code of an observer connection whose API key was revoked or expired. */
export const OBSERVER_KEY_CLOSE = 4002;
/** Close code of a dashboard live view whose session ended (sign-out, removal, expiry). */
export const OBSERVER_SESSION_CLOSE = 4003;
/** How often observers' keys (and live views' sessions) are looked up again in D1 while their connections last. */
export const OBSERVER_KEY_CHECK_MS = 30_000;

type Role = "candidate" | "observer";

interface ObserverKey {
	id: string;
	expiresAt: number | null;
}

export interface RoomDeps {
	env: Env;
	clock(): number;
	state(): InterviewState | null;
	/** The candidate's join with `token`, started when a slot is free (the object's `join`). */
	join(token: string, now: number): Promise<CommandResult>;
	/** The candidate's answer and `end_interview`, each carried out in its turn. */
	answer(questionId: string, response: string, sentAt: string | null, now: number): Promise<CommandResult>;
	end(now: number): Promise<CommandResult>;
}

/** The room's update for `state`: `waiting` while a joined candidate waits for a slot. */
export function roomUpdate(state: InterviewState): OutgoingMessage {
	return {
		type: "interview_update",
		interview: roomView(state, state.status === "scheduled" && state.joinedAt !== null),
	};
}

/**
 * The room's connections (docs/live-room.md): the upgrade, the candidate's frames, broadcasts
 * numbered by the room's sequence and stored for `resync`, and observers' keys checked again
 * while they watch. The room uses the standard WebSocket API, not hibernation: a hibernatable
 * message is a new event for the runtime, which cost more than the answer's own work
 * (docs/performance.md). A connection lives as long as this instance; should the object be
 * evicted, the page reconnects and resyncs.
 */
export class RoomHub {
	/** The room's message sequence. */
	private readonly seq: SeqCounter;
	/** The room's open connections and their roles. */
	private readonly sockets = new Map<WebSocket, Role>();
	/** Each observer connection's API key, checked again while it lasts (`checkObserverKeys`). */
	private readonly observerKeys = new Map<WebSocket, ObserverKey>();
	/** Each dashboard live view's session (the hash `observer_tickets` names), checked the same way. */
	private readonly observerSessions = new Map<WebSocket, string>();
	/** When the observers' keys were last looked up in D1, and the lookup in flight. */
	private observerKeysCheckedAt = 0;
	private observerKeysCheck: Promise<void> | null = null;

	constructor(
		private readonly storage: DurableObjectStorage,
		private readonly deps: RoomDeps,
	) {
		this.seq = new SeqCounter(storage.sql);
	}

	/** The upgrade, on the opened interview; the Worker has already checked observers' keys. */
	async upgrade(request: Request): Promise<Response> {
		const now = this.deps.clock();
		const requestId = request.headers.get("X-Request-Id") ?? "unknown";
		const state = this.deps.state();
		// The id asked for, as the Worker's own refusal gives it (`/interview/{id}/`).
		const asked = decodeURIComponent(new URL(request.url).pathname.split("/")[2] ?? "");
		if (!state) return notFoundRefusal(asked, requestId, now);
		const role: Role = request.headers.get("X-Room-Role") === "observer" ? "observer" : "candidate";
		if (role === "observer") {
			// The Worker checked the key; this object checks that its account owns the interview.
			if (
				request.headers.get("X-Room-Account") !== state.accountId ||
				request.headers.get("X-Room-Environment") !== state.environment
			) {
				return notFoundRefusal(asked, requestId, now);
			}
		} else {
			const token = new URL(request.url).searchParams.get("token");
			if (!token || !constantTimeEqual(token, state.joinToken)) {
				return upgradeRefusal("INVALID_TOKEN", "The join link's token is missing or wrong.", requestId, now);
			}
			const joined = await this.deps.join(token, now);
			// Checked again: the link may have been replaced while the join waited for a slot.
			if (!constantTimeEqual(token, (this.deps.state() as InterviewState).joinToken)) {
				return upgradeRefusal("INVALID_TOKEN", "The join link's token is missing or wrong.", requestId, now);
			}
			if (joined.status !== "ok") return joinRefusal(joined.error, requestId, now, asked);
		}
		const pair = new WebSocketPair();
		const [client, server] = [pair[0], pair[1]];
		server.accept();
		// A binary frame as bytes (read as UTF-8 text), not the standard's default Blob.
		server.binaryType = "arraybuffer";
		this.sockets.set(server, role);
		const keyId = request.headers.get("X-Room-Key");
		if (role === "observer" && keyId) {
			const expires = request.headers.get("X-Room-Key-Expires");
			this.observerKeys.set(server, { id: keyId, expiresAt: expires ? Number(expires) : null });
		}
		const sessionHash = request.headers.get("X-Room-Session");
		if (role === "observer" && sessionHash) this.observerSessions.set(server, sessionHash);
		server.addEventListener("message", (event) => {
			this.message(server, event.data).catch((error: unknown) => {
				console.error(
					JSON.stringify({
						message: "room message failed",
						interview_id: this.deps.state()?.id,
						error: errorText(error),
					}),
				);
			});
		});
		server.addEventListener("close", (event) => this.closed(server, event.code, event.reason));
		server.addEventListener("error", () => this.forget(server));
		const current = this.deps.state() as InterviewState;
		this.send(server, roomUpdate(current));
		if (current.currentQuestion) this.send(server, { type: "question", question: current.currentQuestion });
		// Its headers cannot change once returned, so the request id the Worker passed goes on here.
		return new Response(null, { status: 101, webSocket: client, headers: { "X-Request-Id": requestId } });
	}

	private async message(ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
		// Keepalive: answered as is, outside the protocol's numbering.
		if (raw === "ping") return ws.send("pong");
		const now = this.deps.clock();
		const frame = parseClientFrame(raw);
		if (!frame.ok) return this.send(ws, frame.error);
		const msg = frame.message;
		if (msg.type === "resync") {
			// An observer's key is checked first when its check is due: history is not replayed to a
			// revoked key.
			if (this.observerKeys.has(ws) || this.observerSessions.has(ws)) await this.checkObserverKeys(now);
			if (!this.sockets.has(ws)) return;
			for (const payload of messagesAfter(this.storage.sql, msg.after_seq)) ws.send(payload);
			return;
		}
		if (this.sockets.get(ws) !== "candidate") {
			return this.send(ws, { type: "error", code: "FORBIDDEN", message: "Observers can only watch." });
		}
		const state = this.deps.state();
		if (!state) return;
		if (msg.type === "end_interview") {
			const result = await this.deps.end(now);
			if (result.status !== "ok") this.sendRefusal(ws, result);
			return;
		}
		if (msg.session_id !== state.id) {
			return this.send(ws, {
				type: "error",
				code: "WRONG_SESSION",
				message: "session_id is not this interview.",
			});
		}
		// The transcript keeps the answer without the spaces and line breaks around it.
		const result = await this.deps.answer(msg.question_id, msg.response.trim(), msg.timestamp, now);
		if (result.status !== "ok") this.sendRefusal(ws, result);
	}

	/** Numbers, stores (one statement) and sends messages to every connection, in order. */
	broadcast(...messages: OutgoingMessage[]): void {
		const numbered = messages.map((message) => {
			const seq = this.seq.take();
			return { seq, payload: JSON.stringify({ ...message, seq }) };
		});
		saveMessages(this.storage.sql, numbered);
		if (this.observerKeys.size > 0 || this.observerSessions.size > 0)
			void this.checkObserverKeys(this.deps.clock());
		for (const ws of this.sockets.keys()) {
			for (const { payload } of numbered) {
				try {
					ws.send(payload);
				} catch {
					// closed meanwhile
				}
			}
		}
	}

	/**
	 * The join link was replaced (a new candidate address): connections opened with the old one
	 * may no longer act as the candidate. Their page reconnects, is refused and says so.
	 */
	closeCandidates(): void {
		for (const [ws, role] of this.sockets) {
			if (role === "candidate") this.drop(ws, LINK_REPLACED_CLOSE, "The join link was replaced.");
		}
	}

	/**
	 * The dashboard session `sessionHash` ended (sign-out, the user removed): its live views close
	 * at once. Returns how many connections were closed.
	 */
	closeSession(sessionHash: string, reason: string): number {
		let closed = 0;
		for (const [ws, hash] of this.observerSessions) {
			if (hash !== sessionHash) continue;
			this.drop(ws, OBSERVER_SESSION_CLOSE, reason);
			closed++;
		}
		return closed;
	}

	/** After the storage was deleted (the purge): the sequence starts again. */
	reset(): void {
		this.seq.reset();
	}

	private send(ws: WebSocket, message: OutgoingMessage): void {
		const seq = this.seq.take();
		try {
			ws.send(JSON.stringify({ ...message, seq }));
		} catch {
			// The socket closed; the client resyncs when it reconnects.
		}
	}

	private sendRefusal(ws: WebSocket, result: Rejected): void {
		const e = result.error;
		const message =
			"message" in e
				? e.message
				: e.code === "INVALID_OPERATION"
					? `The interview is ${e.status}.`
					: e.code === "INTERVIEW_NOT_OPEN"
						? `The interview opens at ${new Date(e.opensAt).toISOString()}.`
						: `Not possible now (${e.code}).`;
		this.send(ws, { type: "error", code: e.code, message });
	}

	/**
	 * Observers' keys, checked again while their connections last: an expired key's connection
	 * is closed at once; revocation is looked up in D1 at most every `OBSERVER_KEY_CHECK_MS`, when
	 * something is about to reach observers. Resolves when a lookup due now has finished.
	 */
	private checkObserverKeys(now: number): Promise<void> {
		for (const [ws, key] of this.observerKeys) {
			if (key.expiresAt !== null && key.expiresAt <= now)
				this.drop(ws, OBSERVER_KEY_CLOSE, "The API key expired.");
		}
		if (this.observerKeysCheck) return this.observerKeysCheck;
		const watching = this.observerKeys.size + this.observerSessions.size;
		if (watching === 0 || now - this.observerKeysCheckedAt < OBSERVER_KEY_CHECK_MS) {
			return Promise.resolve();
		}
		this.observerKeysCheckedAt = now;
		const db = getDb(this.deps.env.DB);
		const ids = [...new Set([...this.observerKeys.values()].map((key) => key.id))];
		const hashes = [...new Set(this.observerSessions.values())];
		this.observerKeysCheck = Promise.all([usableKeyIds(db, ids, now), liveSessionHashes(db, hashes, now)])
			.then(([usable, live]) => {
				for (const [ws, key] of this.observerKeys) {
					if (!usable.has(key.id)) this.drop(ws, OBSERVER_KEY_CLOSE, "The API key is no longer valid.");
				}
				for (const [ws, hash] of this.observerSessions) {
					if (!live.has(hash)) this.drop(ws, OBSERVER_SESSION_CLOSE, "The dashboard session ended.");
				}
			})
			.catch((error: unknown) => {
				// Looked up again at the next chance rather than after a whole period.
				this.observerKeysCheckedAt = 0;
				console.error(
					JSON.stringify({
						message: "observer key check failed",
						interview_id: this.deps.state()?.id,
						error: errorText(error),
					}),
				);
			})
			.finally(() => {
				this.observerKeysCheck = null;
			});
		return this.observerKeysCheck;
	}

	/** Closes a connection this object ends, and forgets it. */
	private drop(ws: WebSocket, code: number, reason: string): void {
		this.forget(ws);
		try {
			ws.close(code, reason);
		} catch {
			// already closed
		}
	}

	private forget(ws: WebSocket): void {
		this.sockets.delete(ws);
		this.observerKeys.delete(ws);
		this.observerSessions.delete(ws);
	}

	/** The peer closed: answered with a close (1005/1006 are not codes one may send). */
	private closed(ws: WebSocket, code: number, reason: string): void {
		this.forget(ws);
		try {
			ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
		} catch {
			// already closed
		}
	}
}
