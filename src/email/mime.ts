import { createMimeMessage } from "mimetext/browser";
import { oneLine } from "./format";

export interface MimeInput {
	from: string;
	fromName: string;
	to: string;
	toName: string | null;
	subject: string;
	text: string;
	html: string;
	ics: string;
	method: "REQUEST" | "CANCEL";
	/** Our message id; the Message-ID header is derived from it, so a resend keeps it. */
	messageId: string;
	/** Epoch ms for the Date header. */
	date: number;
}

const encoder = new TextEncoder();

/** Base64 of the UTF-8 bytes in lines of 76 characters (RFC 2045). */
export function base64Lines(value: string): string {
	let binary = "";
	for (const byte of encoder.encode(value)) binary += String.fromCharCode(byte);
	return (btoa(binary).match(/.{1,76}/g) ?? []).join("\r\n");
}

export function domainOf(address: string): string {
	return address.slice(address.lastIndexOf("@") + 1);
}

/**
 * The raw RFC 5322 message: multipart/mixed holding multipart/alternative (plain text, HTML) and
 * the `.ics` attachment typed `text/calendar` with its iTIP method, so mail clients offer it as
 * an invitation. Built with mimetext's browser build, which ends lines with CRLF and needs no
 * Node built-ins.
 */
export function buildMime(input: MimeInput): string {
	const msg = createMimeMessage();
	msg.setSender({ addr: input.from, name: oneLine(input.fromName) });
	msg.setTo(input.toName ? { addr: input.to, name: oneLine(input.toName) } : { addr: input.to });
	msg.setSubject(oneLine(input.subject));
	msg.setHeader("Message-ID", `<${input.messageId}@${domainOf(input.from)}>`);
	msg.setHeader("Date", new Date(input.date).toUTCString().replace("GMT", "+0000"));
	msg.addMessage({ contentType: "text/plain", encoding: "base64", data: base64Lines(input.text) });
	msg.addMessage({ contentType: "text/html", encoding: "base64", data: base64Lines(input.html) });
	msg.addAttachment({
		filename: input.method === "CANCEL" ? "cancel.ics" : "invite.ics",
		contentType: `text/calendar; charset=UTF-8; method=${input.method}`,
		encoding: "base64",
		data: base64Lines(input.ics),
	});
	return msg.asRaw();
}
