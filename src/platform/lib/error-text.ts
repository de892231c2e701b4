/**
 * An error as a log line's text, without the values of a failed query. The query builder's
 * errors read "Failed query: <sql>\nparams: <values>", and those values are what was being
 * written: join tokens in links, e-mail addresses, rendered notices, signing secrets. The SQL
 * and the database's own reason (the error's `cause`) are kept; the values never reach a log.
 */
export function errorText(error: unknown): string {
	if (!(error instanceof Error)) return String(error);
	return `${error.name}: ${errorReason(error)}`;
}

/** The same without the error's name, for a reason stored on a row ("550 mailbox unavailable"). */
export function errorReason(error: unknown): string {
	if (!(error instanceof Error)) return String(error);
	const at = error.message.indexOf("\nparams:");
	const message = at === -1 ? error.message : `${error.message.slice(0, at)} (values not logged)`;
	const cause = error.cause instanceof Error ? `; cause: ${errorText(error.cause)}` : "";
	return `${message}${cause}`;
}
