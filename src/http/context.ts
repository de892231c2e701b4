import type { AuthContext } from "../accounts/auth";
import type { Env } from "../env";

export interface AppBindings {
	Bindings: Env;
	Variables: {
		requestId: string;
		/** Epoch ms of this request, read once from the app's clock. */
		now: number;
		auth: AuthContext;
		/** Requests counted in the account's rate window, this one included. */
		rateUsage: number;
	};
}
