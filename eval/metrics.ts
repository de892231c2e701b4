/** Statistics of the evaluation harness: ranks, Spearman's rho, means. Pure functions. */

export function mean(xs: readonly number[]): number {
	return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN;
}

/** 1-based ranks, ties sharing the average of their positions. */
export function ranks(xs: readonly number[]): number[] {
	const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
	const out = new Array<number>(xs.length).fill(0);
	for (let i = 0; i < order.length; ) {
		let j = i;
		while (j + 1 < order.length && order[j + 1]?.[0] === order[i]?.[0]) j++;
		const rank = (i + j) / 2 + 1;
		for (let k = i; k <= j; k++) out[order[k]?.[1] ?? 0] = rank;
		i = j + 1;
	}
	return out;
}

function pearson(xs: readonly number[], ys: readonly number[]): number {
	const mx = mean(xs);
	const my = mean(ys);
	let sxy = 0;
	let sxx = 0;
	let syy = 0;
	for (let i = 0; i < xs.length; i++) {
		const dx = (xs[i] ?? 0) - mx;
		const dy = (ys[i] ?? 0) - my;
		sxy += dx * dy;
		sxx += dx * dx;
		syy += dy * dy;
	}
	return sxx === 0 || syy === 0 ? Number.NaN : sxy / Math.sqrt(sxx * syy);
}

/** Spearman's rank correlation (Pearson on tie-averaged ranks); NaN when either side is constant. */
export function spearman(xs: readonly number[], ys: readonly number[]): number {
	if (xs.length !== ys.length || xs.length < 2) return Number.NaN;
	return pearson(ranks(xs), ranks(ys));
}

export function fmt(x: number, digits = 1): string {
	return Number.isFinite(x) ? x.toFixed(digits) : "n/a";
}
