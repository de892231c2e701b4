import { listDurableObjectIds, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { resetStrangerLimit, STRANGER_LIMIT } from "../../src/interviews/room/stranger-limit";
import { interviewStub } from "../../src/interviews/stub";
import { addressOf } from "../../src/platform/http/client-address";
import { newId } from "../../src/platform/lib/random";
import { countedCall } from "../support/call-counts";
import { BASE, call, newAccount, validInterview } from "../support/helpers";
import { createInterview } from "../support/lifecycle-helpers";

const objectCount = async () => (await listDurableObjectIds(env.INTERVIEW)).length;

/** Runs `run` over 0..n-1, `width` at a time. */
async function inParallel(n: number, width: number, run: (i: number) => Promise<void>): Promise<void> {
	let next = 0;
	await Promise.all(
		Array.from({ length: width }, async () => {
			while (next < n) await run(next++);
		}),
	);
}

describe("interviews that were never created", { timeout: 180_000 }, () => {
	it("1,000 unauthenticated candidate requests with random ids store no object and answer 404/401", async () => {
		resetStrangerLimit();
		const before = await objectCount();
		const statuses = new Map<string, number>();
		await inParallel(1_000, 20, async (i) => {
			const id = newId("int");
			// Spread over addresses, under each one's limit (the limit itself: below).
			const address = `198.51.${Math.floor(i / 50)}.${i % 50}`;
			let res: Response;
			if (i % 3 === 0) {
				res = await exports.default.fetch(`${BASE}/join/${id}?token=x`, {
					headers: { "CF-Connecting-IP": address },
				});
			} else if (i % 3 === 1) {
				res = await exports.default.fetch(`${BASE}/interview/${id}/recordings?token=x&chunk=0`, {
					method: "POST",
					headers: { "Content-Type": "audio/webm", "CF-Connecting-IP": address },
					body: "abc",
				});
			} else {
				res = await exports.default.fetch(`${BASE}/interview/${id}/?token=x`, {
					headers: { Upgrade: "websocket", "CF-Connecting-IP": address },
				});
			}
			await res.arrayBuffer();
			const key = `${i % 3}:${res.status}`;
			statuses.set(key, (statuses.get(key) ?? 0) + 1);
		});
		// The page and the WebSocket: 404 not found; the upload: 401 for the token.
		expect(Object.fromEntries(statuses)).toEqual({ "0:404": 334, "1:401": 333, "2:404": 333 });
		expect(await objectCount()).toBe(before);
	});

	it("limits refusals per address: after 60 in a minute the candidate routes answer 429, other addresses and real candidates are served", async () => {
		resetStrangerLimit();
		const account = await newAccount();
		const { id, token } = await createInterview(account.live);
		const from = (address: string, path: string, init: RequestInit = {}) =>
			exports.default.fetch(`${BASE}${path}`, {
				...init,
				headers: { ...(init.headers as Record<string, string>), "CF-Connecting-IP": address },
			});
		// A real candidate's page loads and uploads are never counted.
		for (let i = 0; i < 70; i++) {
			const res = await from("203.0.113.9", `/join/${id}?token=${token}`);
			await res.arrayBuffer();
			expect(res.status).toBe(200);
		}
		const statuses: number[] = [];
		for (let i = 0; i < 65; i++) {
			const res = await from("203.0.113.7", `/join/${newId("int")}?token=x`);
			await res.arrayBuffer();
			statuses.push(res.status);
		}
		expect(statuses.slice(0, STRANGER_LIMIT).every((s) => s === 404)).toBe(true);
		expect(statuses.slice(STRANGER_LIMIT)).toEqual([429, 429, 429, 429, 429]);
		const upload = await from("203.0.113.7", `/interview/${id}/recordings?token=${token}&chunk=0`, {
			method: "POST",
			body: "abc",
		});
		expect(upload.status).toBe(429);
		expect(upload.headers.get("Retry-After")).toMatch(/^\d+$/);
		expect(((await upload.json()) as { error: { code: string } }).error.code).toBe("RATE_LIMIT_EXCEEDED");
		const ws = await from("2001:db8:1:2:3:4:5:6", `/interview/${newId("int")}/?token=x`, {
			headers: { Upgrade: "websocket" },
		});
		expect(ws.status).toBe(404);
		expect((await from("203.0.113.9", `/join/${id}?token=${token}`)).status).toBe(200);
		resetStrangerLimit();
	});

	it("counts an IPv6 network by its /64 however its addresses are written, and an IPv4-mapped address as the IPv4 one", async () => {
		expect(addressOf("2001:db8::a")).toBe("2001:db8::/64");
		expect(addressOf("2001:0DB8:0000:0000:ffff:0:0:b")).toBe("2001:db8::/64");
		expect(addressOf("2001:db8::a%eth0")).toBe("2001:db8::/64");
		expect(addressOf("2001:db8:0:1::a")).toBe("2001:db8:0:1::/64");
		expect(addressOf("::ffff:203.0.113.50")).toBe("203.0.113.50");
		expect(addressOf(" 203.0.113.50 ")).toBe("203.0.113.50");
		expect(addressOf("not an address")).toBe("not an address");
		expect(addressOf(undefined)).toBe("unknown");

		resetStrangerLimit();
		const refused = async (address: string) => {
			const res = await exports.default.fetch(`${BASE}/join/${newId("int")}?token=x`, {
				headers: { "CF-Connecting-IP": address },
			});
			await res.arrayBuffer();
			return res.status;
		};
		// Refusals from one compressed address, then others of its /64 written other ways.
		for (let i = 0; i < STRANGER_LIMIT; i++) expect(await refused("2001:db8::a")).toBe(404);
		expect(await refused("2001:db8::b")).toBe(429);
		expect(await refused("2001:0db8:0000:0000:0000:0000:0000:00cc")).toBe(429);
		// The next /64 is another network.
		expect(await refused("2001:db8:0:1::a")).toBe(404);
		for (let i = 0; i < STRANGER_LIMIT; i++) expect(await refused("203.0.113.50")).toBe(404);
		expect(await refused("::ffff:203.0.113.50")).toBe(429);
		expect(await refused("203.0.113.51")).toBe(404);
		resetStrangerLimit();
	});

	it("single fetches and 100 bulk-results of 100 random ids with a key store no object", async () => {
		const account = await newAccount();
		const created = await call("POST", "/v1/interviews", { key: account.live, body: validInterview() });
		const real = created.body.data.id as string;
		await interviewStub(env, real).get();
		const before = await objectCount();
		for (let i = 0; i < 20; i++) {
			const res = await call("GET", `/v1/interviews/${newId("int")}`, { key: account.live });
			expect(res.status).toBe(404);
			expect(res.body.error.code).toBe("INTERVIEW_NOT_FOUND");
		}
		const statuses: number[] = [];
		await inParallel(100, 10, async (i) => {
			const ids = Array.from({ length: 100 }, () => newId("int"));
			if (i === 0) ids[50] = real;
			const res = await call("POST", "/v1/interviews/bulk-results", {
				key: account.live,
				body: { interview_ids: ids },
			});
			statuses.push(res.status);
			if (res.status === 200) {
				const found = (res.body.data as { id: string; status?: string }[]).filter(
					(item) => item.status !== undefined,
				);
				expect(found.map((item) => item.id)).toEqual(i === 0 ? [real] : []);
			} else {
				expect(res.status).toBe(429);
			}
		});
		expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
		expect(await objectCount()).toBe(before);
	});

	it("an object opened for an id never created answers without writing or failing", async () => {
		const stranger = newId("int");
		expect(await interviewStub(env, stranger).get()).toBeNull();
		expect(await interviewStub(env, stranger).wake()).toEqual({ status: "absent" });
		expect(await interviewStub(env, stranger).reserveRecording(10)).toEqual({ ok: false });
		const cancel = await interviewStub(env, stranger).execute(
			{ type: "cancel", reason: null, sendNotification: false, refundCredits: false },
			Date.now(),
			{ accountId: "acc_x", environment: "production" },
		);
		expect(cancel.status).toBe("rejected");
		// Its database holds no table (an opened object still has a file locally: hence the
		// projection check before opening one, above).
		const tables = await runInDurableObject(
			interviewStub(env, stranger) as unknown as DurableObjectStub,
			(_i, state) => state.storage.sql.exec("SELECT name FROM sqlite_master").toArray(),
		);
		expect(tables).toEqual([]);
	});
});

describe("interviews the projection has shown once", () => {
	it("are read from their object without asking D1 again", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.test);
		const get = (interviewId: string) => countedCall("GET", `/v1/interviews/${interviewId}`, account.test);
		expect((await get(id)).status).toBe(200);
		const again = await get(id);
		expect(again.status).toBe(200);
		expect(again.body.data?.id).toBe(id);
		expect(again.counts.d1Statements).toBe(0);
		// An id never created is still asked about, every time: it opens no object.
		const stranger = newId("int");
		let statements = 0;
		for (let i = 0; i < 2; i++) {
			const res = await get(stranger);
			expect(res.status).toBe(404);
			statements += res.counts.d1Statements;
		}
		expect(statements).toBe(2);
	});
});
