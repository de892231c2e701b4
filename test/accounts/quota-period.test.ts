import { describe, expect, it } from "vitest";
import { monthPeriod, monthResetsAt } from "../../src/accounts/quota";

describe("the monthly quota's calendar month (UTC)", () => {
	it("names the month of the instant in UTC, whatever the local zone would say", () => {
		expect(monthPeriod(Date.UTC(2031, 0, 31, 23, 59, 59, 999))).toBe("2031-01");
		expect(monthPeriod(Date.UTC(2031, 1, 1))).toBe("2031-02");
		expect(monthPeriod(Date.parse("2031-03-01T00:30:00+01:00"))).toBe("2031-02");
	});

	it("resets at the first instant of the next month, across the year's end and leap days", () => {
		expect(new Date(monthResetsAt(Date.UTC(2031, 11, 15))).toISOString()).toBe("2032-01-01T00:00:00.000Z");
		expect(new Date(monthResetsAt(Date.UTC(2032, 1, 29, 12))).toISOString()).toBe("2032-03-01T00:00:00.000Z");
		expect(new Date(monthResetsAt(Date.UTC(2031, 6, 1))).toISOString()).toBe("2031-08-01T00:00:00.000Z");
	});
});
