import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type Service, startService } from "./harness";

// The real socket.io-client against the real local service. A short heartbeat, so that a
// session that did not answer its pings would end within these tests.
let service: Service;
let WS_URL: string;
const sockets: Socket[] = [];

beforeAll(async () => {
	service = await startService({
		vars: { SOCKET_IO_PING_INTERVAL_MS: "1500", SOCKET_IO_PING_TIMEOUT_MS: "1500" },
	});
	WS_URL = service.baseUrl.replace(/^http/, "ws");
});

afterAll(async () => {
	for (const socket of sockets) socket.close();
	await service?.stop();
});

interface Update {
	seq: number;
	interview: {
		id: string;
		status: string;
		questions_answered: number;
		current_question: { id: string } | null;
	};
}

async function createInterview(key = service.keys.test) {
	const res = await api(service, "POST", "/v1/interviews", {
		key,
		body: {
			candidate_email: "sio@example.com",
			position: "Data Engineer",
			skills: ["SQL"],
			duration_minutes: 15,
		},
	});
	expect(res.status).toBe(201);
	const data = res.body.data as { id: string; interview_url: string };
	return { id: data.id, token: new URL(data.interview_url).searchParams.get("token") as string };
}

function until<T>(check: () => T | undefined | null | false, ms = 30_000): Promise<T> {
	const deadline = Date.now() + ms;
	return new Promise((resolve, reject) => {
		const tick = () => {
			const value = check();
			if (value) return resolve(value);
			if (Date.now() > deadline) return reject(new Error("timed out"));
			setTimeout(tick, 50);
		};
		tick();
	});
}

/**
 * The contract's setup code, as issue 26 gives it, unchanged but for the URL and token: `show`
 * answers every question it is shown. Returns what it saw and sent.
 */
function candidateSnippet(sessionId: string, token: string, options: Record<string, unknown> = {}) {
	const seen = {
		updates: [] as Update[],
		questions: [] as string[],
		answers: [] as string[],
		errors: [] as any[],
	};
	const render = (u: Update) => seen.updates.push(u);
	const show = (question: { id: string; text: string }) => {
		seen.questions.push(question.id);
		const response = `Answer to ${question.id}: I would measure first, then index the hot path.`;
		seen.answers.push(response);
		socket.emit("candidate_response", {
			session_id: sessionId,
			response,
			timestamp: new Date().toISOString(),
		});
	};
	const socket = io(`${WS_URL}/interview/${sessionId}/`, { auth: { token }, ...options });
	socket.on("interview_update", (u) => render(u));
	socket.on("question", (m) => show(m.question));
	socket.on("error", (e) => seen.errors.push(e));
	sockets.push(socket);
	return { socket, seen };
}

/**
 * A candidate's connection first gets the current state for itself; every broadcast after it
 * reaches the observer too, identical (seq included) and in the same order.
 */
function sameAfterJoin(candidate: Update[], observer: Update[]) {
	const first = (candidate[0] as Update).seq;
	expect(observer.filter((u) => u.seq > first)).toEqual(candidate.slice(1));
	expect(candidate.length).toBeGreaterThan(3);
}

const completed = (updates: Update[]) => updates.find((u) => u.interview.status === "completed");

async function transcriptOf(id: string) {
	const res = await api(service, "GET", `/v1/interviews/${id}?include_transcript=true`, {
		key: service.keys.test,
	});
	expect(res.status).toBe(200);
	return res.body.data as {
		status: string;
		transcript: { question: { id: string }; answer: string | null }[];
	};
}

describe("the real-time channel for socket.io-client 4", () => {
	it("takes a whole interview to completed with the default transports (polling, then the upgrade)", async () => {
		const { id, token } = await createInterview();
		const { socket, seen } = candidateSnippet(id, token);
		const upgraded = new Promise<string>((resolve) => socket.io.engine.on("upgrade", (t) => resolve(t.name)));
		await until(() => completed(seen.updates));
		expect(await upgraded).toBe("websocket");
		const data = await transcriptOf(id);
		expect(data.status).toBe("completed");
		expect(data.transcript.length).toBeGreaterThan(1);
		// Every question shown was answered with what was sent, in order.
		expect(data.transcript.map((e) => e.answer)).toEqual(seen.answers);
		expect(seen.errors).toEqual([]);
		// seq increases across the events.
		const seqs = seen.updates.map((u) => u.seq);
		expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
	});

	it("takes a whole interview to completed with transports: ['websocket'] alone", async () => {
		const { id, token } = await createInterview();
		const { socket, seen } = candidateSnippet(id, token, { transports: ["websocket"] });
		await until(() => completed(seen.updates));
		expect(socket.io.engine.transport.name).toBe("websocket");
		const data = await transcriptOf(id);
		expect(data.transcript.map((e) => e.answer)).toEqual(seen.answers);
		expect(seen.errors).toEqual([]);
	});

	it("acknowledges events: {ok: true}, or the error; a repeat is refused with an error event", async () => {
		const { id, token } = await createInterview();
		const socket = io(`${WS_URL}/interview/${id}/`, { auth: { token }, transports: ["websocket"] });
		sockets.push(socket);
		const errors: any[] = [];
		socket.on("error", (e) => errors.push(e));
		const first = await new Promise<{ id: string }>((resolve) =>
			socket.once("question", (m) => resolve(m.question)),
		);
		const answer = (extra: Record<string, unknown> = {}) =>
			socket.emitWithAck("candidate_response", {
				session_id: id,
				response: "Partition by day and cluster by customer.",
				timestamp: new Date().toISOString(),
				...extra,
			});
		expect(await answer()).toEqual({ ok: true });
		// The same question again, named: it was answered already.
		const repeat = await answer({ question_id: first.id });
		expect(repeat).toEqual({
			ok: false,
			error: { code: "STALE_QUESTION", message: "That question has already been answered." },
		});
		await until(() => errors.length > 0);
		expect(errors[0]).toMatchObject({ code: "STALE_QUESTION" });
		expect(typeof errors[0].seq).toBe("number");
		// A wrong session, and a malformed payload.
		expect(await answer({ session_id: "int_nope" })).toMatchObject({
			ok: false,
			error: { code: "WRONG_SESSION" },
		});
		expect(await socket.emitWithAck("candidate_response", "text")).toMatchObject({
			ok: false,
			error: { code: "BAD_MESSAGE" },
		});
		expect(await socket.emitWithAck("end_interview")).toEqual({ ok: true });
		const data = await transcriptOf(id);
		expect(data.status).toBe("completed");
		expect(data.transcript[0]?.answer).toBe("Partition by day and cluster by customer.");
	});

	it("refuses answers named for questions a resync replays, so each answer stays with its own question", async () => {
		const { id, token } = await createInterview();
		const socket = io(`${WS_URL}/interview/${id}/`, { auth: { token }, transports: ["websocket"] });
		sockets.push(socket);
		const shown: { id: string; index: number }[] = [];
		socket.on("question", (m) => shown.push(m.question));
		const answer = (question: { id: string }) =>
			socket.emitWithAck("candidate_response", {
				session_id: id,
				question_id: question.id,
				response: `My answer to ${question.id}: measure, then index the hot path.`,
				timestamp: new Date().toISOString(),
			});
		// Two questions answered, each by its id.
		for (let i = 0; i < 2; i++) {
			const question = await until(() => shown.find((q) => q.index === i));
			expect(await answer(question)).toEqual({ ok: true });
		}
		const open = await until(() => shown.find((q) => q.index === 2));
		// The whole history again: every question shown so far arrives once more.
		const before = shown.length;
		expect(await socket.emitWithAck("resync", { after_seq: 0 })).toEqual({ ok: true });
		const replayed = await until(() => (shown.length >= before + 3 ? shown.slice(before) : null));
		expect(replayed.map((q) => q.index)).toEqual([0, 1, 2]);
		// A handler answering each replayed question by its id: the answered two are refused.
		const outcomes = [];
		for (const question of replayed) outcomes.push(await answer(question));
		expect(outcomes).toEqual([
			{ ok: false, error: { code: "STALE_QUESTION", message: "That question has already been answered." } },
			{ ok: false, error: { code: "STALE_QUESTION", message: "That question has already been answered." } },
			{ ok: true },
		]);
		const data = await transcriptOf(id);
		expect(data.transcript.slice(0, 3).map((e) => [e.question.id, e.answer])).toEqual(
			[shown[0], shown[1], open].map((q) => [
				q?.id,
				`My answer to ${q?.id}: measure, then index the hot path.`,
			]),
		);
		socket.close();
	});

	for (const transports of [["websocket"], ["polling"]]) {
		it(`refuses bytes where the contract wants text, and keeps the session (${transports[0]})`, async () => {
			const { id, token } = await createInterview();
			const socket = io(`${WS_URL}/interview/${id}/`, { auth: { token }, transports });
			sockets.push(socket);
			let disconnected = false;
			socket.on("disconnect", () => {
				disconnected = true;
			});
			await new Promise((resolve) => socket.once("question", resolve));
			// A binary event: its bytes travel as an attachment the server puts back in place.
			expect(await socket.emitWithAck("candidate_response", new Uint8Array([1, 2, 3]))).toEqual({
				ok: false,
				error: { code: "BAD_MESSAGE", message: "Messages must be JSON objects." },
			});
			expect(
				await socket.emitWithAck("candidate_response", {
					session_id: id,
					response: new Uint8Array([104, 105]),
					timestamp: new Date().toISOString(),
				}),
			).toEqual({
				ok: false,
				error: {
					code: "BAD_MESSAGE",
					message: "Not a valid message: response: Must be a string (expected string, received object).",
				},
			});
			// The same session still takes an answer.
			expect(
				await socket.emitWithAck("candidate_response", {
					session_id: id,
					response: "Partition by day.",
					timestamp: new Date().toISOString(),
				}),
			).toEqual({ ok: true });
			expect(disconnected).toBe(false);
			expect((await transcriptOf(id)).status).toBe("in_progress");
			socket.close();
		});
	}

	it("an observer with an API key receives every update; it cannot answer", async () => {
		const { id, token } = await createInterview();
		const observer = io(`${WS_URL}/interview/${id}`, { auth: { token: service.keys.test } });
		sockets.push(observer);
		const watched: Update[] = [];
		observer.on("interview_update", (u) => watched.push(u));
		await until(() => watched.length > 0);
		expect(await observer.emitWithAck("end_interview")).toMatchObject({
			ok: false,
			error: { code: "FORBIDDEN" },
		});
		const { seen } = candidateSnippet(id, token);
		await until(() => completed(seen.updates) && completed(watched));
		sameAfterJoin(seen.updates, watched);
		// And the observer saw the whole interview: the updates before the candidate's join too.
		expect(watched.filter((u) => u.seq < (seen.updates[0] as Update).seq).length).toBeGreaterThan(0);
	});

	it("refuses a wrong token, another account's key and a cancelled interview with the contract's code", async () => {
		const refusal = (id: string, token: string) =>
			new Promise<any>((resolve) => {
				const socket = io(`${WS_URL}/interview/${id}/`, { auth: { token }, reconnection: false });
				sockets.push(socket);
				socket.on("connect_error", (err: any) => resolve({ message: err.message, data: err.data }));
				socket.on("connect", () => resolve("connected"));
			});
		const { id } = await createInterview();
		expect(await refusal(id, "not-the-token")).toMatchObject({
			message: "The join link's token is missing or wrong.",
			data: { code: "INVALID_TOKEN", message: "The join link's token is missing or wrong." },
		});
		expect((await refusal(id, "")).data.code).toBe("AUTHENTICATION_REQUIRED");

		const admin = (method: string, path: string, body?: unknown) =>
			api(service, method, `/admin${path}`, { key: service.adminToken, body });
		const other = (await admin("POST", "/accounts", { company_name: "Other", plan: "starter" })).body.data;
		const otherKey = (await admin("POST", `/accounts/${other.id}/keys`, { name: "k", environment: "test" }))
			.body.data.key as string;
		expect((await refusal(id, otherKey)).data).toMatchObject({ code: "INTERVIEW_NOT_FOUND" });

		const cancelled = await createInterview();
		const res = await api(service, "DELETE", `/v1/interviews/${cancelled.id}`, { key: service.keys.test });
		expect(res.status).toBe(200);
		expect((await refusal(cancelled.id, cancelled.token)).data).toMatchObject({ code: "INVALID_OPERATION" });
		// A namespace that is not an interview's.
		expect((await refusal("", "x")).data.code).toBe("NOT_FOUND");
	});

	for (const transports of [undefined, ["websocket"], ["polling"]]) {
		it(`loses no answer when the transport is killed mid-interview (${transports ? transports[0] : "default"})`, async () => {
			const { id, token } = await createInterview();
			const { socket, seen } = candidateSnippet(id, token, {
				...(transports ? { transports } : {}),
				reconnectionDelay: 100,
				reconnectionDelayMax: 200,
			});
			let reconnects = 0;
			socket.io.on("reconnect", () => reconnects++);
			// Killed as the second answer is sent (the snippet's handler runs first): that answer
			// may be lost with the transport, and the interview cannot end meanwhile.
			socket.on("question", () => {
				if (seen.answers.length !== 2 || reconnects > 0) return;
				const engine = socket.io.engine as any;
				if (engine.transport.name === "websocket") engine.transport.ws.close();
				else engine.close();
			});
			await until(() => reconnects > 0);
			await until(() => completed(seen.updates));
			const data = await transcriptOf(id);
			expect(data.status).toBe("completed");
			expect(
				data.transcript.every((e) => typeof e.answer === "string" && e.answer.startsWith("Answer to")),
			).toBe(true);
			expect(data.transcript.length).toBeGreaterThan(2);
		});
	}

	it("keeps an idle session alive with the heartbeat, over long-polling and over the WebSocket", async () => {
		const { id, token } = await createInterview();
		for (const transports of [["polling"], ["websocket"]]) {
			const socket = io(`${WS_URL}/interview/${id}/`, { auth: { token }, transports, reconnection: false });
			sockets.push(socket);
			let pings = 0;
			socket.io.on("ping", () => pings++);
			const disconnects: string[] = [];
			socket.on("disconnect", (reason) => disconnects.push(reason));
			await until(() => socket.connected);
			// Longer than pingInterval + pingTimeout (3 s): without pings the client would give up.
			await new Promise((resolve) => setTimeout(resolve, 4_000));
			expect(pings).toBeGreaterThanOrEqual(2);
			expect(disconnects).toEqual([]);
			expect(socket.connected).toBe(true);
			socket.close();
		}
	});

	it("ends a session that does not answer its pings, and refuses unknown sessions", async () => {
		const base = `${service.baseUrl}/socket.io/?EIO=4&transport=polling`;
		const open = await (await fetch(base)).text();
		expect(open.startsWith("0{")).toBe(true);
		const handshake = JSON.parse(open.slice(1));
		expect(handshake).toMatchObject({
			upgrades: ["websocket"],
			pingInterval: 1500,
			pingTimeout: 1500,
			maxPayload: 1_000_000,
		});
		// The first poll gets the ping; no pong is sent.
		const poll = await (await fetch(`${base}&sid=${handshake.sid}`)).text();
		expect(poll).toBe("2");
		// The pending poll ends with the close packet once the pong is overdue; then the id is unknown.
		const bodies: string[] = [];
		let refused: Response | null = null;
		for (let i = 0; i < 10 && !refused; i++) {
			const res = await fetch(`${base}&sid=${handshake.sid}`, { signal: AbortSignal.timeout(5_000) });
			if (res.status === 400) refused = res;
			else bodies.push(await res.text());
		}
		expect(bodies).toEqual(["1"]);
		expect(await refused?.json()).toEqual({ code: 1, message: "Session ID unknown" });
		expect((await fetch(`${service.baseUrl}/socket.io/?EIO=3&transport=polling`)).status).toBe(400);
		expect(
			await (await fetch(`${service.baseUrl}/socket.io/?EIO=4&transport=carrier-pigeon`)).json(),
		).toEqual({
			code: 0,
			message: "Transport unknown",
		});
	});

	it("a candidate on Socket.IO and an observer on the plain WebSocket see the same updates, and the other way round", async () => {
		// Socket.IO candidate, plain observer.
		const a = await createInterview();
		const plain = new WebSocket(
			`${WS_URL}/interview/${a.id}/?token=${encodeURIComponent(service.keys.test)}`,
		);
		const plainSeen: Update[] = [];
		plain.addEventListener("message", (e) => {
			const { type, ...m } = JSON.parse(String(e.data));
			if (type === "interview_update") plainSeen.push(m);
		});
		await until(() => plainSeen.length > 0);
		const { seen } = candidateSnippet(a.id, a.token, { transports: ["websocket"] });
		await until(() => completed(seen.updates) && completed(plainSeen));
		sameAfterJoin(seen.updates, plainSeen);
		plain.close();

		// Plain candidate, Socket.IO observer.
		const b = await createInterview();
		const observer = io(`${WS_URL}/interview/${b.id}/`, { auth: { token: service.keys.test } });
		sockets.push(observer);
		const watched: Update[] = [];
		observer.on("interview_update", (u) => watched.push(u));
		await until(() => watched.length > 0);
		const candidate = new WebSocket(`${WS_URL}/interview/${b.id}/?token=${encodeURIComponent(b.token)}`);
		const candidateSeen: Update[] = [];
		candidate.addEventListener("message", (e) => {
			const { type, ...m } = JSON.parse(String(e.data));
			if (type === "interview_update") candidateSeen.push(m);
			if (type === "question")
				candidate.send(
					JSON.stringify({
						type: "candidate_response",
						session_id: b.id,
						question_id: m.question.id,
						response: "Plainly answered.",
						timestamp: new Date().toISOString(),
					}),
				);
		});
		await until(() => completed(candidateSeen) && completed(watched));
		sameAfterJoin(candidateSeen, watched);
		candidate.close();
	});
});
