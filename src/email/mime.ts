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
	/** The calendar attachment; a user's invitation has none. */
	ics: string | null;
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
	if (input.ics !== null)
		msg.addAttachment({
			filename: input.method === "CANCEL" ? "cancel.ics" : "invite.ics",
			contentType: `text/calendar; charset=UTF-8; method=${input.method}`,
			encoding: "base64",
			data: base64Lines(input.ics),
		});
	return foldEncodedWords(msg.asRaw());
}

/** UTF-8 bytes per encoded-word: 45 bytes are 60 base64 characters, 72 with `=?utf-8?B?…?=`. */
const WORD_BYTES = 45;
const ENCODED_WORD = /=\?utf-8\?B\?([A-Za-z0-9+/=]*)\?=/gi;

/**
 * mimetext writes each non-ASCII or long header text (subject, display names) as one encoded-word
 * of any length; RFC 2047 allows at most 75 characters per word, and RFC 5322 998 per line. Each
 * is cut into words of whole UTF-8 characters, folded onto continuation lines (a decoder joins
 * adjacent words without the space between them). Only the header block is touched.
 */
export function foldEncodedWords(raw: string): string {
	const end = raw.indexOf("\r\n\r\n");
	const head = end === -1 ? raw : raw.slice(0, end);
	const folded = head.replace(ENCODED_WORD, (_word, b64: string) => {
		const text = new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
		return encodedWords(text).join("\r\n ");
	});
	return end === -1 ? folded : folded + raw.slice(end);
}

/** `text` as RFC 2047 B-encoded words of at most 45 UTF-8 bytes each, never splitting a character. */
export function encodedWords(text: string): string[] {
	const words: string[] = [];
	let part = "";
	let size = 0;
	for (const char of text) {
		const bytes = encoder.encode(char).length;
		if (size + bytes > WORD_BYTES && part) {
			words.push(word(part));
			part = "";
			size = 0;
		}
		part += char;
		size += bytes;
	}
	if (part || words.length === 0) words.push(word(part));
	return words;
}

function word(text: string): string {
	let binary = "";
	for (const byte of encoder.encode(text)) binary += String.fromCharCode(byte);
	return `=?utf-8?B?${btoa(binary)}?=`;
}
