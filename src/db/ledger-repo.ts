import type { Db } from "./client";
import { creditLedger } from "./schema";

/** Idempotent by (interview, kind): a retried refund or debit is written once. */
export function insertLedgerEntry(db: Db, entry: typeof creditLedger.$inferInsert) {
	return db.insert(creditLedger).values(entry).onConflictDoNothing();
}
