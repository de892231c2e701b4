import type { Db } from "../platform/db/client";
import { creditLedger } from "../platform/db/schema";

/** Idempotent by (interview, kind): a retried refund or debit is written once. */
export function insertLedgerEntry(db: Db, entry: typeof creditLedger.$inferInsert) {
	return db.insert(creditLedger).values(entry).onConflictDoNothing();
}
