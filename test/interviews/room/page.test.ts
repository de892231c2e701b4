import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { formatUtc } from "../../../src/email/format";
import { migrateInterviewStorage } from "../../../src/interviews/object/storage";
import { RECORDING_LIMITS, recordingFile } from "../../../src/interviews/recordings/recordings";
import { interviewStub } from "../../../src/interviews/stub";
import { signPath } from "../../../src/platform/lib/signing";
import { BASE, call, newAccount } from "../../support/helpers";
import { createInterview, startInterview } from "../../support/lifecycle-helpers";

async function page(path: string) {
	const res = await exports.default.fetch(`${BASE}${path}`);
	return { status: res.status, html: await res.text(), type: res.headers.get("Content-Type") };
}

describe("the candidate's page", () => {
	it("shows the position, company, skills, duration and a start button, without joining", async () => {
		const account = await newAccount({ company_name: "Globex" });
		const { id, token, data } = await createInterview(account.live, {
			skills: ["Go", "SQL"],
			duration_minutes: 45,
		});
		const res = await page(`/join/${id}?token=${token}`);
		expect(res.status).toBe(200);
		expect(res.type).toContain("text/html");
		for (const text of [
			"Backend Engineer",
			"Globex",
			"<li>Go</li>",
			"<li>SQL</li>",
			"About 45 minutes",
			"Start the interview",
		]) {
			expect(res.html).toContain(text);
		}
		expect(res.html).toContain('<label for="answer">');
		expect(res.html).toContain('<html lang="en">');
		const fetched = await call("GET", `/v1/interviews/${id}`, { key: account.live });
		expect(fetched.body.data.candidate.joined_at).toBeNull();
		expect(data.interview_url).toBe(`${BASE}/join/${id}?token=${token}`);
	});

	it("escapes what callers wrote", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.live, { position: "<script>alert(1)</script>" });
		const res = await page(`/join/${id}?token=${token}`);
		expect(res.html).not.toContain("<script>alert(1)</script>");
		expect(res.html).toContain("&lt;script&gt;");
	});

	it("answers unknown links with a not-found page and closed interviews with their own pages", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.live);
		expect((await page(`/join/${id}?token=wrong`)).status).toBe(404);
		expect((await page("/join/int_AAAAAAAAAAAAAAAAAAAAAAAA?token=x")).status).toBe(404);
		await call("DELETE", `/v1/interviews/${id}`, { key: account.live });
		expect((await page(`/join/${id}?token=${token}`)).html).toContain("This interview was cancelled");
		const later = await createInterview(account.live, {
			scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
		});
		const early = await page(`/join/${later.id}?token=${later.token}`);
		// The times spelled out as the e-mail spells them, and the page reloads itself by the opening.
		const scheduled = Date.parse(later.data.scheduled_at);
		expect(early.html).toContain(
			`The interview is scheduled for ${formatUtc(scheduled)}. It opens 15 minutes before`,
		);
		expect(early.html).toContain(formatUtc(scheduled - 15 * 60_000));
		expect(early.html).not.toContain('id="start"');
		const refresh = Number(/<meta http-equiv="refresh" content="(\d+)">/.exec(early.html)?.[1]);
		expect(refresh).toBe(3600);
		const soon = await createInterview(account.live, {
			scheduled_at: new Date(Date.now() + 16 * 60_000).toISOString(),
		});
		const soonPage = await page(`/join/${soon.id}?token=${soon.token}`);
		const wait = Number(/<meta http-equiv="refresh" content="(\d+)">/.exec(soonPage.html)?.[1]);
		expect(wait).toBeGreaterThan(30);
		expect(wait).toBeLessThanOrEqual(62);
	});

	it("opens the page to a candidate who has joined, whatever the time: a test interview started early", async () => {
		const account = await newAccount();
		const later = await createInterview(account.test, {
			scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
		});
		const advanced = await call("POST", `/v1/interviews/${later.id}/test/advance`, {
			key: account.test,
			body: { to: "in_progress" },
		});
		expect(advanced.status).toBe(200);
		const res = await page(`/join/${later.id}?token=${later.token}`);
		expect(res.html).toContain('id="start"');
		expect(res.html).toContain("/room.js");
		expect(res.html).not.toContain("It opens 15 minutes before");
		expect(res.html).not.toContain('http-equiv="refresh"');
	});

	it("sends the page with headers that keep its token to itself", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.live);
		for (const path of [`/join/${id}?token=${token}`, `/join/${id}?token=wrong`]) {
			const res = await exports.default.fetch(`${BASE}${path}`);
			await res.text();
			expect(res.headers.get("Cache-Control")).toBe("no-store");
			expect(res.headers.get("Referrer-Policy")).toBe("no-referrer");
			expect(res.headers.get("X-Frame-Options")).toBe("DENY");
			expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
			expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
		}
	});

	it("lets only its own style and script run, under a nonce that is new on every response", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.live);
		const nonces: string[] = [];
		for (let i = 0; i < 2; i++) {
			const res = await exports.default.fetch(`${BASE}/join/${id}?token=${token}`);
			const html = await res.text();
			const policy = res.headers.get("Content-Security-Policy") ?? "";
			const directives = new Map(
				policy.split(";").map((d) => {
					const [name, ...values] = d.trim().split(/\s+/);
					return [name, values] as const;
				}),
			);
			expect(directives.get("default-src")).toEqual(["'none'"]);
			const scriptSrc = directives.get("script-src") ?? [];
			expect(scriptSrc).toHaveLength(1);
			const nonce = /^'nonce-([A-Za-z0-9+/=]{22,})'$/.exec(scriptSrc[0] ?? "")?.[1];
			expect(nonce).toBeDefined();
			expect(directives.get("style-src")).toEqual([`'nonce-${nonce}'`]);
			expect(directives.get("connect-src")).toEqual(expect.arrayContaining(["'self'", "ws://service.test"]));
			// Every executable script and style carries it; the configuration block is data.
			const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1] ?? "");
			expect(scripts.filter((a) => !a.includes('type="application/json"'))).toEqual([
				` src="/room.js" nonce="${nonce}" defer`,
			]);
			expect(html).toContain(`<style nonce="${nonce}">`);
			nonces.push(nonce as string);
		}
		expect(nonces[0]).not.toBe(nonces[1]);
		const missing = await exports.default.fetch(`${BASE}/join/${id}?token=wrong`);
		expect(missing.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
		expect(await missing.text()).toMatch(/<style nonce="[^"]+">/);
	});

	it("serves the page script, which carries the shared protocol", async () => {
		const res = await page("/room.js");
		expect(res.status).toBe(200);
		expect(res.type).toContain("javascript");
		expect(res.html).toContain("candidate_response");
	});
});

describe("candidate traffic and the rate limit", () => {
	it("does not count the page, its script or the channel against the account's rate limit", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.live);
		const before = await call("GET", "/v1/account/profile", { key: account.live });
		await page(`/join/${id}?token=${token}`);
		await page("/room.js");
		const socket = await exports.default.fetch(`${BASE}/interview/${id}/?token=${token}`, {
			headers: { Upgrade: "websocket" },
		});
		expect(socket.status).toBe(101);
		socket.webSocket?.accept();
		socket.webSocket?.close(1000, "bye");
		const after = await call("GET", "/v1/account/profile", { key: account.live });
		expect(after.body.data.rate_limit.current_usage).toBe(before.body.data.rate_limit.current_usage + 1);
	});
});

describe("recordings", () => {
	it("stores chunks from the candidate and returns signed, expiring links with the right permission", async () => {
		const account = await newAccount();
		const { id, token } = await startInterview(account.live);
		for (const chunk of [0, 1]) {
			const res = await exports.default.fetch(
				`${BASE}/interview/${id}/recordings?token=${token}&chunk=${chunk}`,
				{
					method: "POST",
					headers: { "Content-Type": "audio/webm" },
					body: new Uint8Array([1, 2, 3, chunk]),
				},
			);
			expect(res.status).toBe(201);
			// The contract's envelope, meta included, with the request id it names.
			const body = (await res.json()) as any;
			expect(body).toMatchObject({ success: true, data: { chunk, bytes: 4 } });
			expect(body.meta.request_id).toBe(res.headers.get("X-Request-Id"));
		}
		const wrong = await exports.default.fetch(`${BASE}/interview/${id}/recordings?token=nope&chunk=2`, {
			method: "POST",
			body: new Uint8Array([1]),
		});
		expect(wrong.status).toBe(401);

		const res = await call("GET", `/v1/interviews/${id}?include_recordings=true`, { key: account.live });
		const links = res.body.data.recordings;
		expect(links.map((l: any) => l.chunk)).toEqual([0, 1]);
		expect(links[0]).toMatchObject({ size_bytes: 4, expires_at: expect.any(String) });
		const audio = await exports.default.fetch(links[1].url);
		expect(audio.status).toBe(200);
		expect([...new Uint8Array(await audio.arrayBuffer())]).toEqual([1, 2, 3, 1]);
		const tampered = await exports.default.fetch(links[1].url.replace(/expires=\d+/, "expires=9999999999"));
		expect(tampered.status).toBe(404);
		const expired = new URL(links[0].url);
		expired.searchParams.set("expires", "1000");
		expect((await exports.default.fetch(expired.toString())).status).toBe(404);

		const noRecordings = await account.key("live", { permissions: ["interviews:read"] });
		const refused = await call("GET", `/v1/interviews/${id}?include_recordings=true`, { key: noRecordings });
		expect(refused.status).toBe(403);
		expect(refused.body.error.details.required_permission).toBe("interviews:read_recordings");
		const without = await call("GET", `/v1/interviews/${id}`, { key: account.live });
		expect(without.body.data.recordings).toBeUndefined();
	});

	it("takes only audio or video, never replaces a stored chunk, caps a streamed body, and serves nothing as a page", async () => {
		const account = await newAccount();
		const { id, token } = await startInterview(account.live);
		const upload = (chunk: number, body: BodyInit, headers: Record<string, string> = {}) =>
			exports.default.fetch(`${BASE}/interview/${id}/recordings?token=${token}&chunk=${chunk}`, {
				method: "POST",
				headers,
				body,
			});
		const html = await upload(0, "<script>alert(1)</script>", { "Content-Type": "text/html" });
		expect(html.status).toBe(400);
		expect(((await html.json()) as any).error.details).toEqual({
			"Content-Type": "Must be an audio/* or video/* media type",
		});
		expect((await upload(0, new Uint8Array([7]), { "Content-Type": "audio/webm;codecs=opus" })).status).toBe(
			201,
		);
		const again = await upload(0, new Uint8Array([8]), { "Content-Type": "audio/webm" });
		expect(again.status).toBe(409);
		const part = new Uint8Array(1024 * 1024);
		let sent = 0;
		const stream = new ReadableStream<Uint8Array>({
			pull(controller) {
				if (sent++ >= 11) return controller.close();
				controller.enqueue(part);
			},
		});
		expect((await upload(1, stream, { "Content-Type": "audio/webm" })).status).toBe(413);

		const res = await call("GET", `/v1/interviews/${id}?include_recordings=true`, { key: account.live });
		expect(res.body.data.recordings.map((l: any) => l.chunk)).toEqual([0]);
		const audio = await exports.default.fetch(res.body.data.recordings[0].url);
		expect([...new Uint8Array(await audio.arrayBuffer())]).toEqual([7]);
		expect(audio.headers.get("Content-Type")).toBe("audio/webm");
		expect(audio.headers.get("X-Content-Type-Options")).toBe("nosniff");
	});

	it("bounds what one interview's recording may store, in chunks and in bytes", async () => {
		const account = await newAccount();
		const { id, token } = await startInterview(account.live);
		const upload = (chunk: number, bytes: number) =>
			exports.default.fetch(`${BASE}/interview/${id}/recordings?token=${token}&chunk=${chunk}`, {
				method: "POST",
				headers: { "Content-Type": "audio/webm" },
				body: new Uint8Array(bytes),
			});
		const limits = { ...RECORDING_LIMITS };
		Object.assign(RECORDING_LIMITS, { chunks: 2, bytes: 100 });
		try {
			expect((await upload(0, 60)).status).toBe(201);
			const tooBig = await upload(1, 41);
			expect(tooBig.status).toBe(413);
			expect(((await tooBig.json()) as any).error.details).toEqual({ max_chunks: 2, max_bytes: 100 });
			expect((await upload(1, 10)).status).toBe(201);
			expect((await upload(2, 10)).status).toBe(413);
		} finally {
			Object.assign(RECORDING_LIMITS, limits);
		}
		const res = await call("GET", `/v1/interviews/${id}?include_recordings=true`, { key: account.live });
		expect(res.body.data.recordings.map((l: any) => l.size_bytes)).toEqual([60, 10]);
	});

	it("keeps each page's chunks under its own segment, in the order the pages began", async () => {
		const account = await newAccount();
		const { id, token } = await startInterview(account.live);
		const upload = (segment: string, chunk: number, byte: number) =>
			exports.default.fetch(
				`${BASE}/interview/${id}/recordings?token=${token}&segment=${segment}&chunk=${chunk}`,
				{
					method: "POST",
					headers: { "Content-Type": "audio/webm" },
					body: new Uint8Array([byte]),
				},
			);
		// The second page began later ("z" < "10" in base 36); both number their chunks from 0.
		for (const [segment, chunk, byte] of [
			["10", 0, 3],
			["z", 0, 1],
			["z", 1, 2],
			["10", 1, 4],
		] as const) {
			expect((await upload(segment, chunk, byte)).status).toBe(201);
		}
		expect((await upload("10", 1, 9)).status).toBe(409);
		const bad = await upload("A-1", 2, 0);
		expect(bad.status).toBe(400);
		const res = await call("GET", `/v1/interviews/${id}?include_recordings=true`, { key: account.live });
		const links = res.body.data.recordings;
		expect(links.map((l: any) => [l.segment, l.chunk])).toEqual([
			["z", 0],
			["z", 1],
			["10", 0],
			["10", 1],
		]);
		const bytes = [];
		for (const link of links)
			bytes.push(...new Uint8Array(await (await exports.default.fetch(link.url)).arrayBuffer()));
		expect(bytes).toEqual([1, 2, 3, 4]);

		// Each segment as one file: its chunks joined in order, the first chunk's type, its length.
		const segments = res.body.data.recording_segments;
		expect(segments.map((s: any) => [s.segment, s.chunks, s.size_bytes])).toEqual([
			["z", 2, 2],
			["10", 2, 2],
		]);
		// When each segment's first chunk was stored (here "10" stored its first before "z" did).
		expect(segments[0].started_at).toBe(links[0].uploaded_at);
		expect(segments[1].started_at).toBe(links[2].uploaded_at);
		for (const [i, expected] of [
			[0, [1, 2]],
			[1, [3, 4]],
		] as const) {
			const joined = await exports.default.fetch(segments[i].url);
			expect(joined.status).toBe(200);
			expect(joined.headers.get("Content-Type")).toBe("audio/webm");
			expect(joined.headers.get("Content-Length")).toBe("2");
			expect(joined.headers.get("Content-Security-Policy")).toBe("default-src 'none'; sandbox");
			expect([...new Uint8Array(await joined.arrayBuffer())]).toEqual(expected);
		}
		// Signed for its own path: another segment's name, a changed signature or an expired link is 404.
		const other = segments[0].url.replace("segment-z.webm", "segment-10.webm");
		expect((await exports.default.fetch(other)).status).toBe(404);
		expect((await exports.default.fetch(segments[0].url.replace(/sig=[0-9a-f]{4}/, "sig=0000"))).status).toBe(
			404,
		);
		const expired = new URL(segments[0].url);
		expired.searchParams.set("expires", String(Math.floor(Date.now() / 1000) - 1));
		expect((await exports.default.fetch(expired.toString())).status).toBe(404);
	});

	it("joins a segment of many chunks in chunk order, and answers 404 for a segment with none", async () => {
		const account = await newAccount();
		const { id, token } = await startInterview(account.live);
		// Uploaded out of order (chunk 10 sorts before 2 as text, not as a number), each a different size.
		const order = [3, 0, 11, 1, 10, 2, 4, 9, 5, 8, 6, 7];
		for (const chunk of order) {
			const body = new Uint8Array(chunk + 1).fill(chunk);
			const res = await exports.default.fetch(
				`${BASE}/interview/${id}/recordings?token=${token}&segment=abc&chunk=${chunk}`,
				{ method: "POST", headers: { "Content-Type": "audio/ogg; codecs=opus" }, body },
			);
			expect(res.status).toBe(201);
		}
		const res = await call("GET", `/v1/interviews/${id}?include_recordings=true`, { key: account.live });
		const [segment] = res.body.data.recording_segments;
		expect(res.body.data.recording_segments).toHaveLength(1);
		const expected = Array.from({ length: 12 }, (_, chunk) => Array(chunk + 1).fill(chunk)).flat();
		expect(segment.size_bytes).toBe(expected.length);
		expect(segment.chunks).toBe(12);
		const joined = await exports.default.fetch(segment.url);
		expect(joined.headers.get("Content-Type")).toBe("audio/ogg");
		expect(joined.headers.get("Content-Length")).toBe(String(expected.length));
		expect([...new Uint8Array(await joined.arrayBuffer())]).toEqual(expected);

		// A correctly signed link to a segment that holds nothing.
		const empty = segment.url.replace("segment-abc.webm", "segment-abd.webm").split("?")[0];
		const expires = Math.floor(Date.now() / 1000) + 60;
		const path = new URL(empty).pathname;
		const sig = await signPath(env.RECORDING_URL_SECRET as string, path, expires);
		const missing = await exports.default.fetch(`${empty}?expires=${expires}&sig=${sig}`);
		expect(missing.status).toBe(404);
		expect((await missing.json<any>()).error.message).toBe("No such recording.");
	});

	it("counts parallel uploads one by one: exactly as many stored as the limit allows", async () => {
		const account = await newAccount();
		const { id, token } = await startInterview(account.live);
		const limits = { ...RECORDING_LIMITS };
		Object.assign(RECORDING_LIMITS, { chunks: 3 });
		let statuses: number[];
		try {
			const responses = await Promise.all(
				[0, 1, 2, 3, 4].map((chunk) =>
					exports.default.fetch(`${BASE}/interview/${id}/recordings?token=${token}&chunk=${chunk}`, {
						method: "POST",
						headers: { "Content-Type": "audio/webm" },
						body: new Uint8Array([chunk]),
					}),
				),
			);
			statuses = responses.map((r) => r.status);
			await Promise.all(responses.map((r) => r.arrayBuffer()));
		} finally {
			Object.assign(RECORDING_LIMITS, limits);
		}
		expect(statuses.filter((s) => s === 201)).toHaveLength(3);
		expect(statuses.filter((s) => s === 413)).toHaveLength(2);
		const res = await call("GET", `/v1/interviews/${id}?include_recordings=true`, { key: account.live });
		expect(res.body.data.recordings).toHaveLength(3);
	});

	it("lists R2 only when the interview's object counted a chunk, or is older than the count", async () => {
		const account = await newAccount();
		const recordingsOf = async (id: string) =>
			(await call("GET", `/v1/interviews/${id}?include_recordings=true`, { key: account.live })).body.data
				.recordings as { chunk: number }[];
		// A chunk no upload counted (only an object made before the count could have one).
		const uncounted = (id: string) =>
			env.RECORDINGS.put(`recordings/${id}/${recordingFile(null, 5)}`, new Uint8Array([9]));

		const counted = await startInterview(account.live);
		await uncounted(counted.id);
		// Nothing counted: the object's count says there is nothing, and R2 is not listed.
		expect(await recordingsOf(counted.id)).toEqual([]);
		const upload = await exports.default.fetch(
			`${BASE}/interview/${counted.id}/recordings?token=${counted.token}&chunk=0`,
			{ method: "POST", headers: { "Content-Type": "audio/webm" }, body: new Uint8Array([1]) },
		);
		expect(upload.status).toBe(201);
		// Once a chunk is counted, R2's list is the answer: everything stored under the interview.
		expect((await recordingsOf(counted.id)).map((l) => l.chunk)).toEqual([0, 5]);

		const older = await startInterview(account.live);
		await runInDurableObject(interviewStub(env, older.id), (_instance, state) => {
			state.storage.sql.exec("UPDATE schema_version SET version = 3");
			migrateInterviewStorage(state.storage.sql);
		});
		await uncounted(older.id);
		expect((await recordingsOf(older.id)).map((l) => l.chunk)).toEqual([5]);
	});

	it("refuses uploads to an interview that has not started", async () => {
		const account = await newAccount();
		const { id, token } = await createInterview(account.live, {
			scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
		});
		const res = await exports.default.fetch(`${BASE}/interview/${id}/recordings?token=${token}&chunk=0`, {
			method: "POST",
			body: new Uint8Array([1]),
		});
		expect(res.status).toBe(409);
	});

	it("checks an upload's token before its input", async () => {
		const account = await newAccount();
		const { id } = await startInterview(account.live);
		const res = await exports.default.fetch(`${BASE}/interview/${id}/recordings?token=wrong&chunk=x`, {
			method: "POST",
			body: new Uint8Array([1]),
		});
		expect(res.status).toBe(401);
		expect(((await res.json()) as { error: { code: string } }).error.code).toBe("INVALID_TOKEN");
	});
});
