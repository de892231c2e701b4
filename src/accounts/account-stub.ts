import type { CommitOutcome } from "./group-commit";
import type { AdmissionOutcome, AdmissionRequest } from "./quota-repo";
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
 * The answer to `countRequest`: the request was counted (or refused) against the rate limit, or
 * the caller's cached view of the account's keys and limits is out of date and nothing was
 * counted. `version` is the account's key-cache version when the object answered; `cacheable` is
 * false while a change of keys or limits is in progress (nobody may cache then).
 */
export type CountAnswer =
	| { status: "counted"; decision: RateDecision; version: number; cacheable: boolean }
	| { status: "stale"; version: number; cacheable: boolean };

/**
 * What a single create writes (`write`) and what its committed write returns (`written`). The
 * module that writes interviews declares them by augmenting this interface
 * (src/interviews/creation/creation.ts); accounts only carries them.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by module augmentation
export interface CreatePayloads {}
export type CreateWrite = CreatePayloads extends { write: infer W } ? W : unknown;
export type CreateWritten = CreatePayloads extends { written: infer R } ? R : unknown;

/**
 * A change of an interview not yet opened, decided against its seed: what the Worker asks
 * (`request`), what a seed read gives (`read`), what a change writes (`write`) and its committed
 * write returns (`written`), and the decision (`decided`). Declared by the module that changes
 * interviews (src/interviews/creation/seed-commands.ts), as `CreatePayloads` is.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by module augmentation
export interface ChangePayloads {}
type ChangePayload<K extends string> = ChangePayloads extends { [P in K]: infer T } ? T : unknown;
export type ChangeRequest = ChangePayload<"request">;
export type ChangeRead = ChangePayload<"read">;
export type ChangeWrite = ChangePayload<"write">;
export type ChangeWritten = ChangePayload<"written">;
export type ChangeDecided = ChangePayload<"decided">;

/** A change with the request's rate-limit count in one call (`changeAtOnce`). */
export interface ChangeAtOnceRequest {
	limit: number;
	version: number | null;
	change: ChangeRequest;
}

/**
 * What `changeAtOnce` did: the count (refused or stale: nothing read or written), then the
 * decision, or the error that stopped it (a read or write D1 could not do).
 */
export interface ChangeAtOnceOutcome {
	count: CountAnswer;
	decided?: ChangeDecided;
	error?: string;
}

/**
 * A single create in one call (`createAtOnce`): the request's rate-limit count (`limit`,
 * `version` as for `countRequest`), a live interview's admission to the monthly quota and
 * credits, and the write itself.
 */
export interface CreateAtOnceRequest {
	limit: number;
	version: number | null;
	/** Empty unless the interview is live. */
	admissions: AdmissionRequest[];
	write: CreateWrite;
}

/**
 * What `createAtOnce` did, step by step, stopping at the first that did not go through: the
 * request counted (or refused, or stale: nothing counted), the live admission taken (or refused:
 * `quota` says why), the write committed or failed (`commit`; a failure of the admission's own
 * batch is reported there too).
 */
export interface CreateAtOnceOutcome {
	count: CountAnswer;
	quota?: AdmissionOutcome[];
	commit?: CommitOutcome<CreateWritten>;
}

/** The account's Durable Object (typed from the generated `ACCOUNT` namespace). */
export function accountStub(env: Env, accountId: string) {
	return env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
}
