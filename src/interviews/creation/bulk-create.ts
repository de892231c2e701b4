import { z } from "zod";
import type { AuthContext } from "../../accounts/auth-context";
import { AppError, type ErrorCode, outcomeUnknown } from "../../platform/http/errors";
import { badTextOf, issueFields } from "../../platform/http/validation";
import { errorText } from "../../platform/lib/error-text";
import { type CreateInterviewBody, createInterviewBody, fields, message } from "../api/schemas";
import type { InterviewState } from "../core/model";
import { admitInterviews, releaseAdmission, scheduledAtOf } from "../service";
import { type Planting, plantInterviews } from "./creation";

export const MAX_BULK_INTERVIEWS = 100;

export const BULK_DEFAULT_FIELDS = [
	"duration_minutes",
	"difficulty",
	"company_name",
	"send_invitation",
] as const;

export const bulkDefaults = z.strictObject(
	{
		duration_minutes: fields.durationMinutes.optional(),
		difficulty: fields.difficulty.optional(),
		company_name: fields.companyName.optional(),
		send_invitation: fields.flag.optional(),
	},
	{ error: message("Must be an object") },
);
export type BulkDefaults = z.infer<typeof bulkDefaults>;

/** Request-level rules only: each item is checked on its own, so one bad item fails alone. */
export const bulkCreateBody = z.strictObject(
	{
		interviews: z
			.array(z.unknown(), { error: message("Must be an array of interviews") })
			.min(1, { error: "Must contain at least one interview" })
			.max(MAX_BULK_INTERVIEWS, { error: `At most ${MAX_BULK_INTERVIEWS} interviews per request` }),
		defaults: bulkDefaults.optional(),
	},
	{ error: message("Must be a JSON object") },
);
export type BulkCreateBody = z.infer<typeof bulkCreateBody>;

/**
 * Every code a bulk item's `error` can carry, which the OpenAPI document lists as its union
 * (src/interviews/api/openapi.ts). Where each comes from:
 * - VALIDATION_ERROR and INVALID_EMAIL: `prepareItem` (INVALID_EMAIL exists only for bulk items;
 *   `scheduledAtOf` refuses with VALIDATION_ERROR alone).
 * - QUOTA_EXCEEDED and INSUFFICIENT_CREDITS: the refusals `admitInterviews` answers per item
 *   (src/accounts/admission.ts). No other per-item limit applies at creation: the rate limit
 *   counts the request once, before this, and the concurrent-interview limit is taken when an
 *   interview starts.
 * - INTERNAL_ERROR: anything else that fails one item or all of them (`itemError`), among them
 *   the `OutcomeUnknownError` of `plantInterviews`. Nothing else on that path throws an
 *   `AppError`: the bulk writes with `writeCreation`, not the single create's account-object
 *   commit that can refuse for the rate limit or a stale key.
 */
export const BULK_ITEM_ERROR_CODES = [
	"VALIDATION_ERROR",
	"INVALID_EMAIL",
	"QUOTA_EXCEEDED",
	"INSUFFICIENT_CREDITS",
	"INTERNAL_ERROR",
] as const satisfies readonly (ErrorCode | "INVALID_EMAIL")[];

export type BulkItemErrorCode = (typeof BULK_ITEM_ERROR_CODES)[number];

export interface BulkItemError {
	code: BulkItemErrorCode;
	message: string;
	details: Record<string, unknown>;
}

function isBulkItemErrorCode(code: string): code is BulkItemErrorCode {
	return (BULK_ITEM_ERROR_CODES as readonly string[]).includes(code);
}

export type BulkItemOutcome =
	| { index: number; ok: true; interview: InterviewState }
	| { index: number; ok: false; candidateEmail: string | null; error: BulkItemError };

type PreparedItem =
	| { ok: true; body: CreateInterviewBody; scheduledAt: number }
	| { ok: false; error: BulkItemError };

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fieldsMessage(prefix: string, details: Record<string, string>): string {
	return `${prefix}: ${Object.entries(details)
		.map(([name, text]) => `${name}: ${text}`)
		.join("; ")}`;
}

/** An item with `defaults` filled in where the item leaves a field out: its own value wins. */
export function withDefaults(item: Record<string, unknown>, defaults: BulkDefaults): Record<string, unknown> {
	const merged: Record<string, unknown> = { ...item };
	for (const name of BULK_DEFAULT_FIELDS) {
		if (!(name in item) && defaults[name] !== undefined) merged[name] = defaults[name];
	}
	return merged;
}

/** Validates one item as a create body; a bad address is INVALID_EMAIL, anything else VALIDATION_ERROR. */
export function prepareItem(raw: unknown, defaults: BulkDefaults, now: number): PreparedItem {
	if (!isObject(raw)) {
		const details = { item: "Must be a JSON object" };
		return {
			ok: false,
			error: { code: "VALIDATION_ERROR", message: fieldsMessage("Invalid item", details), details },
		};
	}
	// Text that is not well-formed Unicode or holds a control character, refused for this item
	// alone (the request's guard leaves a bulk's items to this check).
	const badText = badTextOf(raw);
	if (badText !== null) {
		const details = badText;
		return {
			ok: false,
			error: { code: "VALIDATION_ERROR", message: fieldsMessage("Invalid item", details), details },
		};
	}
	const item = withDefaults(raw, defaults);
	const parsed = createInterviewBody.safeParse(item);
	if (!parsed.success) {
		const details = issueFields(parsed.error.issues, { input: item, schema: createInterviewBody });
		const badAddress = "candidate_email" in details && typeof raw.candidate_email === "string";
		return {
			ok: false,
			error: badAddress
				? { code: "INVALID_EMAIL", message: fieldsMessage("Invalid e-mail address", details), details }
				: { code: "VALIDATION_ERROR", message: fieldsMessage("Invalid item", details), details },
		};
	}
	try {
		return { ok: true, body: parsed.data, scheduledAt: scheduledAtOf(parsed.data.scheduled_at, now) };
	} catch (error) {
		if (error instanceof AppError && error.code === "VALIDATION_ERROR" && error.details) {
			// Worded as an item's refusal, like the schema's, not as the request's.
			const details = error.details as Record<string, string>;
			return {
				ok: false,
				error: { code: "VALIDATION_ERROR", message: fieldsMessage("Invalid item", details), details },
			};
		}
		return { ok: false, error: itemError(error, "") };
	}
}

/**
 * An item's failure as its `error` entry; unexpected errors are logged and stay generic. An
 * `AppError` whose code no item can carry (`BULK_ITEM_ERROR_CODES`) is unexpected too: the
 * answer keeps to the codes the document lists.
 */
export function itemError(error: unknown, requestId: string): BulkItemError {
	if (error instanceof AppError && isBulkItemErrorCode(error.code)) {
		return { code: error.code, message: error.message, details: error.details ?? {} };
	}
	console.error(
		JSON.stringify({ message: "bulk item failed", request_id: requestId, error: errorText(error) }),
	);
	return {
		code: "INTERNAL_ERROR",
		message: "This interview could not be created; the request id identifies the failure.",
		details: { request_id: requestId },
	};
}

/**
 * Whether a retry of the bulk with its Idempotency-Key should run again instead of replaying:
 * items refused by a failure of ours may succeed then, unless some may have been created after
 * all (their outcome unknown), which a retry must not create a second time.
 */
export function retryMayDoBetter(outcomes: readonly BulkItemOutcome[]): boolean {
	const failedByUs = outcomes.flatMap((o) => (!o.ok && o.error.code === "INTERNAL_ERROR" ? [o.error] : []));
	return failedByUs.length > 0 && !failedByUs.some((error) => outcomeUnknown(error.details));
}

function candidateEmailOf(raw: unknown): string | null {
	return isObject(raw) && typeof raw.candidate_email === "string" ? raw.candidate_email : null;
}

export interface BulkCreateOptions {
	now: number;
	appUrl: string;
	requestId: string;
}

/**
 * Creates the valid items. Quota and credits are taken item by item in request order, in one D1
 * batch (so an over-limit tail fails while the head succeeds); the admitted interviews are then
 * created together in one more (`plantInterviews`). Outcomes come back in request order.
 */
export async function bulkCreate(
	env: Env,
	auth: AuthContext,
	request: BulkCreateBody,
	options: BulkCreateOptions,
): Promise<BulkItemOutcome[]> {
	const defaults = request.defaults ?? {};
	// A failed item names the address as it was sent (docs/api.md), not as it was parsed.
	const sent = (index: number) => candidateEmailOf(request.interviews[index]);
	const outcomes: BulkItemOutcome[] = [];
	const prepared: { index: number; body: CreateInterviewBody; scheduledAt: number }[] = [];
	for (const [index, raw] of request.interviews.entries()) {
		const item = prepareItem(raw, defaults, options.now);
		if (item.ok) prepared.push({ index, body: item.body, scheduledAt: item.scheduledAt });
		else outcomes[index] = { index, ok: false, candidateEmail: sent(index), error: item.error };
	}
	let admitted: Awaited<ReturnType<typeof admitInterviews>>;
	try {
		admitted = await admitInterviews(
			env,
			auth,
			prepared.map((item) => item.body),
			options.now,
		);
	} catch (error) {
		const failure = itemError(error, options.requestId);
		for (const { index } of prepared) {
			outcomes[index] = { index, ok: false, candidateEmail: sent(index), error: failure };
		}
		return outcomes;
	}
	const plantings: (Planting & { index: number })[] = [];
	for (const [i, item] of prepared.entries()) {
		const interview = admitted[i];
		if (interview === undefined || interview instanceof AppError) {
			outcomes[item.index] = {
				index: item.index,
				ok: false,
				candidateEmail: sent(item.index),
				error: itemError(interview, options.requestId),
			};
			continue;
		}
		plantings.push({
			index: item.index,
			body: item.body,
			interview,
			options: { scheduledAt: item.scheduledAt, now: options.now, appUrl: options.appUrl },
		});
	}
	try {
		const states = await plantInterviews(env, auth, plantings, options.now, (i) => releaseAdmission(env, i));
		for (const [i, { index }] of plantings.entries()) {
			outcomes[index] = { index, ok: true, interview: states[i] as InterviewState };
		}
	} catch (error) {
		const failure = itemError(error, options.requestId);
		for (const { index } of plantings) {
			outcomes[index] = { index, ok: false, candidateEmail: sent(index), error: failure };
		}
	}
	return outcomes;
}
