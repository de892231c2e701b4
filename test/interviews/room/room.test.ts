import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LINK_REPLACED_CLOSE, OBSERVER_KEY_CLOSE } from "../../../src/interviews/object/interview-object";
import { interviewStub } from "../../../src/interviews/stub";
import { admin, call, newAccount } from "../../support/helpers";
import {
	createInterview,
	eventsOf,
	fireAlarmAt,
	startInterview,
	stubOf,
} from "../../support/lifecycle-helpers";
import { setLimits } from "../../support/limits-helpers";
import { answerAll, connect, strongAnswerFor } from "../../support/room-helpers";

async function analyze(id: string) {
	const state = await interviewStub(env, id).get();
	await fireAlarmAt(id, (state?.completedAt ?? Date.now()) + 3_000);
}

describe("the live interview over the WebSocket", () => {
	it("runs a whole interview: join, every question, completion, analysis, and the API shows it all", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.live, {
			duration_minutes: 15,
			skills: ["SQL", "Python"],
		});
		const { status, requestId, room } = await connect(id, token);
		expect(status).toBe(101);
		expect(requestId).toMatch(/^req_[0-9A-Za-z]{24}$/);
		const update = await room!.next((m) => m.type === "interview_update");
		expect(update.interview).toMatchObject({ id, status: "in_progress", waiting: false });
		const first = await room!.next((m) => m.type === "question");
		expect(first.question).toMatchObject({ index: 0, total: expect.any(Number) });
		expect(Object.keys(first.question).sort()).toEqual([
			"difficulty",
			"id",
			"index",
			"skill",
			"text",
			"total",
		]);

		const { answers } = await answerAll(id, room!, strongAnswerFor);
		expect(answers.length).toBe(first.question.total);
		await room!.next((m) => m.type === "interview_update" && m.interview.status === "completed");
		const seqs = room!.messages.map((m) => m.seq);
		expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);

		await analyze(id);
		const res = await call("GET", `/v1/interviews/${id}?include_results=true&include_transcript=true`, {
			key: account.live,
		});
		const data = res.body.data;
		expect(data.status).toBe("completed");
		expect(data.results).toMatchObject({
			overall_score: expect.any(Number),
			recommendation: expect.stringMatching(/^(hire|maybe|no_hire)$/),
		});
		expect(data.results.skill_assessments.map((s: any) => s.skill).sort()).toEqual(["Python", "SQL"]);
		expect(data.analytics.question_difficulty_progression).toHaveLength(answers.length);
		expect(data.transcript.map((t: any) => t.answer)).toEqual(answers);
		expect(data.transcript.every((t: any) => typeof t.score === "number")).toBe(true);
		expect(data.candidate.joined_at).not.toBeNull();
		expect(data.duration.actual_minutes).toBeGreaterThanOrEqual(1);
		const types = (await eventsOf(id)).map((e) => e.type);
		expect(types).toEqual([
			"interview.scheduled",
			"candidate.joined",
			"interview.started",
			"interview.completed",
			"results.analyzed",
			"analysis.ready",
		]);
		expect((await eventsOf(id)).find((e) => e.type === "interview.completed")?.data.completion_reason).toBe(
			"questions_answered",
		);
	});

	it("scores strong answers above empty and off-topic ones for the same questions", async () => {
		const account = await newAccount();
		const scores: Record<string, number> = {};
		for (const [label, answer] of [
			["strong", strongAnswerFor],
			["off-topic", async () => "I enjoy hiking on weekends and my favourite food is pasta."],
			["empty", async () => "."],
		] as const) {
			const { id, token } = await createInterview(account.live, { duration_minutes: 15, skills: ["SQL"] });
			const { room } = await connect(id, token);
			await room!.next((m) => m.type === "question");
			await answerAll(id, room!, answer);
			await analyze(id);
			const res = await call("GET", `/v1/interviews/${id}?include_results=true`, { key: account.live });
			scores[label] = res.body.data.results.overall_score;
		}
		expect(scores.strong).toBeGreaterThan((scores["off-topic"] ?? 0) + 30);
		expect(scores.strong).toBeGreaterThan((scores.empty ?? 0) + 30);
	});

	it("loses nothing when the object is evicted mid-interview: the candidate reconnects, resyncs and continues", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.live, { duration_minutes: 15, skills: ["Go"] });
		const { room } = await connect(id, token);
		const q1 = await room!.next((m) => m.type === "question");
		room!.send({
			type: "candidate_response",
			session_id: id,
			question_id: q1.question.id,
			// The spaces and line break around it are not kept.
			response: "  Goroutines and channels with select\n",
			timestamp: new Date().toISOString(),
		});
		const q2 = await room!.next((m) => m.type === "question" && m.question.id !== q1.question.id);
		const lastSeq = Math.max(...room!.messages.map((m) => m.seq));
		room!.close();

		await evictDurableObject(stubOf(id));
		const again = await connect(id, token);
		expect(again.status).toBe(101);
		const resent = await again.room!.next((m) => m.type === "question");
		expect(resent.question.id).toBe(q2.question.id);
		// A new instance continues the sequence after every number the last one handed out.
		expect(resent.seq).toBeGreaterThan(lastSeq);
		again.room!.send({ type: "resync", after_seq: 0 });
		await again.room!.next((m) => m.type === "question" && m.seq <= lastSeq);
		await answerAll(id, again.room!, async () => "Interfaces, error wrapping and context cancellation");
		await analyze(id);
		const res = await call("GET", `/v1/interviews/${id}?include_transcript=true`, { key: account.live });
		expect(res.body.data.transcript[0].answer).toBe("Goroutines and channels with select");
		expect(res.body.data.transcript.every((t: any) => t.answer !== null)).toBe(true);
	});

	it("sends observers every update in order, and refuses their attempts to answer", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.live, { duration_minutes: 15, skills: ["SQL"] });
		const observer = await connect(id, account.live);
		expect(observer.status).toBe(101);
		const initial = await observer.room!.next((m) => m.type === "interview_update");
		expect(initial.interview.status).toBe("scheduled");
		const { room } = await connect(id, token);
		await room!.next((m) => m.type === "question");
		await answerAll(id, room!, async () => "Joins, indexes and transactions");
		await observer.room!.next((m) => m.type === "interview_update" && m.interview.status === "completed");
		const seen = observer.room!.messages.map((m) => m.seq);
		expect(seen).toEqual([...seen].sort((a, b) => a - b));
		const asked = (await interviewStub(env, id).get())?.transcript.map((t) => t.question.id);
		const observed = observer.room!.messages.filter((m) => m.type === "question").map((m) => m.question.id);
		expect(observed).toEqual(asked);
		const statuses = observer
			.room!.messages.filter((m) => m.type === "interview_update")
			.map((m) => m.interview.status);
		expect(statuses[0]).toBe("scheduled");
		expect(statuses).toContain("in_progress");
		expect(statuses.at(-1)).toBe("completed");
		observer.room!.send({ type: "end_interview" });
		const refused = await observer.room!.next((m) => m.type === "error");
		expect(refused.code).toBe("FORBIDDEN");
	});

	it("closes an observer's connection once its key is revoked or has expired", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.live);
		const issued = async (extra: Record<string, unknown> = {}) =>
			(
				await admin("POST", `/accounts/${account.id}/keys`, {
					name: "observer",
					environment: "live",
					...extra,
				})
			).body.data as { id: string; key: string };
		const revoked = await issued();
		const expiring = await issued({ expires_at: new Date(Date.now() + 3_600_000).toISOString() });
		const kept = await issued();
		const watchers = await Promise.all([revoked, expiring, kept].map((k) => connect(id, k.key)));
		for (const w of watchers) await w.room!.next((m) => m.type === "interview_update");
		const codes = watchers.map(
			(w) => new Promise<number>((resolve) => w.room!.ws.addEventListener("close", (e) => resolve(e.code))),
		);
		expect((await admin("DELETE", `/accounts/${account.id}/keys/${revoked.id}`)).status).toBe(200);
		// As if the last lookup were long ago, and two hours later: the expiring key has expired.
		await runInDurableObject(stubOf(id), (instance) => {
			const object = instance as unknown as { room: { observerKeysCheckedAt: number }; clock: () => number };
			object.room.observerKeysCheckedAt = 0;
			object.clock = () => Date.now() + 2 * 3_600_000;
		});
		const patched = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { company_name: "Globex" },
		});
		expect(patched.status).toBe(200);
		expect(await codes[0]).toBe(OBSERVER_KEY_CLOSE);
		expect(await codes[1]).toBe(OBSERVER_KEY_CLOSE);
		// The valid key's connection stays and gets the next update.
		const from = watchers[2]!.room!.messages.length;
		await call("PATCH", `/v1/interviews/${id}`, { key: account.live, body: { company_name: "Initech" } });
		const next = await watchers[2]!.room!.next((m) => m.type === "interview_update", { from });
		expect(next.interview.company_name).toBe("Initech");
	});

	it("forgets a connection once it closes and goes on with the others", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.live, { duration_minutes: 15 });
		const watcher = await connect(id, account.live);
		await watcher.room!.next((m) => m.type === "interview_update");
		const { room } = await connect(id, token);
		const q = await room!.next((m) => m.type === "question");
		const roles = () =>
			runInDurableObject(stubOf(id), (instance) =>
				[
					...(instance as unknown as { room: { sockets: Map<unknown, string> } }).room.sockets.values(),
				].sort(),
			);
		expect(await roles()).toEqual(["candidate", "observer"]);
		watcher.room!.close();
		for (let i = 0; i < 50 && (await roles()).length > 1; i++) await new Promise((r) => setTimeout(r, 20));
		expect(await roles()).toEqual(["candidate"]);
		const from = room!.messages.length;
		room!.send({
			type: "candidate_response",
			session_id: id,
			question_id: q.question.id,
			response: "Indexes and query plans",
			timestamp: new Date().toISOString(),
		});
		await room!.next((m) => m.type === "question" && m.question.id !== q.question.id, { from });
	});

	it("refuses before the upgrade: missing or wrong token, another interview's token, unknown, too early, closed", async () => {
		const account = await newAccount();
		const a = await createInterview(account.live);
		const b = await createInterview(account.live);
		const other = await newAccount();
		const later = await createInterview(account.live, {
			scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
		});
		const cancelled = await createInterview(account.live);
		await call("DELETE", `/v1/interviews/${cancelled.id}`, { key: account.live });

		const cases: [string, string, number, string][] = [
			[a.id, "", 401, "AUTHENTICATION_REQUIRED"],
			[a.id, "wrong-token", 401, "INVALID_TOKEN"],
			[a.id, b.token, 401, "INVALID_TOKEN"],
			[a.id, other.live, 404, "INTERVIEW_NOT_FOUND"],
			["int_AAAAAAAAAAAAAAAAAAAAAAAA", a.token, 404, "INTERVIEW_NOT_FOUND"],
			[later.id, later.token, 403, "INTERVIEW_NOT_OPEN"],
			[cancelled.id, cancelled.token, 409, "INVALID_OPERATION"],
		];
		for (const [id, token, status, code] of cases) {
			const res = await connect(id, token);
			expect([id === a.id ? "a" : id, res.status, res.body?.error?.code]).toEqual([
				id === a.id ? "a" : id,
				status,
				code,
			]);
		}
		// Another account's key is told exactly what an unknown id is: the interview is not there.
		const foreign = await connect(a.id, other.live);
		const unknown = await connect("int_AAAAAAAAAAAAAAAAAAAAAAAA", other.live);
		expect(foreign.body.error).toEqual({
			code: "INTERVIEW_NOT_FOUND",
			message: `No interview with id '${a.id}' exists.`,
			details: { id: a.id },
		});
		expect(unknown.body.error).toEqual({
			code: "INTERVIEW_NOT_FOUND",
			message: "No interview with id 'int_AAAAAAAAAAAAAAAAAAAAAAAA' exists.",
			details: { id: "int_AAAAAAAAAAAAAAAAAAAAAAAA" },
		});
		const reader = await account.key("live", { permissions: ["interviews:write"] });
		expect((await connect(a.id, reader)).status).toBe(403);
		const observerOfCancelled = await connect(cancelled.id, account.live);
		expect(observerOfCancelled.status).toBe(101);
	});

	it("takes back a test interview's candidate after the helper started it days before its time", async () => {
		const account = await newAccount();
		const later = await createInterview(account.test, {
			scheduled_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
		});
		const advanced = await call("POST", `/v1/interviews/${later.id}/test/advance`, {
			key: account.test,
			body: { to: "in_progress" },
		});
		expect(advanced.status).toBe(200);
		const res = await connect(later.id, later.token);
		expect(res.status).toBe(101);
		res.room?.close();
	});

	it("answers bad frames with an error frame and keeps the connection", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.live, { duration_minutes: 15 });
		const { room } = await connect(id, token);
		const q = await room!.next((m) => m.type === "question");
		// The keepalive is answered as is, outside the numbering: the next message's seq follows on.
		const seqBefore = Math.max(...room!.messages.map((m) => m.seq));
		room!.ws.send("ping");
		await room!.next((m) => m.type === "pong");
		room!.ws.send("not json");
		const bad = await room!.next((m) => m.type === "error");
		expect(bad.code).toBe("BAD_MESSAGE");
		expect(bad.seq).toBe(seqBefore + 1);
		const from = room!.messages.length;
		room!.send({ type: "shout" });
		expect((await room!.next((m) => m.type === "error", { from })).code).toBe("BAD_MESSAGE");
		const from2 = room!.messages.length;
		room!.send({
			type: "candidate_response",
			session_id: id,
			question_id: "q_nope",
			response: "x",
			timestamp: new Date().toISOString(),
		});
		expect((await room!.next((m) => m.type === "error", { from: from2 })).code).toBe("STALE_QUESTION");
		const from3 = room!.messages.length;
		room!.send({
			type: "candidate_response",
			session_id: id,
			question_id: q.question.id,
			response: "Indexes",
			timestamp: new Date().toISOString(),
		});
		await room!.next((m) => m.type === "question" && m.question.id !== q.question.id, { from: from3 });
	});

	it("ends the interview when the candidate asks to", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.live);
		const { room } = await connect(id, token);
		await room!.next((m) => m.type === "question");
		room!.send({ type: "end_interview" });
		await room!.next((m) => m.type === "interview_update" && m.interview.status === "completed");
		expect((await eventsOf(id)).find((e) => e.type === "interview.completed")?.data.completion_reason).toBe(
			"candidate_ended",
		);
	});
});

describe("the candidate's steps in order", () => {
	it("records an answer still being scored before an end_interview sent right after it", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.live);
		const { room } = await connect(id, token);
		const q = await room!.next((m) => m.type === "question");
		// Scoring takes a while, as a model call does.
		await runInDurableObject(stubOf(id), (instance) => {
			const interviewer = (instance as unknown as { interviewer: Record<string, unknown> }).interviewer;
			const real = (interviewer.scoreAnswer as (...args: unknown[]) => unknown).bind(interviewer);
			interviewer.scoreAnswer = async (...args: unknown[]) => {
				await new Promise((resolve) => setTimeout(resolve, 300));
				return real(...args);
			};
		});
		room!.send({
			type: "candidate_response",
			session_id: id,
			question_id: q.question.id,
			response: "An index is a B-tree kept in key order, so lookups and range scans avoid a full table scan.",
			timestamp: new Date().toISOString(),
		});
		room!.send({ type: "end_interview" });
		await room!.next((m) => m.type === "interview_update" && m.interview.status === "completed", {
			ms: 5000,
		});
		const fetched = await call("GET", `/v1/interviews/${id}?include_transcript=true`, { key: account.live });
		const transcript = fetched.body.data.transcript as { answer: string | null; score: number | null }[];
		expect(transcript[0]?.answer).toContain("B-tree");
		expect(transcript[0]?.score).not.toBeNull();
	});
});

describe("the room's protocol at its edges", () => {
	it("refuses a repeated answer, another session's answer, binary and oversize frames, each with an error frame", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.live, { duration_minutes: 15 });
		const { room } = await connect(id, token);
		const first = await room!.next((m) => m.type === "question");
		const answer = (question_id: string, response: string, session_id = id) =>
			room!.send({
				type: "candidate_response",
				session_id,
				question_id,
				response,
				timestamp: new Date().toISOString(),
			});
		const errorAfter = async (act: () => void) => {
			const from = room!.messages.length;
			act();
			return room!.next((m) => m.type === "error", { from });
		};

		expect(
			(await errorAfter(() => answer(first.question.id, "x", "int_AAAAAAAAAAAAAAAAAAAAAAAA"))).code,
		).toBe("WRONG_SESSION");
		const long = await errorAfter(() => answer(first.question.id, "y".repeat(20_001)));
		expect([long.code, long.message]).toEqual(["BAD_MESSAGE", expect.stringContaining("response")]);
		expect((await errorAfter(() => room!.ws.send(new Uint8Array([0xff, 0x00, 0x7b])))).code).toBe(
			"BAD_MESSAGE",
		);
		// A binary frame is read as UTF-8 text: its JSON is checked like a text frame's.
		const shout = await errorAfter(() => room!.ws.send(new TextEncoder().encode('{"type":"shout"}')));
		expect([shout.code, shout.message]).toEqual([
			"BAD_MESSAGE",
			'Not a valid message: type: Must be one of "candidate_response", "end_interview", "resync".',
		]);

		const from = room!.messages.length;
		answer(first.question.id, "Use an index and check the plan.");
		await room!.next((m) => m.type === "question" && m.question.id !== first.question.id, { from });
		const repeated = await errorAfter(() => answer(first.question.id, "Again."));
		expect([repeated.code, repeated.message]).toEqual([
			"STALE_QUESTION",
			"That question has already been answered.",
		]);
		// None of it was recorded as an answer.
		const state = await interviewStub(env, id).get();
		expect(state?.transcript.filter((e) => e.answer !== null).map((e) => e.answer)).toEqual([
			"Use an index and check the plan.",
		]);
	});

	it("replays exactly the broadcasts after the seq a client names, without error frames", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.live, { duration_minutes: 15 });
		const { room } = await connect(id, token);
		const q1 = await room!.next((m) => m.type === "question");
		room!.ws.send("not json");
		await room!.next((m) => m.type === "error");
		const cut = Math.max(...room!.messages.map((m) => m.seq ?? 0));
		let from = room!.messages.length;
		room!.send({
			type: "candidate_response",
			session_id: id,
			question_id: q1.question.id,
			response: "Indexes and plans.",
			timestamp: new Date().toISOString(),
		});
		const q2 = await room!.next((m) => m.type === "question" && m.question.id !== q1.question.id, { from });
		const broadcastAfterCut = room!.messages.filter(
			(m) => m.type !== "error" && m.type !== "pong" && m.seq > cut,
		);
		expect(broadcastAfterCut.length).toBeGreaterThan(0);

		// An observer that missed all of it asks for what came after `cut`.
		const observer = await connect(id, account.live);
		// Its connection starts with a snapshot of its own (newly numbered, not replayed).
		await observer.room!.next((m) => m.type === "question");
		from = observer.room!.messages.length;
		observer.room!.send({ type: "resync", after_seq: cut });
		await observer.room!.next(
			(m) => m.type === "question" && m.question.id === q2.question.id && m.seq > cut,
			{ from },
		);
		await new Promise((resolve) => setTimeout(resolve, 200));
		const replayed = observer.room!.messages.slice(from);
		expect(replayed.map((m) => m.seq)).toEqual(broadcastAfterCut.map((m) => m.seq));
		expect(replayed).toEqual(broadcastAfterCut);
	});

	it("refuses the candidate of a completed interview before the upgrade and lets an observer in", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.live);
		const { room } = await connect(id, token);
		await room!.next((m) => m.type === "question");
		room!.send({ type: "end_interview" });
		await room!.next((m) => m.type === "interview_update" && m.interview.status === "completed");
		room!.close();
		const again = await connect(id, token);
		expect([again.status, again.body?.error?.code]).toEqual([409, "INVALID_OPERATION"]);
		const observer = await connect(id, account.live);
		expect(observer.status).toBe(101);
		const update = await observer.room!.next((m) => m.type === "interview_update");
		expect(update.interview.status).toBe("completed");
	});
});

describe("the room around its time and its slot", () => {
	it("shows the end by elapsed duration to the connected candidate, keeps the open question unanswered, and refuses a late answer", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.live, { duration_minutes: 15 });
		const { room } = await connect(id, token);
		const q = await room!.next((m) => m.type === "question");
		const startedAt = (await interviewStub(env, id).get())?.startedAt ?? 0;
		await fireAlarmAt(id, startedAt + 15 * 60_000);
		const done = await room!.next((m) => m.type === "interview_update" && m.interview.status === "completed");
		expect(done.interview.current_question).toBeNull();
		const from = room!.messages.length;
		room!.send({
			type: "candidate_response",
			session_id: id,
			question_id: q.question.id,
			response: "Too late.",
			timestamp: new Date().toISOString(),
		});
		const late = await room!.next((m) => m.type === "error", { from });
		expect(late.code).toBe("INVALID_OPERATION");
		// The refusal says why, as the refusal before the upgrade does.
		expect(late.message).toBe("The interview is completed.");
		const state = await interviewStub(env, id).get();
		expect(state?.transcript.map((e) => e.answer)).toEqual([null]);
		expect((await eventsOf(id)).find((e) => e.type === "interview.completed")?.data.completion_reason).toBe(
			"duration_elapsed",
		);
	});

	it("keeps a waiting candidate's answers and end request out until a slot frees, then starts", async () => {
		const account = await newAccount();
		await setLimits(account.id, { concurrent_interviews: 1 });
		const holder = await startInterview(account.live);
		const { id, token } = await createInterview(account.live);
		const { room } = await connect(id, token);
		const waiting = await room!.next((m) => m.type === "interview_update");
		expect(waiting.interview).toMatchObject({ status: "scheduled", waiting: true, current_question: null });
		for (const message of [
			{ type: "end_interview" },
			{
				type: "candidate_response",
				session_id: id,
				question_id: "q_x",
				response: "Early.",
				timestamp: new Date().toISOString(),
			},
		]) {
			const from = room!.messages.length;
			room!.send(message);
			expect((await room!.next((m) => m.type === "error", { from })).code).toBe("INVALID_OPERATION");
		}
		expect((await interviewStub(env, id).get())?.status).toBe("scheduled");
		await interviewStub(env, holder.id).finish("candidate_ended", Date.now());
		await room!.next((m) => m.type === "question");
		expect((await interviewStub(env, id).get())?.status).toBe("in_progress");
	});

	it("closes a waiting candidate's connection when the candidate's address changes; the new candidate joins anew", async () => {
		const account = await newAccount();
		await setLimits(account.id, { concurrent_interviews: 1 });
		const holder = await startInterview(account.live);
		const { id, token } = await createInterview(account.live);
		const { room: old } = await connect(id, token);
		await old!.next((m) => m.type === "interview_update" && m.interview.waiting === true);
		const closed = new Promise<number>((resolve) =>
			old!.ws.addEventListener("close", (e) => resolve(e.code)),
		);

		const patched = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.live,
			body: { candidate_email: "someone.else@example.com", send_notification: false },
		});
		expect(patched.status).toBe(200);
		expect(await closed).toBe(LINK_REPLACED_CLOSE);
		const fetched = await call("GET", `/v1/interviews/${id}`, { key: account.live });
		expect(fetched.body.data.candidate.joined_at).toBeNull();
		// The old link joins nothing any more.
		const refused = await connect(id, token);
		expect(refused.status).toBe(401);
		expect(refused.body.error.code).toBe("INVALID_TOKEN");

		// The new candidate's first connection is a join of its own, and it starts when the slot frees.
		const state = await interviewStub(env, id).get();
		const { room: fresh } = await connect(id, state!.joinToken);
		await fresh!.next((m) => m.type === "interview_update" && m.interview.waiting === true);
		const joins = (await eventsOf(id)).filter((e) => e.type === "candidate.joined");
		expect(joins.map((e) => e.data.candidate.email)).toEqual([
			expect.not.stringMatching(/^someone\.else@/),
			"someone.else@example.com",
		]);
		await interviewStub(env, holder.id).finish("candidate_ended", Date.now());
		await fresh!.next((m) => m.type === "question");
		expect(old!.messages.some((m) => m.type === "question")).toBe(false);
	});
});
