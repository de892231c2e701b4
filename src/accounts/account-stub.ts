import type { CreationWrite } from "../interviews/creation/creation";
import type { PendingDelivery } from "../webhooks/deliveries-repo";
import type { CommitOutcome } from "./group-commit";
import type { AdmissionRequest, Admission as QuotaAdmission } from "./quota-repo";
import type { RateDecision } from "./rate-limit";

/** The outcome of asking for a concurrent-interview slot. */
/** `unavailable`: the account's limits could not be read; nothing changed, ask again later. */
export type SlotResult =
	| { status: "acquired" }
	| { status: "waiting"; position: number }
	| { status: "unavailable" };

export interface SlotUsage {
	/** Live interviews holding a slot (in progress, or granted one and starting). */
	active: number;
	/** Joined live interviews waiting for a slot. */
	waiting: number;
}

/**
 * The answer to `admit`: the request was counted (or refused) against the rate limit, or the
 * caller's cached view of the account's keys and limits is out of date and nothing was counted.
 * `version` is the account's key-cache version when the object answered; `cacheable` is false
 * while a change of keys or limits is in progress (nobody may cache then).
 */
export type Admission =
	| { status: "counted"; decision: RateDecision; version: number; cacheable: boolean }
	| { status: "stale"; version: number; cacheable: boolean };

/**
 * A single create in one call (`createAtOnce`): the request's rate-limit count (`limit`,
 * `version` as for `admit`), a live interview's admission to the monthly quota and credits, and
 * the write itself.
 */
export interface CreateAtOnceRequest {
	limit: number;
	version: number | null;
	/** Empty unless the interview is live. */
	admissions: AdmissionRequest[];
	write: CreationWrite;
}

/**
 * What `createAtOnce` did, step by step, stopping at the first that did not go through: the
 * request counted (or refused, or stale: nothing counted), the live admission taken (or refused:
 * `quota` says why), the write committed or failed (`commit`; a failure of the admission's own
 * batch is reported there too).
 */
export interface CreateAtOnceOutcome {
	admission: Admission;
	quota?: QuotaAdmission[];
	commit?: CommitOutcome<PendingDelivery[]>;
}

/** The account's Durable Object (typed from the generated `ACCOUNT` namespace). */
export function accountStub(env: Env, accountId: string) {
	return env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
}
