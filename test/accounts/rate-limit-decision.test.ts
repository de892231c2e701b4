import { describe, expect, it } from "vitest";
import {
	decide,
	expandReservations,
	ietfRateLimitHeaders,
	MAX_RESERVATION,
	nextReservationSize,
	reservationSize,
} from "../../src/accounts/rate-limit";

describe("sliding-window rate decision", () => {
	const now = 1_800_000_000_000;

	it("allows while fewer than the limit are in the last 60 seconds", () => {
		const d = decide([now - 30_000, now - 10_000], 3, now);
		expect(d).toMatchObject({ allowed: true, count: 3, remaining: 0, retryAfter: 0 });
		expect(d.resetAt).toBe(Math.ceil((now - 30_000 + 60_000) / 1000));
	});

	it("refuses at the limit and says when the oldest request leaves the window", () => {
		const d = decide([now - 45_000, now - 5_000], 2, now);
		expect(d).toMatchObject({ allowed: false, count: 2, remaining: 0, retryAfter: 15 });
	});

	it("no longer counts requests exactly 60 seconds old", () => {
		expect(decide([now - 60_000], 1, now).allowed).toBe(true);
		expect(decide([now - 59_999], 1, now).allowed).toBe(false);
	});

	it("waits for enough requests to expire when the window is over-full after a limit cut", () => {
		const hits = [now - 50_000, now - 40_000, now - 30_000];
		expect(decide(hits, 2, now)).toMatchObject({ allowed: false, retryAfter: 20 });
	});
});

describe("rate-limit reservations", () => {
	it("reserve one request at a time near the limit and at most 100 far from it", () => {
		expect(reservationSize(0)).toBe(1);
		expect(reservationSize(19)).toBe(1);
		expect(reservationSize(59)).toBe(5);
		expect(reservationSize(999)).toBe(99);
		expect(reservationSize(1_000_000)).toBe(MAX_RESERVATION);
	});

	it("reload as that many requests at each reservation's time, oldest first", () => {
		expect(
			expandReservations([
				{ ts: 30, n: 1 },
				{ ts: 10, n: 3 },
			]),
		).toEqual([10, 10, 10, 30]);
	});
});

describe("IETF RateLimit headers", () => {
	it("name the policy and give what remains and the seconds until the reset, or the wait when refused", () => {
		const now = Date.UTC(2030, 0, 1, 0, 0, 0);
		const allowed = decide([now - 30_000], 60, now);
		expect(ietfRateLimitHeaders(allowed, now)).toEqual({
			"RateLimit-Policy": '"default";q=60;w=60',
			RateLimit: '"default";r=58;t=30',
		});
		const hits = Array.from({ length: 2 }, (_, i) => now - 50_000 + i * 10_000);
		const refused = decide(hits, 2, now);
		expect(refused.allowed).toBe(false);
		expect(ietfRateLimitHeaders(refused, now)).toEqual({
			"RateLimit-Policy": '"default";q=2;w=60',
			RateLimit: '"default";r=0;t=10',
		});
	});

	it("never put the reset further than the window, at any moment of a second", () => {
		const second = Date.UTC(2030, 0, 1, 0, 0, 0);
		for (const offset of [0, 1, 250, 500, 999]) {
			const now = second + offset;
			for (const hits of [[], [now - 1], [now - 30_500], [now - 59_999]]) {
				const decision = decide(hits, 60, now);
				const t = Number(/;t=(\d+)$/.exec(ietfRateLimitHeaders(decision, now).RateLimit)?.[1]);
				const label = `${offset} ms into a second, ${JSON.stringify(hits.map((h) => now - h))} ms ago`;
				expect(t, label).toBeGreaterThanOrEqual(0);
				expect(t, label).toBeLessThanOrEqual(60);
				// The same instant as X-RateLimit-Reset (rounded up), to within the rounding's second.
				expect(decision.resetAt - Math.floor(now / 1000) - t, label).toBeGreaterThanOrEqual(0);
				expect(decision.resetAt - Math.floor(now / 1000) - t, label).toBeLessThanOrEqual(1);
			}
		}
	});

	it("size the next reservation by the traffic: one after a quiet second, the last one's use after it ends, double when outgrown", () => {
		const roomy = 1_000_000;
		expect(nextReservationSize(null, 5_000, roomy)).toBe(1);
		// Ran out before its time: twice its size.
		expect(nextReservationSize({ size: 8, left: 0, until: 6_000 }, 5_500, roomy)).toBe(16);
		// Ended by time with places unused: the requests it covered.
		expect(nextReservationSize({ size: 8, left: 5, until: 6_000 }, 6_400, roomy)).toBe(3);
		expect(nextReservationSize({ size: 8, left: 5, until: 6_000 }, 7_000, roomy)).toBe(3);
		// More than a second after it ended: one.
		expect(nextReservationSize({ size: 8, left: 5, until: 6_000 }, 7_001, roomy)).toBe(1);
		// Never more than the room left allows.
		expect(nextReservationSize({ size: 64, left: 0, until: 6_000 }, 5_500, 59)).toBe(5);
		expect(nextReservationSize({ size: 64, left: 0, until: 6_000 }, 5_500, roomy)).toBe(MAX_RESERVATION);
	});
});
