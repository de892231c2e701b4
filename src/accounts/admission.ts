import type { Db } from "../db/client";
import { admitLiveInterview } from "../db/quota-repo";
import { AppError } from "../http/errors";
import { iso } from "../lib/time";
import type { AuthContext } from "./auth";
import { monthPeriod, monthResetsAt } from "./quota";

/**
 * Live interviews count toward the monthly limit and cost credits; test-mode and dev interviews
 * do neither (decisions.md).
 */
export function isLiveCreation(auth: AuthContext, testMode: boolean): boolean {
	return !testMode && auth.dataEnvironment === "production";
}

export const CREDITS_PER_INTERVIEW = 1;

/**
 * Admits a live interview: monthly quota first, then credits, as decisions.md orders the checks.
 * Both are taken atomically (see `admitLiveInterview`); a refusal says which limit stopped it.
 */
export async function admitOrRefuse(
	db: Db,
	auth: AuthContext,
	admission: { interviewId: string; debitId: string; now: number },
): Promise<void> {
	const limit = auth.limits.monthly_interviews;
	const outcome = await admitLiveInterview(db, {
		interviewId: admission.interviewId,
		accountId: auth.accountId,
		period: monthPeriod(admission.now),
		monthlyLimit: limit,
		credits: CREDITS_PER_INTERVIEW,
		debitId: admission.debitId,
		now: admission.now,
	});
	if (outcome.admitted) return;
	if (limit !== null && outcome.used >= limit) {
		const resetsAt = monthResetsAt(admission.now);
		const retryAfter = String(Math.max(1, Math.ceil((resetsAt - admission.now) / 1000)));
		throw new AppError(
			"QUOTA_EXCEEDED",
			`The plan's limit of ${limit} live interviews this month is reached; it resets at ${iso(resetsAt)}.`,
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
	throw new AppError("INSUFFICIENT_CREDITS", "Not enough credits for a live interview.", {
		required: CREDITS_PER_INTERVIEW,
		available: outcome.balance,
	});
}
