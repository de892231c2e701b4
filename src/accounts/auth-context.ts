import type { DataEnvironment, KeyEnvironment } from "./keys";
import type { PlanId, PlanLimits } from "./plans";
import type { Scope } from "./scopes";

/** An authenticated API key: its account, the account's plan and limits, and the key's permissions. */
export interface AuthContext {
	accountId: string;
	companyName: string;
	plan: PlanId;
	limits: PlanLimits;
	keyId: string;
	keyEnvironment: KeyEnvironment;
	dataEnvironment: DataEnvironment;
	permissions: Scope[];
	expiresAt: number | null;
}
