import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/client";
import { observerTickets } from "../../platform/db/schema";
import { sha256Hex } from "../../platform/lib/crypto";
import { randomBase62 } from "../../platform/lib/random";

/**
 * Observer tickets: what the dashboard's live view connects with instead of an API key. A ticket
 * names one interview of one account, is good for one connection, and must be used within
 * `OBSERVER_TICKET_TTL_MS`; only its SHA-256 is stored.
 */
export const OBSERVER_TICKET_TTL_MS = 60_000;
export const OBSERVER_TICKET_PREFIX = "obt_";

export async function issueObserverTicket(
	db: Db,
	grant: { userId: string; accountId: string; interviewId: string },
	now: number,
): Promise<{ ticket: string; expiresAt: number }> {
	const ticket = `${OBSERVER_TICKET_PREFIX}${randomBase62(40)}`;
	const expiresAt = now + OBSERVER_TICKET_TTL_MS;
	await db
		.insert(observerTickets)
		.values({ ticketHash: await sha256Hex(ticket), ...grant, expiresAt })
		.run();
	return { ticket, expiresAt };
}

/** The ticket's grant if it is valid for this interview now; it is spent either way. */
export async function redeemObserverTicket(
	db: Db,
	ticket: string,
	interviewId: string,
	now: number,
): Promise<{ accountId: string } | null> {
	if (ticket.length > 100) return null;
	const hash = await sha256Hex(ticket);
	const row = await db.delete(observerTickets).where(eq(observerTickets.ticketHash, hash)).returning().get();
	if (!row || row.interviewId !== interviewId || row.expiresAt <= now) return null;
	return { accountId: row.accountId };
}
