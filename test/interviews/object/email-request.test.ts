import { describe, expect, it } from "vitest";
import type { InterviewState } from "../../../src/interviews/core/model";
import { calendarSequence, candidateEmailRequest } from "../../../src/interviews/object/email-request";
import { interviewState } from "../../fixtures";

const state: InterviewState = interviewState({
	id: "int_0123456789abcdefghijABCD",
	accountId: "acc_0123456789abcdefghijABCD",
	position: "Data Engineer",
	skills: ["Python"],
	difficulty: "senior",
	durationMinutes: 60,
	companyName: "Acme Corp",
	scheduledAt: Date.UTC(2026, 11, 1, 15),
	createdAt: 0,
	updatedAt: 0,
	version: 1,
});

describe("candidate e-mail request from interview state", () => {
	it("carries the committed interview's details and the caller's join link", () => {
		const request = candidateEmailRequest(state, {
			messageId: "msg_x",
			template: "invitation",
			interviewUrl: "https://app.example.test/join/int_0123456789abcdefghijABCD?token=token",
		});
		expect(request).toEqual({
			messageId: "msg_x",
			interviewId: state.id,
			accountId: state.accountId,
			environment: "production",
			testMode: false,
			template: "invitation",
			to: "ada@example.com",
			candidateName: null,
			companyName: "Acme Corp",
			position: "Data Engineer",
			skills: ["Python"],
			scheduledAt: state.scheduledAt,
			durationMinutes: 60,
			interviewUrl: "https://app.example.test/join/int_0123456789abcdefghijABCD?token=token",
			sequence: 0,
			reason: null,
			calendarGeneration: 0,
		});
	});

	it("names the address's calendar event, and marks a withdrawal sent to a replaced address", () => {
		const moved = { ...state, addressChanges: 2 };
		const invitation = candidateEmailRequest(moved, {
			messageId: "m",
			template: "invitation",
			interviewUrl: "https://x.test/j",
		});
		expect(invitation.calendarGeneration).toBe(2);
		expect(invitation.addressReplaced).toBeUndefined();
		const withdrawal = candidateEmailRequest(
			{ ...state, addressChanges: 1 },
			{ messageId: "n", template: "cancellation", interviewUrl: "https://x.test/j", addressReplaced: true },
		);
		expect(withdrawal.calendarGeneration).toBe(1);
		expect(withdrawal.addressReplaced).toBe(true);
	});

	it("numbers calendar updates so each later notice has a higher SEQUENCE", () => {
		expect(calendarSequence({ version: 1 })).toBe(0);
		const sequences = [1, 2, 5, 6].map((version) => calendarSequence({ version }));
		expect(sequences).toEqual([0, 1, 4, 5]);
		const cancel = candidateEmailRequest(
			{ ...state, version: 7, status: "cancelled" },
			{ messageId: "m", template: "cancellation", interviewUrl: "https://x.test/j", reason: "Filled" },
		);
		expect(cancel.sequence).toBe(6);
		expect(cancel.reason).toBe("Filled");
	});
});
