export const PLAN_IDS = ["free", "starter", "professional", "enterprise"] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface PlanLimits {
	requests_per_minute: number;
	concurrent_interviews: number;
	/** null: unlimited. */
	monthly_interviews: number | null;
}

export const PLANS: Record<PlanId, PlanLimits & { default_credits: number }> = {
	free: {
		requests_per_minute: 60,
		concurrent_interviews: 2,
		monthly_interviews: 10,
		default_credits: 10,
	},
	starter: {
		requests_per_minute: 180,
		concurrent_interviews: 5,
		monthly_interviews: 100,
		default_credits: 100,
	},
	professional: {
		requests_per_minute: 300,
		concurrent_interviews: 15,
		monthly_interviews: 500,
		default_credits: 500,
	},
	enterprise: {
		requests_per_minute: 1000,
		concurrent_interviews: 50,
		monthly_interviews: null,
		default_credits: 1000,
	},
};

export interface LimitOverrides {
	requests_per_minute?: number | null;
	concurrent_interviews?: number | null;
	monthly_interviews?: number | null;
}

/** The plan's limits with the account's own overrides (custom contracts) applied. */
export function effectiveLimits(plan: PlanId, overrides: LimitOverrides): PlanLimits {
	const base = PLANS[plan];
	return {
		requests_per_minute: overrides.requests_per_minute ?? base.requests_per_minute,
		concurrent_interviews: overrides.concurrent_interviews ?? base.concurrent_interviews,
		monthly_interviews:
			overrides.monthly_interviews === undefined || overrides.monthly_interviews === null
				? base.monthly_interviews
				: overrides.monthly_interviews,
	};
}
