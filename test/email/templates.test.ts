import { describe, expect, it } from "vitest";
import { formatDuration, formatUtc, localTimeUrl } from "../../src/email/format";
import { renderNotice } from "../../src/email/templates";
import { JOIN_URL, noticeDetails, SCHEDULED_AT } from "../support/email";

const UTC_TEXT = "Tuesday 1 December 2026, 15:00 UTC";

describe("candidate notice templates", () => {
	it("writes an invitation that says who invites, for what, when, how long and how to join", () => {
		const notice = renderNotice(noticeDetails());
		expect(notice.subject).toBe("Interview invitation: Backend Engineer at Acme Corp");
		for (const part of [notice.text, notice.html]) {
			expect(part).toContain("Acme Corp invites you to an interview for the Backend Engineer role");
			expect(part).toContain(UTC_TEXT);
			expect(part).toContain("about 45 minutes");
			expect(part).toContain("TypeScript, SQL");
			expect(part).toContain("What to expect");
			expect(part).toContain("How to prepare");
			expect(part).toContain("Need another time?");
			expect(part).toContain("from 15 minutes before the start time");
			expect(part).toContain("Hello Ada Lovelace,");
			// The recording is said before the page asks for the microphone.
			expect(part).toContain(
				"the audio of the interview is recorded and shared with Acme Corp too. It is optional",
			);
		}
		expect(notice.text).toContain(`Join link: ${JOIN_URL}`);
		expect(notice.html).toContain(`href="${JOIN_URL.replace("&", "&amp;")}"`);
	});

	it("invites to an interview that is open already as one to join now, not at a time already passed", () => {
		const notice = renderNotice(noticeDetails({ openAtSend: true }));
		for (const part of [notice.text, notice.html]) {
			expect(part).toContain("The interview is online and open now");
			expect(part).toContain("as soon as you are ready");
			expect(part).toContain("The link opens the interview now.");
			expect(part).not.toContain("from 15 minutes before the start time");
			expect(part).toContain("If now does not suit you");
			expect(part).not.toContain("at the time shown");
		}
	});

	it("links to a page that shows the interview time in the candidate's own time zone", () => {
		const notice = renderNotice(noticeDetails());
		const url = localTimeUrl(SCHEDULED_AT, 45, "Interview: Backend Engineer (Acme Corp)");
		expect(notice.text).toContain(`Your local time: ${url}`);
		expect(notice.html).toContain("See this time in your time zone</a>");
		expect(notice.html).toContain(`href="${url.replaceAll("&", "&amp;")}"`);
		const params = new URL(url).searchParams;
		expect(params.get("iso")).toBe("20261201T1500");
		expect(params.get("ah")).toBe("0");
		expect(params.get("am")).toBe("45");
	});

	it("puts the reschedule reason into an update notice and leaves it out when none is given", () => {
		const withReason = renderNotice(noticeDetails({ template: "update", reason: "The interviewer is ill." }));
		expect(withReason.subject).toBe("Updated: your interview for Backend Engineer at Acme Corp");
		expect(withReason.text).toContain("Reason given: The interviewer is ill.");
		expect(withReason.html).toContain("Reason given: The interviewer is ill.");
		expect(withReason.text).toContain("Your join link has not changed.");
		expect(withReason.text).toContain(JOIN_URL);
		const without = renderNotice(noticeDetails({ template: "update" }));
		expect(without.text).not.toContain("Reason given");
		expect(without.html).not.toContain("Reason given");
	});

	it("tells the candidate of a cancellation with its reason and that the link no longer works", () => {
		const notice = renderNotice(noticeDetails({ template: "cancellation", reason: "The role was filled." }));
		expect(notice.subject).toBe("Cancelled: your interview for Backend Engineer at Acme Corp");
		for (const part of [notice.text, notice.html]) {
			expect(part).toContain(
				`has cancelled your interview for the Backend Engineer role, which was planned for ${UTC_TEXT}`,
			);
			expect(part).toContain("Reason given: The role was filled.");
			expect(part).toContain("Interview link (no longer active)");
			expect(part).not.toContain("Join the interview");
			expect(part).not.toContain("How to prepare");
			expect(part).not.toContain("timeanddate.com");
		}
		expect(notice.text).toContain(JOIN_URL);
	});

	it("tells an address an update replaced that its invitation is withdrawn, not that the interview is cancelled", () => {
		const notice = renderNotice(
			noticeDetails({ template: "cancellation", addressReplaced: true, reason: "Wrong address." }),
		);
		expect(notice.subject).toBe("Withdrawn: your interview invitation for Backend Engineer at Acme Corp");
		for (const part of [notice.text, notice.html]) {
			expect(part).toContain(
				`has withdrawn your invitation to the interview for the Backend Engineer role, planned for ${UTC_TEXT}: the interview is no longer scheduled with this e-mail address.`,
			);
			expect(part).not.toContain("has cancelled");
			expect(part).toContain("Reason given: Wrong address.");
			expect(part).toContain("Interview link (no longer active)");
		}
	});

	it("escapes caller-supplied text in the HTML part", () => {
		const notice = renderNotice(
			noticeDetails({
				template: "update",
				position: "<script>alert(1)</script>",
				reason: 'Moved "later" & <b>sooner</b>',
			}),
		);
		expect(notice.html).not.toContain("<script>");
		expect(notice.html).not.toContain("<b>sooner</b>");
		expect(notice.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
		expect(notice.html).toContain("Moved &quot;later&quot; &amp; &lt;b&gt;sooner&lt;/b&gt;");
		expect(notice.text).toContain('Reason given: Moved "later" & <b>sooner</b>');
	});

	it("loads nothing remote in the HTML part: no images, scripts or tracking pixels", () => {
		for (const template of ["invitation", "update", "cancellation"] as const) {
			const { html } = renderNotice(noticeDetails({ template }));
			expect(html).not.toMatch(/<img|<script|<link|<iframe|src=|url\(/i);
		}
	});

	it("speaks of the hiring team when the interview names no company", () => {
		const notice = renderNotice(noticeDetails({ companyName: null, candidateName: null }));
		expect(notice.subject).toBe("Interview invitation: Backend Engineer");
		expect(notice.text).toContain("A hiring team invites you to an interview for the Backend Engineer role");
		expect(notice.text).toContain("contact the hiring team");
		expect(notice.text).toContain("Hello,");
		expect(notice.text).not.toContain("Company:");
	});

	it("keeps header text on one line even when the position has line breaks", () => {
		const notice = renderNotice(noticeDetails({ position: "Backend\r\nEngineer" }));
		expect(notice.subject).toBe("Interview invitation: Backend Engineer at Acme Corp");
	});
});

describe("notice formatting", () => {
	it("spells out the UTC time so day and month cannot be confused", () => {
		expect(formatUtc(Date.UTC(2027, 0, 9, 7, 5))).toBe("Saturday 9 January 2027, 07:05 UTC");
	});

	it("states durations in hours and minutes", () => {
		expect(formatDuration(15)).toBe("15 minutes");
		expect(formatDuration(60)).toBe("1 hour");
		expect(formatDuration(90)).toBe("1 hour 30 minutes");
		expect(formatDuration(61)).toBe("1 hour 1 minute");
	});
});
