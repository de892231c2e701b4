import { randomBase62 } from "../../../platform/lib/random";
import {
	type AckResult,
	type Awaited,
	ackPacket,
	awaitedOf,
	connectOk,
	eventOfPlain,
	type PlainMessage,
	plainOfEvent,
	type SocketPacket,
	settle,
} from "./wire";

/**
 * Close codes of the room that end a namespace for good (docs/live-room.md): the join link
 * replaced (4001), an observer's key revoked (4002), a live view's dashboard session ended (4003).
 * Reconnecting could not succeed after any of them.
 */
export const FINAL_ROOM_CLOSES = new Set([4001, 4002, 4003]);
/** At most this many interview namespaces on one Engine.IO session. */
export const MAX_NAMESPACES = 8;
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
export class RoomLink {
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
