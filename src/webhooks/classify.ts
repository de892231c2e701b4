import { MAX_ATTEMPTS, retryDelaySeconds } from "./backoff";

/** What one HTTP attempt came to, before any judgement. */
export type AttemptResult =
	| { kind: "response"; status: number }
	| { kind: "timeout"; afterMs: number }
	| { kind: "network"; message: string }
	| { kind: "refused"; reason: string };

export type AttemptErrorType =
	| "redirect"
	| "client_error"
	| "server_error"
	| "unexpected_status"
	| "timeout"
	| "connection_error"
	| "url_refused";

export interface Classification {
	outcome: "succeeded" | "failed";
	statusCode: number | null;
	errorType: AttemptErrorType | null;
	error: string | null;
}

/** Only a 2xx answer within the timeout succeeds; redirects are failures and are never followed. */
export function classifyAttempt(result: AttemptResult): Classification {
	switch (result.kind) {
		case "response": {
			const status = result.status;
			if (status >= 200 && status <= 299) {
				return { outcome: "succeeded", statusCode: status, errorType: null, error: null };
			}
			const errorType: AttemptErrorType =
				status >= 300 && status <= 399
					? "redirect"
					: status >= 400 && status <= 499
						? "client_error"
						: status >= 500 && status <= 599
							? "server_error"
							: "unexpected_status";
			const error =
				errorType === "redirect"
					? `HTTP ${status}: redirects are not followed; register the final URL`
					: `HTTP ${status}: only a 2xx answer counts as delivered`;
			return { outcome: "failed", statusCode: status, errorType, error };
		}
		case "timeout":
			return {
				outcome: "failed",
				statusCode: null,
				errorType: "timeout",
				error: `No answer within ${result.afterMs} ms`,
			};
		case "network":
			return {
				outcome: "failed",
				statusCode: null,
				errorType: "connection_error",
				error: result.message.slice(0, 500),
			};
		case "refused":
			return { outcome: "failed", statusCode: null, errorType: "url_refused", error: result.reason };
	}
}

export type NextStep = { action: "done" } | { action: "retry"; delaySeconds: number } | { action: "give_up" };

/**
 * After attempt `attempt` (1-based): done on success; otherwise retry after the schedule's delay;
 * after the last attempt, give up (the delivery is failed and its message dead-lettered).
 */
export function nextStep(
	outcome: Classification["outcome"],
	attempt: number,
	delays: readonly number[],
): NextStep {
	if (outcome === "succeeded") return { action: "done" };
	const delay = attempt >= MAX_ATTEMPTS ? null : retryDelaySeconds(attempt, delays);
	return delay === null ? { action: "give_up" } : { action: "retry", delaySeconds: delay };
}
