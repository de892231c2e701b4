import { canonicalJson, requestFingerprint } from "../idempotency/fingerprint";
import { completeKey, findKey, type KeyScope, releaseKey } from "../idempotency/idempotency-repo";
import { takeKey } from "../idempotency/middleware";
import { getDb } from "../platform/db/client";
import { errorText } from "../platform/lib/error-text";
import { randomBase62 } from "../platform/lib/random";
import type { DashContext } from "./guard";

/**
 * Forms that create something carry an id made when the form is shown (`form_id`). The first post
 * of an id takes it in the account's idempotency store, the way an `Idempotency-Key` is taken
 * (its expiry and sweep included), and keeps what it made; the same form posted again (a second
 * click, a reload of the answer, the back button) finds it there and makes nothing more.
 */
const FORM_ID_LENGTH = 24;
const FORM_ID = /^[A-Za-z0-9]{24}$/;

export function newFormId(): string {
	return randomBase62(FORM_ID_LENGTH);
}

export function isFormId(value: string): boolean {
	return FORM_ID.test(value);
}

/**
 * The id's place in the store: the account's own, under a prefix no `Idempotency-Key` can have
 * (it holds a space, which the API's keys may not).
 */
export function formScope(c: DashContext, kind: string, formId: string): KeyScope {
	const { auth } = c.var.dashboard;
	return {
		accountId: auth.accountId,
		environment: auth.keyEnvironment,
		key: `dashboard form:${kind}:${formId}`,
	};
}

/** What a post of a guarded form may do. */
export type FormSend =
	/** The first post of this id: make the thing, then `done` with what to keep, or `failed`. */
	| { status: "first"; done(result: string): Promise<void>; failed(): Promise<void> }
	/** Already sent with the same values: what the first post kept (null while it is still running). */
	| { status: "sent"; result: string | null }
	/** Already sent with other values (the form was changed after going back to it). */
	| { status: "changed" }
	/** No id, or not one this service made: a page from before forms had ids. */
	| { status: "stale" };

/**
 * Takes `formId` for this post of a `kind` form whose values are `values` (the form's fields, the
 * CSRF token left out). Parallel posts of one id meet at the store's primary key: one is first.
 */
export async function sendOnce(
	c: DashContext,
	kind: string,
	formId: string,
	values: unknown,
	tries = 2,
): Promise<FormSend> {
	if (!isFormId(formId)) return { status: "stale" };
	const db = getDb(c.env.DB);
	const scope = formScope(c, kind, formId);
	const fingerprint = await requestFingerprint({
		method: "POST",
		path: `dashboard-${kind}`,
		query: new URLSearchParams(),
		body: canonicalJson(values),
	});
	const lockId = `${c.get("requestId")}#${randomBase62(16)}`;
	if (await takeKey(c.env, scope, fingerprint, lockId, c.get("now"))) {
		return {
			status: "first",
			done: async (result) => {
				await completeKey(db, scope, lockId, 200, result);
			},
			failed: async () => {
				// Nothing was made: the same form may be sent again.
				await releaseKey(db, scope, lockId);
			},
		};
	}
	const row = await findKey(db, scope);
	// Let go of meanwhile (the first post failed): this post may take it, once more.
	if (!row)
		return tries > 1 ? sendOnce(c, kind, formId, values, tries - 1) : { status: "sent", result: null };
	if (row.fingerprint !== fingerprint) return { status: "changed" };
	return { status: "sent", result: row.state === "done" ? row.responseBody : null };
}

/**
 * What a first post of a guarded form does: `work`, kept with `keep(made)` if it succeeds. If it
 * fails, the id is let go of (nothing was made: the same form may be sent again), unless
 * `mayHaveMade` names what the failure may have made all the same (D1 did not confirm its write):
 * that is kept instead, and the same form sent again leads to it rather than making a second.
 * Keeping can fail only in D1; what was made stands, the page says so, and the id stays taken
 * until its lease ends.
 */
export async function firstSend<T>(
	send: Extract<FormSend, { status: "first" }>,
	work: () => Promise<T>,
	keep: (made: T) => string,
	mayHaveMade: (error: unknown) => string | null = () => null,
): Promise<T> {
	let made: T;
	try {
		made = await work();
	} catch (error) {
		const maybe = mayHaveMade(error);
		if (maybe === null) await send.failed();
		else await send.done(maybe).catch(() => undefined);
		throw error;
	}
	try {
		await send.done(keep(made));
	} catch (error) {
		console.error(JSON.stringify({ message: "dashboard form not kept", error: errorText(error) }));
	}
	return made;
}
