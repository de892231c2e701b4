import { and, desc, eq, gt, inArray, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { DataEnvironment } from "../../accounts/keys";
import type { Db } from "../../platform/db/client";
import { observerTickets, sessions } from "../../platform/db/schema";
import { chunks } from "../../platform/lib/chunks";
import { sha256Hex } from "../../platform/lib/crypto";
import { errorText } from "../../platform/lib/error-text";
import { randomBase62 } from "../../platform/lib/random";
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "../../platform/lib/session-policy";
import { interviewStub } from "../stub";

/**
 * Observer tickets: what the dashboard's live view connects with instead of an API key. A ticket
 * names one interview of one account and the dashboard session it was issued to, is good for one
 * connection, and must be used within `OBSERVER_TICKET_TTL_MS`; only its SHA-256 is stored. A used
 * ticket's row stays as the record of that session's open live view, so that sign-out can close
 * it (`closeLiveViews`); it goes with the session.
 */
export const OBSERVER_TICKET_TTL_MS = 60_000;
export const OBSERVER_TICKET_PREFIX = "obt_";
/** The most live views one sign-out closes (the latest): each is one call to an interview's object. */
export const MAX_LIVE_VIEWS_CLOSED = 50;

export async function issueObserverTicket(
	db: Db,
	grant: {
		userId: string;
		accountId: string;
		interviewId: string;
		environment: DataEnvironment;
		sessionHash: string;
	},
	now: number,
): Promise<{ ticket: string; expiresAt: number }> {
	const ticket = `${OBSERVER_TICKET_PREFIX}${randomBase62(40)}`;
	const expiresAt = now + OBSERVER_TICKET_TTL_MS;
	await db.batch([
		db.insert(observerTickets).values({ ticketHash: await sha256Hex(ticket), ...grant, expiresAt }),
		// Housekeeping as tickets are issued: unused ones past their minute, and records of live
		// views older than any session can be.
		db
			.delete(observerTickets)
			.where(
				or(
					and(isNull(observerTickets.usedAt), lt(observerTickets.expiresAt, now)),
					lt(observerTickets.expiresAt, now - SESSION_ABSOLUTE_MS),
				),
			),
	]);
	return { ticket, expiresAt };
}

/** The ticket's grant if it is valid for this interview now; it is spent either way. */
export async function redeemObserverTicket(
	db: Db,
	ticket: string,
	interviewId: string,
	now: number,
): Promise<{ accountId: string; environment: DataEnvironment; sessionHash: string | null } | null> {
	if (ticket.length > 100) return null;
	const hash = await sha256Hex(ticket);
	const row = await db
		.update(observerTickets)
		.set({ usedAt: now })
		.where(and(eq(observerTickets.ticketHash, hash), isNull(observerTickets.usedAt)))
		.returning()
		.get();
	if (!row || row.interviewId !== interviewId || row.expiresAt <= now) return null;
	return { accountId: row.accountId, environment: row.environment, sessionHash: row.sessionHash };
}

/** Which of these sessions (by hash) are still signed in at `now`: present, not idle, not expired. */
export async function liveSessionHashes(
	db: Db,
	hashes: readonly string[],
	now: number,
): Promise<Set<string>> {
	const live = new Set<string>();
	// 90 hashes a statement: within D1's 100 bound parameters with the two times.
	for (const part of chunks([...hashes], 90)) {
		const rows = await db
			.select({ hash: sessions.tokenHash })
			.from(sessions)
			.where(
				and(
					inArray(sessions.tokenHash, part),
					gt(sessions.expiresAt, now),
					gt(sessions.lastSeenAt, now - SESSION_IDLE_MS),
				),
			)
			.all();
		for (const row of rows) live.add(row.hash);
	}
	return live;
}

/**
 * Closes the open live views of these sessions (sign-out, a removed user, an expired session):
 * asks the object of each interview the session watched (the latest `MAX_LIVE_VIEWS_CLOSED`) to
 * close that session's observer connections, then forgets the records. A call that fails is left
 * to the room's own check (`RoomHub`): the session is gone, so its connection is closed at the
 * room's next message. Returns the connections closed.
 */
export async function closeLiveViews(env: Env, db: Db, sessionHashes: readonly string[]): Promise<number> {
	if (sessionHashes.length === 0) return 0;
	const hashes = [...sessionHashes].slice(0, 90);
	try {
		// The latest views only: a session may have opened one on every page view for days.
		const latest = await db
			.select({ interviewId: observerTickets.interviewId, sessionHash: observerTickets.sessionHash })
			.from(observerTickets)
			.where(and(inArray(observerTickets.sessionHash, hashes), isNotNull(observerTickets.usedAt)))
			.orderBy(desc(observerTickets.expiresAt))
			.limit(MAX_LIVE_VIEWS_CLOSED)
			.all();
		const outcomes = await Promise.allSettled(
			latest.map((v) => interviewStub(env, v.interviewId).closeObserverSession(v.sessionHash as string)),
		);
		await db.delete(observerTickets).where(inArray(observerTickets.sessionHash, hashes)).run();
		return outcomes.reduce((n, o) => n + (o.status === "fulfilled" ? o.value.closed : 0), 0);
	} catch (error) {
		// Sign-out itself is done (the session is gone); the rooms' own check closes what is left.
		console.warn(JSON.stringify({ message: "live views not closed", error: errorText(error) }));
		return 0;
	}
}
