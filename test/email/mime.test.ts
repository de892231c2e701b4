import { describe, expect, it } from "vitest";
import { renderCalendar } from "../../src/email/calendar";
import { base64Lines, buildMime, type MimeInput } from "../../src/email/mime";
import { renderNotice } from "../../src/email/templates";
import { NOW, noticeDetails, parseIcs, parseMime } from "../support/email";

function mimeInput(overrides: Partial<MimeInput> = {}): MimeInput {
	const details = noticeDetails({ candidateName: "José Müller" });
	const notice = renderNotice(details);
	return {
		from: "interviews@example.com",
		fromName: "Acme Corp (via Interviews)",
		to: "ada@example.com",
		toName: "José Müller",
		subject: notice.subject,
		text: notice.text,
		html: notice.html,
		ics: renderCalendar({
			details,
			organizerEmail: "interviews@example.com",
			organizerName: "Acme Corp (via Interviews)",
			now: NOW,
		}),
		method: "REQUEST",
		messageId: "msg_ABCDEFGHIJKLMNOPQRSTUVWX",
		date: NOW,
		...overrides,
	};
}

describe("MIME message", () => {
	it("carries the sender, recipient, subject, both parts and the calendar attachment", async () => {
		const input = mimeInput();
		const parsed = await parseMime(buildMime(input));
		expect(parsed.from).toEqual({ address: "interviews@example.com", name: "Acme Corp (via Interviews)" });
		expect(parsed.to).toEqual([{ address: "ada@example.com", name: "José Müller" }]);
		expect(parsed.subject).toBe(input.subject);
		expect(parsed.text?.trim()).toBe(input.text.trim());
		expect(parsed.html?.trim()).toBe(input.html.trim());
		expect(parsed.text).toContain("Hello José Müller,");
		expect(parsed.messageId).toBe("<msg_ABCDEFGHIJKLMNOPQRSTUVWX@example.com>");
		expect(new Date(parsed.date ?? "").getTime()).toBe(NOW);
		expect(parsed.attachments).toHaveLength(1);
		const [ics] = parsed.attachments;
		expect(ics?.filename).toBe("invite.ics");
		expect(ics?.mimeType).toBe("text/calendar");
		expect(ics?.method).toBe("REQUEST");
		// The parser hands text attachments back with LF line ends.
		expect(ics?.content).toBe(String(input.ics).replaceAll("\r\n", "\n"));
		expect(parseIcs(String(ics?.content)).method).toBe("REQUEST");
	});

	it("keeps control characters out of the display names and the subject", async () => {
		const parsed = await parseMime(
			buildMime(
				mimeInput({
					fromName: "Acme\u0000 Corp\u0085",
					toName: "Grace\u0000\u001b[31mRED\u0007\u007f",
					subject: "Interview\u0008 today",
				}),
			),
		);
		expect(parsed.from?.name).toBe("Acme Corp");
		expect(parsed.to?.[0]?.name).toBe("Grace[31mRED");
		expect(parsed.subject).toBe("Interview today");
	});

	it("types a cancellation's attachment as a METHOD=CANCEL calendar part", async () => {
		const parsed = await parseMime(buildMime(mimeInput({ method: "CANCEL" })));
		expect(parsed.attachments[0]?.method).toBe("CANCEL");
		expect(parsed.attachments[0]?.filename).toBe("cancel.ics");
	});

	it("ends every line with CRLF and keeps lines short", () => {
		const raw = buildMime(mimeInput());
		expect(raw).not.toMatch(/[^\r]\n/);
		for (const line of raw.split("\r\n")) expect(line.length).toBeLessThanOrEqual(998);
		expect(raw).toMatch(/^MIME-Version: 1\.0\r$/m);
		expect(raw).toContain("multipart/mixed");
		expect(raw).toContain("multipart/alternative");
	});

	it("cuts long or non-ASCII header text into encoded-words of at most 75 characters, folded", async () => {
		const subject = `Updated: your interview for ${"工".repeat(200)} at ${"社".repeat(200)}`;
		const toName = `${"Zoë ".repeat(60)}Ñ`;
		const input = mimeInput({ subject, toName, fromName: `${"Société ".repeat(25)}(via Interviews)` });
		const raw = buildMime(input);
		const head = raw.slice(0, raw.indexOf("\r\n\r\n"));
		for (const line of head.split("\r\n")) expect(line.length).toBeLessThanOrEqual(998);
		const words = head.match(/=\?utf-8\?B\?[^?]*\?=/gi) ?? [];
		expect(words.length).toBeGreaterThan(10);
		for (const w of words) expect(w.length).toBeLessThanOrEqual(75);
		const parsed = await parseMime(raw);
		expect(parsed.subject).toBe(subject);
		expect(parsed.to).toEqual([{ address: "ada@example.com", name: toName }]);
		expect(parsed.from?.name).toBe(input.fromName);
	});

	it("keeps the same Message-ID when the same e-mail is built again", async () => {
		const first = await parseMime(buildMime(mimeInput()));
		const again = await parseMime(buildMime(mimeInput({ date: NOW + 60_000 })));
		expect(again.messageId).toBe(first.messageId);
	});

	it("base64-encodes UTF-8 text in lines of at most 76 characters", () => {
		const encoded = base64Lines("é".repeat(200));
		const lines = encoded.split("\r\n");
		expect(lines.every((line) => line.length <= 76)).toBe(true);
		const bytes = Uint8Array.from(atob(lines.join("")), (c) => c.charCodeAt(0));
		expect(new TextDecoder().decode(bytes)).toBe("é".repeat(200));
	});
});
