/**
 * Runs tasks with at most `concurrency` of them in flight, starting them in the order they are
 * given. Each call returns the task's own promise.
 */
export function limiter(concurrency: number) {
	let active = 0;
	const waiting: (() => void)[] = [];
	// A finishing task hands its slot straight to the next waiter, so no newcomer can slip in.
	const release = () => {
		const next = waiting.shift();
		if (next) next();
		else active--;
	};
	return async function run<T>(task: () => Promise<T>): Promise<T> {
		if (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
		else active++;
		try {
			return await task();
		} finally {
			release();
		}
	};
}
