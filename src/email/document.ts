import { escapeHtml } from "./format";

/** A piece of running text: plain words or a link. */
export type Inline = string | { text: string; href: string };

/** One notice as structured content, rendered to both the plain-text and the HTML part. */
export type Block =
	| { kind: "paragraph"; parts: Inline[] }
	| { kind: "heading"; text: string }
	| { kind: "facts"; rows: { label: string; value: Inline[] }[] }
	| { kind: "list"; items: Inline[][] }
	| { kind: "button"; text: string; href: string };

function inlineText(parts: Inline[]): string {
	return parts
		.map((part) => {
			if (typeof part === "string") return part;
			return part.text === part.href ? part.href : `${part.text} (${part.href})`;
		})
		.join("");
}

/** A fact that is only a link shows just the address in plain text. */
function factText(value: Inline[]): string {
	const [only] = value;
	return value.length === 1 && only !== undefined && typeof only !== "string" ? only.href : inlineText(value);
}

export function renderText(blocks: Block[]): string {
	const out: string[] = [];
	for (const block of blocks) {
		switch (block.kind) {
			case "paragraph":
				out.push(inlineText(block.parts));
				break;
			case "heading":
				out.push(`${block.text}\n${"-".repeat(block.text.length)}`);
				break;
			case "facts":
				out.push(block.rows.map((row) => `${row.label}: ${factText(row.value)}`).join("\n"));
				break;
			case "list":
				out.push(block.items.map((item) => `- ${inlineText(item)}`).join("\n"));
				break;
			case "button":
				out.push(`${block.text}: ${block.href}`);
				break;
		}
	}
	return `${out.join("\n\n")}\n`;
}

const LINK_STYLE = "color:#1a56db;";

function inlineHtml(parts: Inline[]): string {
	return parts
		.map((part) =>
			typeof part === "string"
				? escapeHtml(part)
				: `<a href="${escapeHtml(part.href)}" style="${LINK_STYLE}">${escapeHtml(part.text)}</a>`,
		)
		.join("");
}

function blockHtml(block: Block): string {
	switch (block.kind) {
		case "paragraph":
			return `<p style="margin:0 0 16px;">${inlineHtml(block.parts)}</p>`;
		case "heading":
			return `<h2 style="font-size:17px;margin:24px 0 8px;">${escapeHtml(block.text)}</h2>`;
		case "facts":
			return `<table role="presentation" style="border-collapse:collapse;margin:0 0 16px;">${block.rows
				.map(
					(row) =>
						`<tr><th scope="row" style="text-align:left;vertical-align:top;padding:4px 16px 4px 0;font-weight:600;white-space:nowrap;">${escapeHtml(row.label)}</th><td style="padding:4px 0;overflow-wrap:anywhere;word-break:break-word;">${inlineHtml(row.value)}</td></tr>`,
				)
				.join("")}</table>`;
		case "list":
			return `<ul style="margin:0 0 16px;padding-left:20px;">${block.items
				.map((item) => `<li style="margin:0 0 6px;">${inlineHtml(item)}</li>`)
				.join("")}</ul>`;
		case "button":
			return `<p style="margin:0 0 16px;"><a href="${escapeHtml(block.href)}" style="display:inline-block;background:#1a56db;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:600;">${escapeHtml(block.text)}</a></p>`;
	}
}

/** Self-contained HTML: inline styles only, no images or other remote resources. */
export function renderHtml(title: string, blocks: Block[]): string {
	return [
		"<!doctype html>",
		'<html lang="en">',
		'<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
		`<title>${escapeHtml(title)}</title></head>`,
		'<body style="margin:0;padding:0;background:#ffffff;color:#1f2937;">',
		// A long unbroken value (the written-out join link) wraps rather than widen the message.
		'<div style="max-width:600px;margin:0 auto;padding:24px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;overflow-wrap:anywhere;word-break:break-word;">',
		...blocks.map(blockHtml),
		"</div>",
		"</body>",
		"</html>",
		"",
	].join("\n");
}
