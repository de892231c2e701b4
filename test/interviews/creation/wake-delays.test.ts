import { describe, expect, it } from "vitest";
import { NO_SHOW_AFTER_MS } from "../../../src/interviews/core/state-machine";
import { seedOf } from "../../../src/interviews/creation/creation";
import {
	MAX_QUEUE_DELAY_SECONDS,
	WAKE_LEAD_MS,
	wakeDelaySeconds,
	wakeRetryDelaySeconds,
} from "../../../src/interviews/creation/wake";

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

describe("wake message delays", () => {
	it("hold a message until a minute before the timer, rounding up to the second", () => {
		expect(wakeDelaySeconds(NOW + 2 * 3_600_000, NOW)).toBe(7_140);
		expect(wakeDelaySeconds(NOW + WAKE_LEAD_MS + 1, NOW)).toBe(1);
	});

	it("send a due or overdue wake at once", () => {
		expect(wakeDelaySeconds(NOW + WAKE_LEAD_MS, NOW)).toBe(0);
		expect(wakeDelaySeconds(NOW + 1_000, NOW)).toBe(0);
		expect(wakeDelaySeconds(NOW - 3_600_000, NOW)).toBe(0);
	});

	it("never exceed the 12 hours Queues accepts", () => {
		expect(wakeDelaySeconds(NOW + 30 * 86_400_000, NOW)).toBe(MAX_QUEUE_DELAY_SECONDS);
		expect(MAX_QUEUE_DELAY_SECONDS).toBe(43_200);
	});

	it("back off failed wakes, then keep the longest delay", () => {
		expect([1, 2, 3, 4, 5, 9].map(wakeRetryDelaySeconds)).toEqual([5, 30, 120, 600, 600, 600]);
	});
});

describe("seedOf: the first state creation leaves for the object", () => {
	const command = {
		type: "create" as const,
		id: "int_000000000000000000000001",
		accountId: "acc_1",
		environment: "production" as const,
		testMode: false,
		candidateEmail: "ada@example.com",
		candidateName: null,
		position: "Engineer",
		skills: ["TypeScript"],
		difficulty: "intermediate" as const,
		durationMinutes: 30,
		companyName: "Acme",
		instructions: null,
		scheduledAt: NOW + 3_600_000,
		joinToken: "t".repeat(32),
		appUrl: "http://127.0.0.1:8787",
		sendInvitation: true,
		creditsCharged: 1,
	};

	it("holds the scheduled state, the event and invitation owed, and the no-show timer as its wake time", () => {
		const seed = seedOf(command, NOW);
		expect(seed.state).toMatchObject({ id: command.id, status: "scheduled", version: 1, createdAt: NOW });
		expect(seed.outbox.map((item) => item.kind)).toEqual(["projection", "event", "notify"]);
		expect(seed.timers).toEqual([{ name: "no_show", dueAt: command.scheduledAt + NO_SHOW_AFTER_MS }]);
		expect(seed.wakeAt).toBe(command.scheduledAt + NO_SHOW_AFTER_MS);
	});

	it("owes no invitation for a test-mode interview", () => {
		const seed = seedOf({ ...command, testMode: true }, NOW);
		expect(seed.outbox.map((item) => item.kind)).toEqual(["projection", "event"]);
	});
});
