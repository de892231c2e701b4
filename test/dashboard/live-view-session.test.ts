import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { OBSERVER_SESSION_CLOSE } from "../../src/interviews/object/interview-object";
import { liveSessionHashes } from "../../src/interviews/room/observer-tickets";
import { getDb } from "../../src/platform/db/client";
import { type Browser, dashboardAccount, newUser, signedIn } from "../support/dashboard-helpers";
import { call, validInterview } from "../support/helpers";
import { connect, type Room } from "../support/room-helpers";

// Sign-ins hash at 600,000 PBKDF2 iterations: slower than the default 5 s under load.
vi.setConfig({ testTimeout: 30_000 });

async function inProgress(key: string): Promise<string> {
	const created = await call("POST", "/v1/interviews", { key, body: validInterview() });
	expect(created.status).toBe(201);
	const id = created.body.data.id as string;
	const started = await call("POST", `/v1/interviews/${id}/test/advance`, {
		key,
		body: { to: "in_progress" },
	});
	expect(started.status).toBe(200);
	return id;
}

/** The live view's connection, as the page opens it: a ticket from the session, then the socket. */
async function liveView(browser: Browser, id: string): Promise<{ room: Room; closed: Promise<CloseInfo> }> {
	const token = await browser.csrf();
	const res = await browser.post(`/dashboard/interviews/${id}/live-ticket`, { _csrf: token });
	expect(res.status).toBe(200);
	const ticket = new URL(JSON.parse(res.text).url).searchParams.get("token") as string;
	const opened = await connect(id, ticket);
	expect(opened.status).toBe(101);
	const room = opened.room as Room;
	await room.next((m) => m.type === "interview_update");
	return { room, closed: closedOf(room) };
}

interface CloseInfo {
	code: number;
	reason: string;
}

function closedOf(room: Room): Promise<CloseInfo> {
	return new Promise((resolve) =>
		room.ws.addEventListener("close", (e) => resolve({ code: e.code, reason: e.reason })),
	);
}

/** The close, or "open" if none came within `ms`. */
function within(closed: Promise<CloseInfo>, ms: number): Promise<CloseInfo | "open"> {
	return Promise.race([closed, new Promise<"open">((resolve) => setTimeout(() => resolve("open"), ms))]);
}

describe("a live view ends with its session", () => {
	it("is closed by the server when its user signs out; other sessions' views and API observers stay", async () => {
		const a = await dashboardAccount();
		const id = await inProgress(a.test);
		const owner = await signedIn(a.owner);
		const sameUserElsewhere = await signedIn(a.owner);
		const mine = await liveView(owner, id);
		const theirs = await liveView(sameUserElsewhere, id);
		const api = (await connect(id, a.live)).room as Room;
		const apiClosed = closedOf(api);

		const token = await owner.csrf();
		const out = await owner.post("/dashboard/logout", { _csrf: token });
		expect(out.status).toBe(303);
		expect(await within(mine.closed, 5_000)).toEqual({ code: OBSERVER_SESSION_CLOSE, reason: "Signed out." });
		expect(await within(theirs.closed, 300)).toBe("open");
		expect(await within(apiClosed, 10)).toBe("open");
		// The other session's view still follows the interview.
		const from = theirs.room.messages.length;
		const patched = await call("POST", `/v1/interviews/${id}/test/advance`, {
			key: a.test,
			body: { to: "completed" },
		});
		expect(patched.status).toBe(200);
		await theirs.room.next((m) => m.type === "interview_update", { from });
		// The record of the closed view went with the session.
		const left = await env.DB.prepare(
			"SELECT COUNT(*) AS n FROM observer_tickets WHERE interview_id = ? AND used_at IS NOT NULL",
		)
			.bind(id)
			.first<{ n: number }>();
		expect(left?.n).toBe(1);
		theirs.room.close();
		api.close();
	});

	it("is closed when the user is removed", async () => {
		const a = await dashboardAccount();
		const id = await inProgress(a.test);
		const member = await newUser(a.id, "member");
		const memberBrowser = await signedIn(member);
		const view = await liveView(memberBrowser, id);
		const owner = await signedIn(a.owner);
		const token = await owner.csrf("/dashboard/team");
		expect((await owner.post(`/dashboard/team/${member.id}/remove`, { _csrf: token })).status).toBe(303);
		expect(await within(view.closed, 5_000)).toEqual({ code: OBSERVER_SESSION_CLOSE, reason: "Signed out." });
	});

	it("is closed at the room's next message once its session has ended without a sign-out", async () => {
		const a = await dashboardAccount();
		const id = await inProgress(a.test);
		const owner = await signedIn(a.owner);
		const view = await liveView(owner, id);
		// The session expires (as after 12 idle hours): the row is past its time, nothing told the room.
		await env.DB.prepare("UPDATE sessions SET expires_at = 1 WHERE user_id = ?").bind(a.owner.id).run();
		expect(await within(view.closed, 300)).toBe("open");
		view.room.send({ type: "resync", after_seq: 0 });
		expect(await within(view.closed, 5_000)).toEqual({
			code: OBSERVER_SESSION_CLOSE,
			reason: "The dashboard session ended.",
		});
	});

	it("looks sessions up in statements of at most 90 hashes, however many watch", async () => {
		const a = await dashboardAccount();
		await signedIn(a.owner);
		const row = await env.DB.prepare("SELECT token_hash FROM sessions WHERE user_id = ?")
			.bind(a.owner.id)
			.first<{ token_hash: string }>();
		const real = row?.token_hash as string;
		const others = Array.from({ length: 150 }, (_, i) => `gone-${i}`);
		const live = await liveSessionHashes(getDb(env.DB), [...others, real], Date.now());
		expect([...live]).toEqual([real]);
	});
});
