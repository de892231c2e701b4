import type { Db } from "../platform/db/client";
import { AppError } from "../platform/http/errors";
import { iso } from "../platform/lib/time";
import type { AuthContext } from "./auth-context";
import { monthPeriod, monthResetsAt } from "./quota";
import { type AdmissionRequest, admitLiveInterviews } from "./quota-repo";

export const CREDITS_PER_INTERVIEW = 1;

/**
 * Admits a live interview: monthly quota first, then credits, as decisions.md orders the checks.
 * Both are taken atomically (see `admitLiveInterviews`); a refusal says which limit stopped it.
 */
export async function admitOrRefuse(
	db: Db,
	auth: AuthContext,
	admission: { interviewId: string; debitId: string; now: number },
): Promise<void> {
	const [refusal] = await admitMany(db, auth, [admission]);
	if (refusal) throw refusal;
}

/**
 * Admits live interviews in order in one D1 batch (a bulk's items): each is admitted or refused
 * as if alone and after those before it. Returns, per admission, null or the refusal.
 */
export async function admitMany(
	db: Db,
	auth: AuthContext,
	admissions: readonly LiveAdmission[],
): Promise<(AppError | null)[]> {
	return refusals(auth, admissions, await admitLiveInterviews(db, admissionRequests(auth, admissions)));
}

/** A live interview to admit: its id, the id of its credit's debit, and the request's time. */
export interface LiveAdmission {
	interviewId: string;
	debitId: string;
	now: number;
}

/** What `admitLiveInterviews` takes for these admissions of the key's account. */
export function admissionRequests(
	auth: AuthContext,
	admissions: readonly LiveAdmission[],
): AdmissionRequest[] {
	return admissions.map((a) => ({
		interviewId: a.interviewId,
		accountId: auth.accountId,
		period: monthPeriod(a.now),
		monthlyLimit: auth.limits.monthly_interviews,
		credits: CREDITS_PER_INTERVIEW,
		debitId: a.debitId,
		now: a.now,
	}));
}

/** Per admission, null or the refusal its outcome means (QUOTA_EXCEEDED, INSUFFICIENT_CREDITS). */
export function refusals(
	auth: AuthContext,
	admissions: readonly LiveAdmission[],
	outcomes: readonly { admitted: boolean; used: number; balance: number }[],
): (AppError | null)[] {
	const limit = auth.limits.monthly_interviews;
	return outcomes.map((outcome, i) =>
		outcome.admitted ? null : refusalOf(limit, outcome, (admissions[i] as LiveAdmission).now),
	);
}

function refusalOf(limit: number | null, outcome: { used: number; balance: number }, now: number): AppError {
	if (limit !== null && outcome.used >= limit) {
		const resetsAt = monthResetsAt(now);
		const retryAfter = String(Math.max(1, Math.ceil((resetsAt - now) / 1000)));
		return new AppError(
			"QUOTA_EXCEEDED",
			`The account's limit of ${limit} live interviews this month is reached; it resets at ${iso(resetsAt)}.`,
			{ resource: "monthly_interviews", limit, used: outcome.used, resets_at: iso(resetsAt) },
			{
				// As GitHub does, the limit headers of this refusal describe the resource that refused it.
				headers: {
					"X-RateLimit-Resource": "monthly_interviews",
					"X-RateLimit-Limit": String(limit),
					"X-RateLimit-Remaining": "0",
					"X-RateLimit-Reset": String(Math.ceil(resetsAt / 1000)),
					"X-RateLimit-Retry-After": retryAfter,
					"Retry-After": retryAfter,
				},
			},
		);
	}
	return new AppError("INSUFFICIENT_CREDITS", "Not enough credits for a live interview.", {
		required: CREDITS_PER_INTERVIEW,
		available: outcome.balance,
	});
}
