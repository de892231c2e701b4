// The candidate page's script (bundled into the Worker by scripts/build-client.mjs). It speaks the
// same zod-checked protocol as the interview's Durable Object.
import {
	type ClientMessage,
	MAX_RESPONSE_CHARS,
	type RoomInterview,
	serverMessage,
	type WireQuestion,
} from "./protocol";

interface PageConfig {
	interviewId: string;
	token: string;
	wsUrl: string;
	recordUrl: string;
}

const config = JSON.parse(document.getElementById("room-config")?.textContent ?? "{}") as PageConfig;
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const seqKey = `room:${config.interviewId}:seq`;
const startedKey = `room:${config.interviewId}:started`;
/** The answer being written to a question, kept in this tab so that a reload does not lose it. */
const draftKey = (questionId: string) => `room:${config.interviewId}:draft:${questionId}`;

let socket: WebSocket | null = null;
let lastSeq = Number(sessionStorage.getItem(seqKey) ?? "0");
let question: WireQuestion | null = null;
/** An answer was sent and the page waits for what follows it. */
let awaitingNext = false;
let finished = false;
let reconnects = 0;
let countdown: number | undefined;
let recorder: MediaRecorder | null = null;
/** Whether the interview has been seen in progress (the recorder may run). */
let live = false;
let chunk = 0;
/**
 * This page's recording segment: its chunks are numbered from 0 under it, so a second page on the
 * same link (a reload, another tab or device) keeps its own audio beside the first's. Base 36 of
 * the time, so segments sort in the order they began.
 */
const segment = Date.now().toString(36);

function show(section: string) {
	for (const el of document.querySelectorAll<HTMLElement>("[data-section]")) {
		el.hidden = el.dataset.section !== section;
	}
	const heading = document.querySelector<HTMLElement>(`[data-section="${section}"] h2`);
	heading?.focus();
}

function announce(text: string) {
	$("status-line").textContent = text;
}

/** Sends when connected; false (nothing sent) while the page is reconnecting. */
function send(message: ClientMessage): boolean {
	if (socket?.readyState !== WebSocket.OPEN) return false;
	socket.send(JSON.stringify(message));
	return true;
}

function unlockAnswer() {
	$<HTMLButtonElement>("submit").disabled = false;
	$<HTMLTextAreaElement>("answer").disabled = false;
}

/**
 * A connection refused before it opened may mean the interview ended, was cancelled or was moved
 * to a later time meanwhile (the server refuses those before the upgrade): the page's own address
 * then serves the final page, or the not-yet-open page with the new time and no start button,
 * instead of this one, so the page reloads to show it.
 */
async function showFinalPageIfEnded() {
	try {
		const page = await fetch(window.location.href, { cache: "no-store" });
		const text = await page.text();
		if (!text.includes('id="room-config"') || !text.includes('id="start"')) window.location.reload();
	} catch {
		// Offline: the next attempt looks again.
	}
}

function renderInterview(next: RoomInterview) {
	if (next.status === "completed") return finish("thanks");
	if (next.status === "cancelled") return finish("cancelled");
	if (next.waiting) {
		show("waiting");
		return;
	}
	if (next.status === "in_progress") {
		live = true;
		beginRecording();
		show("question");
		const total = next.questions_total ?? 0;
		$("progress").textContent = total
			? `Question ${Math.min(next.questions_answered + 1, total)} of ${total}`
			: "";
		const bar = $<HTMLProgressElement>("progress-bar");
		bar.max = total || 1;
		bar.value = next.questions_answered;
		startCountdown(next.ends_at);
		if (next.current_question) renderQuestion(next.current_question);
	}
}

function renderQuestion(q: WireQuestion) {
	if (question?.id === q.id) return;
	if (question) sessionStorage.removeItem(draftKey(question.id));
	question = q;
	// The skill only: how hard the question is (it adapts to the answers) is the interviewer's.
	$("question-meta").textContent = q.skill;
	$("question-text").textContent = q.text;
	const answer = $<HTMLTextAreaElement>("answer");
	answer.value = sessionStorage.getItem(draftKey(q.id)) ?? "";
	answer.disabled = false;
	$<HTMLButtonElement>("submit").disabled = false;
	showCount();
	answer.focus();
	// "Answer sent." is over: the next question is here.
	if (awaitingNext) announce("Answer received. Next question.");
	awaitingNext = false;
}

/** The answer's length, shown from 90 % of the limit the server takes (the box stops at it). */
function showCount() {
	const length = $<HTMLTextAreaElement>("answer").value.length;
	const count = $("answer-count");
	count.hidden = length < MAX_RESPONSE_CHARS * 0.9;
	count.textContent = `${length.toLocaleString("en-US")} of ${MAX_RESPONSE_CHARS.toLocaleString("en-US")} characters`;
}

function startCountdown(endsAt: string | null) {
	if (!endsAt || countdown !== undefined) return;
	const end = Date.parse(endsAt);
	const tick = () => {
		const left = Math.max(0, Math.round((end - Date.now()) / 1000));
		$("time-left").textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left`;
	};
	tick();
	countdown = window.setInterval(tick, 1000);
}

function finish(section: "thanks" | "cancelled") {
	finished = true;
	window.clearInterval(countdown);
	sessionStorage.removeItem(startedKey);
	if (question) sessionStorage.removeItem(draftKey(question.id));
	if (recorder && recorder.state !== "inactive") recorder.stop();
	show(section);
	socket?.close(1000, "done");
}

function connect() {
	const url = `${config.wsUrl}/interview/${config.interviewId}/?token=${encodeURIComponent(config.token)}`;
	socket = new WebSocket(url);
	let opened = false;
	socket.addEventListener("open", () => {
		opened = true;
		reconnects = 0;
		announce("Connected.");
		// An answer lost with the old connection can be sent again: one that arrived is followed by
		// the next question, and a repeat of it is refused with an error frame.
		if (question) unlockAnswer();
		if (lastSeq > 0) send({ type: "resync", after_seq: lastSeq });
	});
	socket.addEventListener("message", (event) => {
		const parsed = serverMessage.safeParse(JSON.parse(String(event.data)));
		if (!parsed.success) return;
		const message = parsed.data;
		if (message.seq > lastSeq && message.type !== "error") {
			lastSeq = message.seq;
			sessionStorage.setItem(seqKey, String(lastSeq));
		}
		if (message.type === "interview_update") renderInterview(message.interview);
		else if (message.type === "question") renderQuestion(message.question);
		else {
			announce(message.message);
			unlockAnswer();
		}
	});
	socket.addEventListener("close", () => {
		if (finished) return;
		if (!opened) void showFinalPageIfEnded();
		if (reconnects >= 8) {
			announce("The connection was lost. Reload the page to continue where you left off.");
			return;
		}
		reconnects++;
		announce("Connection lost; reconnecting…");
		window.setTimeout(connect, Math.min(8000, 500 * 2 ** reconnects));
	});
}

/**
 * Uploads one chunk, again after a network error, a 429 or a 5xx (at most four tries, 1, 2 and 4 s
 * apart): a chunk lost in the middle would cut the recording's file there. A 409 means an earlier
 * try was stored though its answer was lost; any other answer is final.
 */
async function uploadChunk(n: number, data: Blob) {
	for (let attempt = 0; attempt < 4; attempt++) {
		try {
			const res = await fetch(`${config.recordUrl}&segment=${segment}&chunk=${n}`, {
				method: "POST",
				body: data,
			});
			if (res.status < 500 && res.status !== 429) return;
		} catch {
			// The network: try again.
		}
		if (attempt < 3) await new Promise((resolve) => window.setTimeout(resolve, 1000 * 2 ** attempt));
	}
}

async function startRecording() {
	if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === "undefined") return;
	try {
		const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
		// Speech at 32 kbit/s (Opus): about 20 KB a 5-second chunk, 0.23 MiB a minute.
		recorder = new MediaRecorder(stream, { audioBitsPerSecond: 32_000 });
		recorder.addEventListener("dataavailable", (event) => {
			if (event.data.size === 0) return;
			void uploadChunk(chunk++, event.data);
		});
		beginRecording();
	} catch {
		// Recording is optional: the interview goes on without it.
	}
}

/**
 * After a reload: records again (a new segment) if the candidate allowed the microphone before,
 * without asking again; a candidate who did not is not asked on every reload.
 */
async function resumeRecording() {
	try {
		const status = await navigator.permissions?.query({ name: "microphone" as PermissionName });
		if (status?.state === "granted") await startRecording();
	} catch {
		// The browser cannot say: no recording rather than a prompt.
	}
}

/**
 * The recorder runs only while the interview is in progress: the server refuses chunks before
 * (a candidate waiting for a slot), and the first chunk carries the file's header.
 */
function beginRecording() {
	if (!live || finished || !recorder || recorder.state !== "inactive") return;
	recorder.start(5000);
	$("recording").hidden = false;
}

$("start").addEventListener("click", () => {
	$<HTMLButtonElement>("start").disabled = true;
	sessionStorage.setItem(startedKey, "1");
	announce("Connecting…");
	connect();
	void startRecording();
});

$("answer").addEventListener("input", () => {
	if (question) sessionStorage.setItem(draftKey(question.id), $<HTMLTextAreaElement>("answer").value);
	showCount();
});

$("answer-form").addEventListener("submit", (event) => {
	event.preventDefault();
	const answer = $<HTMLTextAreaElement>("answer");
	if (!question || answer.value.trim() === "") {
		announce("Write an answer before sending it.");
		return;
	}
	const sent = send({
		type: "candidate_response",
		session_id: config.interviewId,
		question_id: question.id,
		response: answer.value,
		timestamp: new Date().toISOString(),
	});
	if (!sent) {
		announce("Not connected right now: send your answer again once the page has reconnected.");
		return;
	}
	answer.disabled = true;
	$<HTMLButtonElement>("submit").disabled = true;
	awaitingNext = true;
	announce("Answer sent.");
});

$("end").addEventListener("click", () => {
	if (!window.confirm("End the interview now? You cannot return to it.")) return;
	if (!send({ type: "end_interview" }))
		announce("Not connected right now: try again once the page has reconnected.");
});

if (sessionStorage.getItem(startedKey)) {
	$<HTMLButtonElement>("start").disabled = true;
	connect();
	void resumeRecording();
}
