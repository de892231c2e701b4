import { html, raw } from "hono/html";
import { formatUtc } from "../../email/format";
import type { InterviewState } from "../core/model";
import { MAX_RESPONSE_CHARS } from "./protocol";

/** The candidate's pages: server-rendered, accessible, usable on a phone, no third-party assets. */

const STYLE = `
:root{color-scheme:light;--fg:#1a1a1a;--muted:#4a4a4a;--accent:#0b57d0;--bg:#fff;--panel:#f4f6fa;--border:#c7ccd6}
*{box-sizing:border-box}body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:44rem;margin:0 auto;padding:1.25rem}h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.25rem}
.panel{background:var(--panel);border:1px solid var(--border);border-radius:.5rem;padding:1rem;margin:1rem 0}
.muted{color:var(--muted)}ul.skills{display:flex;flex-wrap:wrap;gap:.5rem;padding:0;list-style:none}
ul.skills li{border:1px solid var(--border);border-radius:1rem;padding:.1rem .7rem;background:#fff}
button{font:inherit;padding:.7rem 1.2rem;border-radius:.4rem;border:2px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer;min-height:44px}
button.secondary{background:#fff;color:var(--accent)}button:disabled{opacity:.55;cursor:not-allowed}
button:focus-visible,textarea:focus-visible{outline:3px solid #f29900;outline-offset:2px}
textarea{width:100%;min-height:10rem;font:inherit;padding:.6rem;border:1px solid var(--border);border-radius:.4rem}
label{font-weight:600;display:block;margin:.75rem 0 .25rem}.row{display:flex;gap:.75rem;flex-wrap:wrap;align-items:center;justify-content:space-between}
progress{width:100%;height:.6rem}#question-text{font-size:1.15rem}`;

/**
 * The candidate page's Content-Security-Policy: nothing but the page's own stylesheet and script,
 * both carrying this response's nonce, and connections to the service's own origins (the
 * WebSocket, the recording upload, the page's own reload check). The JSON configuration block
 * is data, not script, and runs under no policy.
 */
export function pagePolicy(nonce: string, connect: readonly string[]): string {
	return [
		"default-src 'none'",
		`script-src 'nonce-${nonce}'`,
		`style-src 'nonce-${nonce}'`,
		`connect-src 'self' ${[...new Set(connect)].join(" ")}`.trim(),
		"frame-ancestors 'none'",
		"base-uri 'none'",
		"form-action 'none'",
	].join("; ");
}

/** A fresh nonce for one response: 128 random bits, base64. */
export function newNonce(): string {
	return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

function layout(title: string, body: ReturnType<typeof html>, nonce: string, refreshSeconds?: number) {
	return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${refreshSeconds ? html`<meta http-equiv="refresh" content="${String(refreshSeconds)}">` : ""}
<title>${title}</title>
<style nonce="${nonce}">${raw(STYLE)}</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

export function messagePage(title: string, text: string, nonce: string) {
	return layout(
		title,
		html`<h1>${title}</h1>
<p>${text}</p>`,
		nonce,
	);
}

/** The longest a not-yet-open page waits before it reloads (and, still early, waits again). */
const MAX_WAIT_REFRESH_S = 3600;

export interface JoinPageOptions {
	token: string;
	wsUrl: string;
	recordUrl: string;
	opensAt: number;
	now: number;
	/** This response's CSP nonce, carried by the page's style and script elements. */
	nonce: string;
}

export function joinPage(state: InterviewState, options: JoinPageOptions) {
	const config = JSON.stringify({
		interviewId: state.id,
		token: options.token,
		wsUrl: options.wsUrl,
		recordUrl: options.recordUrl,
	}).replace(/</g, "\\u003c");
	const company = state.companyName ?? "the hiring team";
	// Only the first join waits for the window: a candidate who joined comes back at any time.
	const notOpen = state.joinedAt === null && options.now < options.opensAt;
	const opens = new Date(options.opensAt).toISOString();
	// A page opened early reloads itself when the interview opens (at most an hour ahead; it then
	// waits again), so the candidate never has to guess when to reload.
	const refresh = notOpen
		? Math.min(MAX_WAIT_REFRESH_S, Math.ceil((options.opensAt - options.now) / 1000) + 1)
		: 0;
	return layout(
		`Interview: ${state.position}`,
		html`<header>
<p class="muted">${company}</p>
<h1>${state.position}</h1>
</header>
<p id="status-line" role="status" aria-live="polite" class="muted"></p>
<section data-section="intro" aria-labelledby="intro-title">
<h2 id="intro-title" tabindex="-1">Your interview</h2>
<div class="panel">
<p>About ${state.durationMinutes} minutes with an AI interviewer, covering:</p>
<ul class="skills">${state.skills.map((s) => html`<li>${s}</li>`)}</ul>
</div>
<h2>How it works</h2>
<ol>
<li>${notOpen ? "Once the interview opens, press" : "Press"} <strong>Start the interview</strong> when you are ready. The clock starts then.</li>
<li>You get one question at a time. Write your answer in the box and send it.</li>
<li>Explain your reasoning and give examples: depth matters more than length.</li>
<li>If your connection drops or you reload the page, you continue where you left off.</li>
<li>If your browser asks, you may allow the microphone so your answers can be recorded; it is optional.</li>
</ol>
${
	notOpen
		? html`<p class="panel">The interview is scheduled for ${formatUtc(state.scheduledAt)}. It opens 15 minutes before, at <time datetime="${opens}">${formatUtc(options.opensAt)}</time>; keep this page open and it shows the start button then by itself.</p>`
		: html`<button id="start" type="button">Start the interview</button>`
}
</section>
<section data-section="waiting" hidden aria-labelledby="waiting-title">
<h2 id="waiting-title" tabindex="-1">Almost ready</h2>
<p>Your interview starts as soon as an interviewer is free. Keep this page open; you do not need to do anything.</p>
</section>
<section data-section="question" hidden aria-labelledby="question-title">
<div class="row"><h2 id="question-title" tabindex="-1">Question</h2><span id="time-left" class="muted" aria-live="off"></span></div>
<p id="progress" class="muted"></p>
<progress id="progress-bar" value="0" max="1" aria-label="Questions answered"></progress>
<p id="question-meta" class="muted"></p>
<p id="question-text"></p>
<form id="answer-form">
<label for="answer">Your answer</label>
<textarea id="answer" name="answer" required maxlength="${MAX_RESPONSE_CHARS}" aria-describedby="answer-count"></textarea>
<p id="answer-count" class="muted" hidden></p>
<div class="row"><button id="submit" type="submit">Send answer</button><button id="end" type="button" class="secondary">End interview</button></div>
</form>
<p id="recording" hidden class="muted">Recording audio.</p>
</section>
<section data-section="thanks" hidden aria-labelledby="thanks-title">
<h2 id="thanks-title" tabindex="-1">Thank you!</h2>
<p>Your interview is complete. ${company} will be in touch about the next steps. You can close this page.</p>
</section>
<section data-section="cancelled" hidden aria-labelledby="cancelled-title">
<h2 id="cancelled-title" tabindex="-1">This interview was cancelled</h2>
<p>Please contact ${company} if you have questions.</p>
</section>
<script id="room-config" type="application/json">${raw(config)}</script>
${notOpen ? "" : html`<script src="/room.js" nonce="${options.nonce}" defer></script>`}`,
		options.nonce,
		refresh,
	);
}
