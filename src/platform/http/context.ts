import type { AuthContext } from "../../accounts/auth";
import type { InterviewState } from "../../interviews/core/model";

export interface AppBindings {
	Bindings: Env;
	Variables: {
		requestId: string;
		/** Epoch ms of this request, read once from the app's clock. */
		now: number;
		auth: AuthContext;
		/** The request's API key and its SHA-256 (set by authentication). */
		apiKey: { token: string; hash: string };
		/** Key-cache version `auth` was cached at, or null when it was just read from D1 uncached. */
		authVersion: number | null;
		/**
		 * Whether the request was counted against the rate limit yet: `deferred` while a single
		 * create's count waits to go with its write (src/accounts/rate-limit-middleware.ts).
		 */
		admission?: "deferred" | "settled";
		/** Requests counted in the account's rate window, this one included. */
		rateUsage: number;
		/** The error code of an error answer, for the request's log line. */
		errorCode?: string;
		/** The single fetch's read of the interview, started beside the rate-limit call. */
		interviewReadAhead?: { id: string; state: Promise<InterviewState | null> };
		/**
		 * Set when a response that is not a 5xx still reports a failure of ours (a bulk's items
		 * refused with INTERNAL_ERROR): the idempotency key is released, not bound to it, so a
		 * retry with the same key runs again.
		 */
		idempotencyTransient?: boolean;
	};
}
