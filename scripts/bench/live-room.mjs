// The live room's round trip: a candidate's answer sent over the WebSocket until the next
// question arrives. Several candidates answer at once, each in their own interview, until the
// wanted number of round trips is measured or the time is up.
import { io } from "socket.io-client";
import { percentile } from "./report.mjs";

const ANSWER =
	"I would start from the access pattern, add an index that covers the query, check the plan with " +
	"EXPLAIN, and measure before and after; the trade-off is slower writes and more storage.";
let sent = 0;
/** Every answer differs (as candidates' do), so nothing the interviewer caches per text helps. */
const nextAnswer = () => `${ANSWER} In case ${++sent} I would look at the slow query log first.`;

/** Runs one candidate through an interview; resolves with the round trips it measured. */
function candidate(wsBase, interview, { deadline, wanted }) {
	return new Promise((resolve) => {
		const token = new URL(interview.interview_url).searchParams.get("token");
		const ws = new WebSocket(`${wsBase}/interview/${interview.id}/?token=${encodeURIComponent(token)}`);
		const samples = [];
		let errors = 0;
		let current = null;
		let sentAt = 0;
		let finished = false;
		const done = () => {
			if (finished) return;
			finished = true;
			clearTimeout(timer);
			try {
				ws.close();
			} catch {
				// closed
			}
			resolve({ samples, errors });
		};
		const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
		const answer = () => {
			if (Date.now() > deadline || wanted() <= 0) return done();
			sentAt = performance.now();
			ws.send(
				JSON.stringify({
					type: "candidate_response",
					session_id: interview.id,
					question_id: current,
					response: nextAnswer(),
					timestamp: new Date().toISOString(),
				}),
			);
		};
		ws.onmessage = (event) => {
			let message;
			try {
				message = JSON.parse(String(event.data));
			} catch {
				errors++;
				return done();
			}
			if (message.type === "error") {
				errors++;
				return done();
			}
			if (message.type === "question" && message.question?.id && message.question.id !== current) {
				if (current !== null) samples.push(performance.now() - sentAt);
				current = message.question.id;
				return answer();
			}
			if (message.type === "interview_update" && message.interview?.status === "completed") return done();
		};
		ws.onerror = () => {
			errors++;
			done();
		};
		ws.onclose = () => done();
	});
}

/**
 * The same candidate over socket.io-client (its WebSocket transport, which default clients
 * upgrade to at once): the contract's payload without `question_id`, answered by the next
 * `question` event.
 */
function socketIoCandidate(wsBase, interview, { deadline, wanted }) {
	return new Promise((resolve) => {
		const token = new URL(interview.interview_url).searchParams.get("token");
		const socket = io(`${wsBase}/interview/${interview.id}/`, {
			auth: { token },
			transports: ["websocket"],
			reconnection: false,
			// Each candidate is their own browser: without this, socket.io-client multiplexes every
			// interview of this process over one connection as namespaces, and the service allows
			// at most 8 on one connection (docs/live-room.md).
			forceNew: true,
		});
		const samples = [];
		let errors = 0;
		let current = null;
		let sentAt = 0;
		let finished = false;
		const done = () => {
			if (finished) return;
			finished = true;
			clearTimeout(timer);
			socket.close();
			resolve({ samples, errors });
		};
		const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
		socket.on("question", ({ question }) => {
			if (!question?.id || question.id === current) return;
			if (current !== null) samples.push(performance.now() - sentAt);
			current = question.id;
			if (Date.now() > deadline || wanted() <= 0) return done();
			sentAt = performance.now();
			socket.emit("candidate_response", {
				session_id: interview.id,
				response: nextAnswer(),
				timestamp: new Date().toISOString(),
			});
		});
		socket.on("interview_update", ({ interview: state }) => {
			if (state?.status === "completed") done();
		});
		socket.on("error", () => {
			errors++;
			done();
		});
		socket.on("connect_error", () => {
			errors++;
			done();
		});
		socket.on("disconnect", () => done());
	});
}

/**
 * @param {{baseUrl: string, createInterviews: (n: number) => Promise<any[]>, clients: number,
 *   answers: number, timeLimitMs: number, client?: "websocket" | "socketio"}} options
 */
export async function measureLiveRoom({
	baseUrl,
	createInterviews,
	clients,
	answers,
	timeLimitMs,
	client = "websocket",
}) {
	const run = client === "socketio" ? socketIoCandidate : candidate;
	const wsBase = baseUrl.replace(/^http/, "ws");
	// Each interview asks up to 15 questions; make enough for the wanted answers, with margin.
	const pool = await createInterviews(Math.ceil(answers / 10) + clients);
	const deadline = Date.now() + timeLimitMs;
	const samples = [];
	let errors = 0;
	let started = 0;
	const wanted = () => answers - samples.length;
	const startedAt = performance.now();
	const worker = async () => {
		while (started < pool.length && wanted() > 0 && Date.now() < deadline) {
			const interview = pool[started++];
			const outcome = await run(wsBase, interview, { deadline, wanted });
			samples.push(...outcome.samples);
			errors += outcome.errors;
		}
	};
	await Promise.all(Array.from({ length: clients }, worker));
	const elapsedS = (performance.now() - startedAt) / 1000;
	const measured = samples;
	return {
		clients,
		interviews: started,
		answers: samples.length,
		perSecond: samples.length / elapsedS,
		p50: percentile(measured, 50),
		p99: percentile(measured, 99),
		mean: measured.length ? measured.reduce((a, b) => a + b, 0) / measured.length : null,
		errors,
		/** Round trips not measured within the time limit. */
		missing: Math.max(0, answers - samples.length),
	};
}
