/** `items` in consecutive slices of at most `size` (D1 statements, IN lists, queue batches). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
	const out: T[][] = [];
	for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
	return out;
}
