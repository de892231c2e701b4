/**
 * Runs `attempt` once now and, while it fails, again after each of `delaysMs` (bounded in count
 * and time). Resolves true once it succeeds, false when every try failed; never rejects. Each
 * failure is passed to `onFailure` (for logging).
 */
export async function retrying(
	attempt: () => Promise<unknown>,
	delaysMs: readonly number[],
	onFailure: (error: unknown, tryNumber: number) => void,
	sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<boolean> {
	for (let i = 0; i <= delaysMs.length; i++) {
		if (i > 0) await sleep(delaysMs[i - 1] as number);
		try {
			await attempt();
			return true;
		} catch (error) {
			onFailure(error, i + 1);
		}
	}
	return false;
}
