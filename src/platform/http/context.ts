/**
 * The app's bindings and the variables every request carries. A module that puts its own
 * variables on the request declares them where it owns them, by augmenting Hono's
 * `ContextVariableMap` (accounts: the key and the rate-limit count; idempotency; interviews: the
 * single fetch's read-ahead), so platform knows none of them.
 */
export interface AppBindings {
	Bindings: Env;
	Variables: {
		requestId: string;
		/** Epoch ms of this request, read once from the app's clock. */
		now: number;
		/** The error code of an error answer, for the request's log line. */
		errorCode?: string;
	};
}
