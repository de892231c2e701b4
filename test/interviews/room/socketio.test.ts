import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { resetStrangerLimit, STRANGER_LIMIT } from "../../../src/interviews/room/stranger-limit";
import { interviewStub } from "../../../src/interviews/stub";
import type { SocketIoSession } from "../../../src/worker";
import { dashboardAccount, signedIn } from "../../support/dashboard-helpers";
import { BASE, call, newAccount, validInterview } from "../../support/helpers";
import { createInterview } from "../../support/lifecycle-helpers";

// The session object in workerd, spoken to over long-polling exactly as socket.io-client does
// (the end-to-end suite drives it with the real client): handshake, namespace, events, acks,
// heartbeat, and nothing left in storage once the session ends.
const ENGINE = `${BASE}/socket.io/?EIO=4&transport=polling`;

async function handshake(address?: string): Promise<string> {
	const init = address ? { headers: { "CF-Connecting-IP": address } } : {};
	const body = await (await exports.default.fetch(ENGINE, init)).text();
	expect(body.startsWith("0{")).toBe(true);
	return JSON.parse(body.slice(1)).sid;
}

async function post(sid: string, ...packets: string[]) {
	const res = await exports.default.fetch(`${ENGINE}&sid=${sid}`, {
		method: "POST",
		body: packets.join("\x1e"),
	});
	expect(res.status).toBe(200);
	await res.text();
}

/** Polls until `want` packets have arrived (each poll returns what is waiting). */
async function poll(sid: string, want: number): Promise<string[]> {
	const packets: string[] = [];
	for (let i = 0; i < 20 && packets.length < want; i++) {
		const res = await exports.default.fetch(`${ENGINE}&sid=${sid}`);
		expect(res.status).toBe(200);
		packets.push(...(await res.text()).split("\x1e"));
	}
	return packets;
}

/** A new session with the interview's namespace connected, its first update and question read. */
async function joined(nsp: string, token: string): Promise<string> {
	const sid = await handshake();
	await post(sid, `40${nsp},${JSON.stringify({ token })}`);
	await poll(sid, 3);
	return sid;
}

const stubOf = (sid: string) => env.SOCKET_IO.get(env.SOCKET_IO.idFromName(sid));

describe("the Socket.IO session object", () => {
	it("connects an interview namespace with the join token, relays events and acknowledges an answer", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.test);
		const sid = await handshake();
		const nsp = `/interview/${id}/`;
		await post(sid, `40${nsp},${JSON.stringify({ token })}`);
		const [connected, update, question] = await poll(sid, 3);
		expect(connected).toMatch(new RegExp(`^40${nsp},\\{"sid":"[0-9A-Za-z]{20}"\\}$`));
		expect(update?.startsWith(`42${nsp},`)).toBe(true);
		const [name, payload] = JSON.parse((update as string).slice(`42${nsp},`.length));
		expect(name).toBe("interview_update");
		expect(Object.keys(payload).sort()).toEqual(["interview", "seq"]);
		expect(payload.interview).toMatchObject({ id, status: "in_progress" });
		const shown = JSON.parse((question as string).slice(`42${nsp},`.length));
		expect(shown[0]).toBe("question");
		expect(shown[1].question.index).toBe(0);

		// The contract's payload: no question_id (the question shown), ack id 7.
		const answer = {
			session_id: id,
			response: "Index the join columns.",
			timestamp: new Date().toISOString(),
		};
		await post(sid, `42${nsp},7${JSON.stringify(["candidate_response", answer])}`);
		const next = await poll(sid, 3);
		expect(next).toContain(`43${nsp},7[{"ok":true}]`);
		const state = await interviewStub(env, id).get();
		expect(state?.transcript[0]?.answer).toBe("Index the join columns.");
		expect(state?.currentQuestion?.id).not.toBe(shown[1].question.id);

		// The same answer twice in one body, without question_id: both answer the question shown
		// when they arrived, so the repeat (its timestamp and text the recorded answer's) is
		// refused, with an error event and in its ack.
		const again = { ...answer, response: "Then a covering index." };
		const twice = JSON.stringify(["candidate_response", again]);
		await post(sid, `42${nsp},8${twice}`, `42${nsp},9${twice}`);
		const replies = await poll(sid, 5);
		expect(replies).toContain(`43${nsp},8[{"ok":true}]`);
		const refusal = replies.find((p) => p.startsWith(`43${nsp},9`));
		expect(JSON.parse((refusal as string).slice(`43${nsp},9`.length))).toEqual([
			{ ok: false, error: { code: "STALE_QUESTION", message: "That answer has already been recorded." } },
		]);
		expect(replies.some((p) => p.startsWith(`42${nsp},["error",`) && p.includes("STALE_QUESTION"))).toBe(
			true,
		);
		const after = await interviewStub(env, id).get();
		expect(after?.transcript.map((e) => e.answer).slice(0, 2)).toEqual([answer.response, again.response]);

		// An answer without an ack, then its repeat with one: the repeat waits for the first
		// answer's outcome, so its ack is the refusal, not the first answer's update.
		const third = JSON.stringify(["candidate_response", { ...answer, response: "Third." }]);
		await post(sid, `42${nsp},${third}`, `42${nsp},10${third}`);
		const more = await poll(sid, 4);
		expect(more.find((p) => p.startsWith(`43${nsp},10`))).toContain('"code":"STALE_QUESTION"');
		expect((await interviewStub(env, id).get())?.transcript[2]?.answer).toBe("Third.");

		// The client closes: the session's storage is gone.
		await post(sid, "1");
		const res = await exports.default.fetch(`${ENGINE}&sid=${sid}`);
		expect(res.status).toBe(400);
		expect(await res.json()).toEqual({ code: 1, message: "Session ID unknown" });
		await runInDurableObject(stubOf(sid), async (_instance, ctx) => {
			expect(await ctx.storage.list()).toEqual(new Map());
			expect(await ctx.storage.getAlarm()).toBeNull();
		});
	});

	it("refuses an answer a client sends again on a new session (its retry after a reconnect), instead of recording it against the next question", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.test);
		const nsp = `/interview/${id}/`;
		const answer = JSON.stringify([
			"candidate_response",
			{ session_id: id, response: "Index the join columns.", timestamp: new Date().toISOString() },
		]);
		const first = await joined(nsp, token);
		await post(first, `42${nsp},7${answer}`);
		expect(await poll(first, 3)).toContain(`43${nsp},7[{"ok":true}]`);
		// The connection drops; the client reconnects on a new session and sends its pending
		// event again, unchanged: without question_id, it would answer the question now shown.
		await post(first, "1");
		const second = await joined(nsp, token);
		await post(second, `42${nsp},8${answer}`);
		const replies = await poll(second, 2);
		const refusal = replies.find((p) => p.startsWith(`43${nsp},8`));
		expect(JSON.parse((refusal as string).slice(`43${nsp},8`.length))).toEqual([
			{ ok: false, error: { code: "STALE_QUESTION", message: "That answer has already been recorded." } },
		]);
		const state = await interviewStub(env, id).get();
		expect(state?.transcript.map((e) => e.answer)).toEqual(["Index the join columns.", null]);
		await post(second, "1");
	});

	it("refuses a namespace with the room's refusal as CONNECT_ERROR, and other namespaces", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.test);
		const sid = await handshake();
		await post(
			sid,
			`40/interview/${id},{"token":"wrong"}`,
			`40/interview/int_000000000000000000000000/,{"token":"${account.test}"}`,
			"40/chat,",
		);
		const packets = await poll(sid, 3);
		expect(packets).toContainEqual(
			`44/interview/${id},${JSON.stringify({
				message: "The join link's token is missing or wrong.",
				data: { code: "INVALID_TOKEN", message: "The join link's token is missing or wrong." },
			})}`,
		);
		expect(
			packets.some(
				(p) =>
					p.startsWith('44/interview/int_000000000000000000000000/,{"message"') &&
					p.includes('"code":"INTERVIEW_NOT_FOUND"'),
			),
		).toBe(true);
		expect(packets.some((p) => p.startsWith("44/chat,") && p.includes('"code":"NOT_FOUND"'))).toBe(true);
		// A namespace whose id is not valid percent-encoding is refused the same way.
		await post(sid, "40/interview/%ZZ/,{}", "40/interview/%E0%A4%A,{}");
		const malformed = await poll(sid, 2);
		expect(malformed.filter((p) => p.includes('"code":"NOT_FOUND"')).map((p) => p.split(",")[0])).toEqual([
			"44/interview/%ZZ/",
			"44/interview/%E0%A4%A",
		]);
	});

	it("counts a namespace's refusals against the client's own address, not one shared by every session", async () => {
		resetStrangerLimit();
		const account = await newAccount();
		const { id, token } = await createInterview(account.test);
		const nsp = `/interview/${id}/`;
		// One address is refused past its limit, a namespace at a time (at most 8 open at once).
		const stranger = await handshake("198.51.100.7");
		const refusals: string[] = [];
		for (let i = 0; i < STRANGER_LIMIT + 2; i++) {
			await post(stranger, `40${nsp},{"token":"wrong"}`);
			refusals.push(...(await poll(stranger, 1)));
		}
		expect(refusals.filter((p) => p.includes('"code":"INVALID_TOKEN"'))).toHaveLength(STRANGER_LIMIT);
		expect(refusals.filter((p) => p.includes('"code":"RATE_LIMIT_EXCEEDED"'))).toHaveLength(2);
		// A candidate from another address joins; the stranger cannot, even with the right token.
		const candidate = await handshake("192.0.2.44");
		await post(candidate, `40${nsp},${JSON.stringify({ token })}`);
		const [joined] = await poll(candidate, 1);
		expect(joined?.startsWith(`40${nsp},{"sid":`)).toBe(true);
		await post(stranger, `40${nsp},${JSON.stringify({ token })}`);
		const [refused] = await poll(stranger, 1);
		expect(refused).toContain('"code":"RATE_LIMIT_EXCEEDED"');
		await post(candidate, "1");
		await post(stranger, "1");
		resetStrangerLimit();
	});

	it("ends a live view's namespace with DISCONNECT when its dashboard session signs out, and keeps the session", async () => {
		const a = await dashboardAccount();
		const created = await call("POST", "/v1/interviews", { key: a.test, body: validInterview() });
		const id = created.body.data.id as string;
		const browser = await signedIn(a.owner);
		const issued = await browser.post(`/dashboard/interviews/${id}/live-ticket`, {
			_csrf: await browser.csrf(),
		});
		expect(issued.status).toBe(200);
		const ticket = new URL(JSON.parse(issued.text).url).searchParams.get("token") as string;
		const sid = await handshake();
		const nsp = `/interview/${id}/`;
		await post(sid, `40${nsp},${JSON.stringify({ token: ticket })}`);
		const [connected] = await poll(sid, 2);
		expect(connected?.startsWith(`40${nsp},{"sid":`)).toBe(true);

		expect((await browser.post("/dashboard/logout", { _csrf: await browser.csrf() })).status).toBe(303);
		// The room closed the view (4003): the namespace ends for good, as for 4001 and 4002, so
		// the client does not reconnect with a spent ticket; the Engine.IO session stays.
		const after = await poll(sid, 1);
		expect(after.filter((p) => p.startsWith(`41${nsp}`))).toEqual([`41${nsp},`]);
		await post(sid, "40/chat,");
		const refused = await poll(sid, 1);
		expect(refused.some((p) => p.startsWith("44/chat,"))).toBe(true);
		await post(sid, "1");
	}, 30_000);

	it("puts a binary event's attachment in place, and ends a session on bytes no packet waits for or on more than 10", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.test);
		const nsp = `/interview/${id}/`;
		const sid = await joined(nsp, token);
		// `51-` announces one attachment; `b` carries it, base64 over long-polling.
		await post(sid, `451-${nsp},7["candidate_response",{"_placeholder":true,"num":0}]`, "bAQID");
		const answered = (await poll(sid, 2)).find((p) => p.startsWith(`43${nsp},7`));
		expect(answered && JSON.parse(answered.slice(`43${nsp},7`.length))).toEqual([
			{ ok: false, error: { code: "BAD_MESSAGE", message: "Messages must be JSON objects." } },
		]);
		// Bytes with no binary packet waiting for them: the packet is broken, so is the session.
		await post(sid, "bAQID");
		expect((await exports.default.fetch(`${ENGINE}&sid=${sid}`)).status).toBe(400);
		const other = await joined(nsp, token);
		await post(other, `4511-${nsp},["candidate_response",{"_placeholder":true,"num":0}]`);
		expect((await exports.default.fetch(`${ENGINE}&sid=${other}`)).status).toBe(400);
	});

	it("pings from its alarm and ends the session when the pong is overdue", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.test);
		const sid = await joined(`/interview/${id}/`, token);
		const stub = stubOf(sid);
		// The first alarm is the first ping (a pong would clear it).
		await runInDurableObject(stub, (instance: SocketIoSession) => {
			instance.clock = () => Date.now() + 25_000;
		});
		expect(await runDurableObjectAlarm(stub)).toBe(true);
		expect(await poll(sid, 1)).toEqual(["2"]);
		await post(sid, "3");
		// Answered: the next alarm schedules the next ping instead of closing.
		expect(await runDurableObjectAlarm(stub)).toBe(true);
		await runInDurableObject(stub, async (instance: SocketIoSession, ctx) => {
			expect(await ctx.storage.getAlarm()).toBeGreaterThan(Date.now() + 20_000);
			instance.clock = () => Date.now() + 50_000;
		});
		expect(await runDurableObjectAlarm(stub)).toBe(true);
		expect(await poll(sid, 1)).toEqual(["2"]);
		// No pong this time: past pingTimeout the session ends.
		await runInDurableObject(stub, (instance: SocketIoSession) => {
			instance.clock = () => Date.now() + 75_000;
		});
		expect(await runDurableObjectAlarm(stub)).toBe(true);
		expect((await exports.default.fetch(`${ENGINE}&sid=${sid}`)).status).toBe(400);
		await runInDurableObject(stub, async (_instance, ctx) => {
			expect(await ctx.storage.list()).toEqual(new Map());
		});
	});

	it("ends a session that connects no namespace within 45 seconds, as Socket.IO's connectTimeout does", async () => {
		const sid = await handshake();
		const stub = stubOf(sid);
		// Its first alarm is the first ping; it then wakes no later than the connect deadline.
		await runInDurableObject(stub, async (instance: SocketIoSession, ctx) => {
			expect(await ctx.storage.get("session")).toBeDefined();
			instance.clock = () => Date.now() + 25_000;
		});
		expect(await runDurableObjectAlarm(stub)).toBe(true);
		expect(await poll(sid, 1)).toEqual(["2"]);
		await post(sid, "3");
		await runInDurableObject(stub, async (instance: SocketIoSession, ctx) => {
			expect(await ctx.storage.getAlarm()).toBeLessThanOrEqual(Date.now() + 45_000);
			instance.clock = () => Date.now() + 45_000;
		});
		// Pongs do not keep it: at the deadline the session ends and nothing it stored is left.
		expect(await runDurableObjectAlarm(stub)).toBe(true);
		expect((await exports.default.fetch(`${ENGINE}&sid=${sid}`)).status).toBe(400);
		await runInDurableObject(stub, async (_instance, ctx) => {
			expect(await ctx.storage.list()).toEqual(new Map());
			expect(await ctx.storage.getAlarm()).toBeNull();
		});

		// A session whose namespace connected is kept past the deadline: the heartbeat goes on.
		const account = await newAccount();
		const { id, token } = await createInterview(account.test);
		const kept = await joined(`/interview/${id}/`, token);
		const keptStub = stubOf(kept);
		await runInDurableObject(keptStub, (instance: SocketIoSession) => {
			instance.clock = () => Date.now() + 60_000;
		});
		expect(await runDurableObjectAlarm(keptStub)).toBe(true);
		expect(await poll(kept, 1)).toEqual(["2"]);
	});
});
