// An endpoint that fails continuously for a long period is disabled (docs/webhooks.md): every
// attempt for at least DISABLE_AFTER_MS has failed, and at least DISABLE_MIN_FAILURES attempts in
// a row. One success resets both. Time alone is not enough (a single failure long ago followed
// by silence is not "continuous"), nor is a burst of failures within minutes.

export const DISABLE_AFTER_MS = 3 * 24 * 60 * 60 * 1000;
export const DISABLE_MIN_FAILURES = 10;

export interface FailureRun {
	consecutiveFailures: number;
	failingSince: number | null;
}

export function shouldDisable(run: FailureRun, now: number): boolean {
	return (
		run.failingSince !== null &&
		run.consecutiveFailures >= DISABLE_MIN_FAILURES &&
		now - run.failingSince >= DISABLE_AFTER_MS
	);
}
