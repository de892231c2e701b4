import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { migrateInterviewStorage } from "../../src/interviews/object/storage";
import { recordingFile } from "../../src/interviews/recordings/recordings";
import { interviewStub } from "../../src/interviews/stub";
import { dashboardAccount, signedIn } from "../support/dashboard-helpers";
import { admin, BASE, call, validInterview } from "../support/helpers";
import { completeInterview, startInterview } from "../support/lifecycle-helpers";
import { receiver } from "../support/receiver-client";
import { connect } from "../support/room-helpers";

// Each sign-in hashes at 600,000 PBKDF2 iterations: slower than the default 5 s under load.
vi.setConfig({ testTimeout: 30_000 });

async function completedInterview(key: string) {
	const created = await call("POST", "/v1/interviews", { key, body: validInterview() });
	expect(created.status).toBe(201);
	const id = created.body.data.id as string;
	const done = await call("POST", `/v1/interviews/${id}/test/advance`, { key, body: { to: "completed" } });
	expect(done.status).toBe(200);
	return id;
}

/** The values an interview page's change form is filled with, by field name. */
function changeFormOf(html: string): Record<string, string> {
	const form = /<form method="post" action="[^"]*\/update">([\s\S]*?)<\/form>/.exec(html)?.[1] ?? "";
	const values: Record<string, string> = {};
	for (const m of form.matchAll(/<input[^>]*name="(\w+)"[^>]*value="([^"]*)"/g)) {
		values[m[1] as string] = (m[2] as string).replaceAll("&amp;", "&");
	}
	return values;
}

/** The error notice of a dashboard page, for a failed assertion's message. */
function errorsOf(html: string): string {
	return /<div[^>]*role="alert"[\s\S]*?<\/div>/.exec(html)?.[0] ?? html.slice(0, 200);
}

/** The bulk form's first step as a browser posts it (the defaults, then the file): its preview page. */
async function previewBulk(
	owner: { cookie: string },
	token: string,
	file: string | Uint8Array,
	fields: Record<string, string>,
	name = "people.csv",
) {
	const form = new FormData();
	form.append("_csrf", token);
	for (const [field, value] of Object.entries(fields)) form.append(field, value);
	form.append("file", new File([file], name, { type: "text/csv" }));
	const res = await exports.default.fetch("http://service.test/dashboard/interviews/bulk", {
		method: "POST",
		body: form,
		headers: { Cookie: owner.cookie, Origin: "http://service.test" },
	});
	return { status: res.status, text: await res.text() };
}

describe("isolation between accounts", () => {
	it("answers 404 pages for another account's interview, results, key, endpoint and delivery", async () => {
		const a = await dashboardAccount();
		const b = await dashboardAccount();
		const id = await completedInterview(a.test);
		const hook = await call("POST", "/v1/webhooks", {
			key: a.live,
			body: { url: "https://hooks.example.com/a", events: ["*"] },
		});
		expect(hook.status).toBe(201);
		const keyId = (await admin("GET", `/accounts/${a.id}`)).body.data.keys[0].id as string;

		const owner = await signedIn(a.owner);
		expect((await owner.get(`/dashboard/interviews/${id}`)).status).toBe(200);
		const results = await owner.get(`/dashboard/interviews/${id}/results`);
		expect(results.status).toBe(200);
		expect(results.text).toContain("Print / Save as PDF");
		expect(results.text).toMatch(/<svg role="img"/);
		// The recommendation is advice: the page says a person decides, with the confidence and flags.
		expect(results.text).toContain("a person reads the answers");
		expect(results.text).toMatch(/id="confidence">[^<]+</);
		expect(results.text).toContain('id="review-flags"');
		expect((await owner.get(`/dashboard/settings/webhooks/${hook.body.data.id}`)).status).toBe(200);

		const other = await signedIn(b.owner);
		const token = await other.csrf();
		for (const path of [
			`/dashboard/interviews/${id}`,
			`/dashboard/interviews/${id}/results`,
			`/dashboard/settings/webhooks/${hook.body.data.id}`,
		]) {
			const page = await other.get(path);
			expect(page.status, path).toBe(404);
			expect(page.text).not.toContain(a.owner.email);
			expect(page.text).not.toContain("ada@example.com");
		}
		const posts: [string, Record<string, string>][] = [
			[`/dashboard/settings/api-keys/${keyId}/revoke`, {}],
			[`/dashboard/settings/webhooks/${hook.body.data.id}/delete`, {}],
			[`/dashboard/settings/webhooks/${hook.body.data.id}/toggle`, { active: "false" }],
			[`/dashboard/interviews/${id}/cancel`, {}],
			[`/dashboard/interviews/${id}/live-ticket`, {}],
			[
				`/dashboard/settings/webhooks/${hook.body.data.id}/deliveries/dlv_000000000000000000000000/redeliver`,
				{},
			],
		];
		for (const [path, form] of posts) {
			const res = await other.post(path, { _csrf: token, ...form });
			expect(res.status, path).toBe(404);
		}
		// Nothing changed for the first account.
		expect((await call("GET", "/v1/auth/verify", { key: a.live })).status).toBe(200);
		const still = await call("GET", `/v1/webhooks/${hook.body.data.id}`, { key: a.live });
		expect(still.body.data.active).toBe(true);
	});

	it("shows a scheduled interview's results page as 404 until it completes", async () => {
		const a = await dashboardAccount();
		const created = await call("POST", "/v1/interviews", { key: a.test, body: validInterview() });
		const owner = await signedIn(a.owner);
		expect((await owner.get(`/dashboard/interviews/${created.body.data.id}/results`)).status).toBe(404);
		const fetched = await call("GET", `/v1/interviews/${created.body.data.id}`, { key: a.test });
		expect(fetched.body.data.urls.dashboard_url).toBe(
			`http://service.test/dashboard/interviews/${created.body.data.id}`,
		);
		expect(fetched.body.data.urls.results_url).toBeNull();
	});
});

describe("the results page's recordings", () => {
	it("lists the chunks the interview's object counted, and R2 for an object older than the count", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const recordingsSection = async (id: string) => {
			const page = await owner.get(`/dashboard/interviews/${id}/results`);
			expect(page.status).toBe(200);
			return page.text.slice(page.text.indexOf('id="recordings-h"'));
		};
		// A chunk no upload counted (only an object made before the count could have one).
		const uncounted = (id: string) =>
			env.RECORDINGS.put(`recordings/${id}/${recordingFile(null, 3)}`, new Uint8Array([9]));

		const recorded = await startInterview(a.live);
		const upload = await exports.default.fetch(
			`${BASE}/interview/${recorded.id}/recordings?token=${recorded.token}&chunk=0`,
			{ method: "POST", headers: { "Content-Type": "audio/webm" }, body: new Uint8Array([1, 2]) },
		);
		expect(upload.status).toBe(201);
		await interviewStub(env, recorded.id).finish("candidate_ended", Date.now());
		const withChunk = await recordingsSection(recorded.id);
		// One player per recording, its parts joined into one file.
		expect(withChunk).toMatch(
			/<audio controls="" preload="none" src="[^"]*\/recordings\/[^"]*\/segment\.webm\?expires=/,
		);
		expect(withChunk).toContain("Recording 1, started");
		expect(withChunk).toContain("1 part,");
		expect(withChunk).not.toContain("No recordings were made.");
		const src = /<audio[^>]* src="([^"]+)"/.exec(withChunk)?.[1]?.replaceAll("&amp;", "&") as string;
		const played = await exports.default.fetch(src);
		expect(played.status).toBe(200);
		expect([...new Uint8Array(await played.arrayBuffer())]).toEqual([1, 2]);

		const silent = await completeInterview(a.live);
		await uncounted(silent.id);
		const none = await recordingsSection(silent.id);
		expect(none).toContain("No recordings were made.");
		expect(none).not.toContain("<audio");

		const older = await completeInterview(a.live);
		await runInDurableObject(interviewStub(env, older.id), (_instance, state) => {
			state.storage.sql.exec("UPDATE schema_version SET version = 3");
			migrateInterviewStorage(state.storage.sql);
		});
		await uncounted(older.id);
		expect(await recordingsSection(older.id)).toContain("Recording 1, started");
	});
});

describe("API keys page", () => {
	it("creates a key shown once and revokes it at once on the API", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf("/dashboard/settings/api-keys");
		const made = await owner.post("/dashboard/settings/api-keys", {
			_csrf: token,
			form_id: await owner.formId("/dashboard/settings/api-keys"),
			name: "Reporting",
			environment: "live",
			scopes: ["interviews:read", "analytics:read"],
		});
		expect(made.status).toBe(201);
		const value = /(svc_live_[0-9A-Za-z]{32})/.exec(made.text)?.[1] as string;
		expect(value).toBeDefined();
		const verify = await call("GET", "/v1/auth/permissions", { key: value });
		expect(verify.body.data.permissions).toEqual(["interviews:read", "analytics:read"]);
		const list = await owner.get("/dashboard/settings/api-keys");
		expect(list.text).toContain("Reporting");
		expect(list.text).toContain(value.slice(0, 12));
		expect(list.text).not.toContain(value);
		const keyId = /data-key-id="(key_[0-9A-Za-z]+)"><td>Reporting<\/td>/.exec(list.text)?.[1] as string;
		const revoked = await owner.post(`/dashboard/settings/api-keys/${keyId}/revoke`, { _csrf: token });
		expect(revoked.status).toBe(303);
		const after = await call("GET", "/v1/auth/verify", { key: value });
		expect(after.status).toBe(401);
		expect(after.body.error.code).toBe("INVALID_API_KEY");
		const bad = await owner.post("/dashboard/settings/api-keys", {
			_csrf: token,
			name: "",
			environment: "prod",
		});
		expect(bad.status).toBe(422);
		expect(bad.text).toContain("Choose at least one scope");
	});

	it("leads /settings/api-keys (an expired key's renewal_url) to the page", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const res = await owner.get("/settings/api-keys");
		expect(res.status).toBe(302);
		expect(res.headers.get("Location")).toBe("/dashboard/settings/api-keys");
	});
});

describe("interviews pages", () => {
	it("creates from the form through the API's rules, errors in words", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf();
		const bad = await owner.post("/dashboard/interviews/new", {
			_csrf: token,
			candidate_email: "not-an-address",
			position: "Tester",
			skills: "SQL",
			duration_minutes: "5",
		});
		expect(bad.status).toBe(422);
		expect(bad.text).toContain("Must be a valid e-mail address");
		expect(bad.text).toContain("Must be an integer from 15 to 90");
		const good = await owner.post("/dashboard/interviews/new", {
			_csrf: token,
			form_id: await owner.formId("/dashboard/interviews/new"),
			candidate_email: "grace@example.com",
			position: "Tester",
			skills: "SQL, Python",
			test_mode: "true",
		});
		expect(good.status).toBe(303);
		const id = /interviews\/(int_[0-9A-Za-z]+)/.exec(good.headers.get("Location") ?? "")?.[1] as string;
		const fetched = await call("GET", `/v1/interviews/${id}`, { key: a.test });
		expect(fetched.body.data.skills).toEqual(["SQL", "Python"]);
		expect(fetched.body.data.test_mode).toBe(true);
		const events = await call("GET", `/v1/events?interview_id=${id}`, { key: a.test });
		expect(events.body.data.map((e: { type: string }) => e.type)).toContain("interview.scheduled");
		// Cancel through the same command as DELETE; a second cancel is refused in words. (A reason
		// over the API's 1,000 characters is refused: refused-fields.test.ts.)
		const reason = "The position is filled";
		expect((await owner.post(`/dashboard/interviews/${id}/cancel`, { _csrf: token, reason })).status).toBe(
			303,
		);
		const cancelled = await call("GET", `/v1/interviews/${id}`, { key: a.test });
		expect(cancelled.body.data.cancellation.reason).toBe(reason);
		const again = await owner.post(`/dashboard/interviews/${id}/cancel`, { _csrf: token });
		expect(again.status).toBe(422);
		expect(again.text).toContain("already cancelled");
	});

	it("lists with the API's filters and cursor paging", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const later = new Date(Date.now() + 40 * 86_400_000).toISOString();
		for (const body of [
			validInterview({ position: "Filter A" }),
			validInterview({ position: "Filter B", scheduled_at: later }),
		]) {
			expect((await call("POST", "/v1/interviews", { key: a.test, body })).status).toBe(201);
		}
		// Made with the test key: test-mode interviews, listed in the test data view.
		const all = await owner.get("/dashboard/interviews?mode=test&position=filter");
		expect(all.text).toContain("2 test interviews match.");
		// Spaces typed around a filter are not part of it.
		const spaced = await owner.get("/dashboard/interviews?mode=test&position=%20%20filter%20b%20");
		expect(spaced.text).toContain("1 test interview matches.");
		const ahead = await owner.get(`/dashboard/interviews?mode=test&scheduled_from=${later.slice(0, 10)}`);
		expect(ahead.text).toContain("1 test interview matches.");
		expect(ahead.text).toContain("Filter B");
		expect(ahead.text).not.toContain("Filter A");
		const first = await owner.get("/dashboard/interviews?mode=test&position=filter&limit=1");
		const next = /href="([^"]*cursor=[^"]+)" rel="next"/
			.exec(first.text)?.[1]
			?.replaceAll("&amp;", "&") as string;
		expect(next).toBeDefined();
		expect(next).toContain("mode=test");
		const second = await owner.get(next);
		expect(second.text).toContain("Filter A");
		expect(second.text).toContain('id="test-banner"');
		expect(second.text).not.toContain('rel="next"');
		const bad = await owner.get("/dashboard/interviews?status=sleeping");
		expect(bad.status).toBe(200);
		expect(bad.text).toContain("Some filters are not valid.");
	});

	it("shows live data by default and test data behind the switch, each page labelled", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const live = await call("POST", "/v1/interviews", {
			key: a.live,
			body: validInterview({ position: "Mode Live" }),
		});
		expect(live.status).toBe(201);
		const testIds: string[] = [];
		for (const key of [a.test, a.live]) {
			const made = await call("POST", "/v1/interviews", {
				key,
				body: validInterview({ position: "Mode Test", test_mode: true }),
			});
			expect(made.status).toBe(201);
			testIds.push(made.body.data.id);
		}
		const liveList = await owner.get("/dashboard/interviews?position=mode");
		expect(liveList.text).toContain("1 live interview matches.");
		expect(liveList.text).toContain(live.body.data.id);
		for (const id of testIds) expect(liveList.text).not.toContain(id);
		expect(liveList.text).not.toContain('id="test-banner"');
		expect(liveList.text).toContain('href="/dashboard/interviews?mode=test"');
		expect(liveList.text).toContain("View test data");

		const testList = await owner.get("/dashboard/interviews?mode=test&position=mode");
		expect(testList.text).toContain("<title>Test interviews · Interview dashboard</title>");
		expect(testList.text).toContain('id="test-banner"');
		expect(testList.text).toContain("2 test interviews match.");
		expect(testList.text).not.toContain(live.body.data.id);
		for (const id of testIds) expect(testList.text).toContain(id);
		// The filter form keeps the mode; the create link opens a test interview's form.
		expect(testList.text).toContain('<input type="hidden" name="mode" value="test"/>');
		expect(testList.text).toContain('href="/dashboard/interviews/new?mode=test"');

		const form = await owner.get("/dashboard/interviews/new?mode=test");
		expect(form.text).toContain('id="test-banner"');
		expect(form.text).toMatch(/name="test_mode" type="checkbox" value="true" checked=""/);
		expect((await owner.get("/dashboard/interviews/new")).text).not.toMatch(/name="test_mode"[^>]*checked/);
		const token = await owner.csrf();
		const created = await owner.post("/dashboard/interviews/new", {
			_csrf: token,
			form_id: await owner.formId("/dashboard/interviews/new?mode=test", "/dashboard/interviews/new"),
			candidate_email: "mode@example.com",
			position: "Mode Form",
			skills: "SQL",
			duration_minutes: "30",
			difficulty: "intermediate",
			test_mode: "true",
		});
		expect(created.status).toBe(303);
		const newId = /int_[0-9A-Za-z]{24}/.exec(created.headers.get("Location") ?? "")?.[0] as string;
		expect((await call("GET", `/v1/interviews/${newId}`, { key: a.live })).body.data.test_mode).toBe(true);

		const page = await owner.get(`/dashboard/interviews/${newId}`);
		expect(page.status).toBe(200);
		expect(page.text).toContain("<title>Test interview with mode@example.com · Interview dashboard</title>");
		expect(page.text).toContain("data-test-label");
		expect(page.text).toContain('href="/dashboard/interviews?mode=test"');
		const livePage = await owner.get(`/dashboard/interviews/${live.body.data.id}`);
		expect(livePage.text).not.toContain("data-test-label");

		const done = await call("POST", `/v1/interviews/${testIds[0]}/test/advance`, {
			key: a.test,
			body: { to: "completed" },
		});
		expect(done.status).toBe(200);
		const results = await owner.get(`/dashboard/interviews/${testIds[0]}/results`);
		expect(results.status).toBe(200);
		expect(results.text).toContain("data-test-label");
		expect(results.text).toContain("mock results");
	});

	it("previews a CSV with a bad row and creates the good ones", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf();
		const csv =
			'candidate_email,candidate_name,skills\nx1@example.com,"Doe, Jane",SQL\nbroken,Bad Row,SQL\nx3@example.com,C,Go;SQL\n';
		const preview = await previewBulk(owner, token, csv, { position: "Analyst" });
		const html = preview.text;
		expect(preview.status).toBe(200);
		expect(html).toContain("2 of 3 rows are valid");
		expect(html).toMatch(/Error: Invalid e-mail address/);
		const sendId = /name="send_id" value="([0-9A-Za-z]{24})"/.exec(html)?.[1] as string;
		expect(sendId).toBeDefined();
		const send = { _csrf: token, send_id: sendId, csv, position: "Analyst", skills: "" };
		const sent = await owner.post("/dashboard/interviews/bulk/send", send);
		// Post, redirect, get: the outcome has a page of its own, which a reload shows again.
		expect(sent.status).toBe(303);
		const outcomePage = sent.headers.get("Location") as string;
		expect(outcomePage).toBe(`/dashboard/interviews/bulk/sent/${sendId}`);
		const outcome = await owner.get(outcomePage);
		expect(outcome.status).toBe(200);
		expect(outcome.text).toContain("2 created, 1 refused");
		expect((await owner.get(outcomePage)).text).toContain("2 created, 1 refused");
		const total = async () =>
			(await call("GET", "/v1/interviews?position=Analyst", { key: a.live })).body.pagination?.total_count;
		expect(await total()).toBe(2);
		// The same form posted again (a resubmission, a second click) sends nothing more.
		const again = await owner.post("/dashboard/interviews/bulk/send", send);
		expect(again.status).toBe(303);
		expect(again.headers.get("Location")).toBe(outcomePage);
		expect(await total()).toBe(2);
		// Its id with another file is refused, and a form without one is out of date.
		const other = await owner.post("/dashboard/interviews/bulk/send", {
			...send,
			csv: "candidate_email\nx9@example.com\n",
		});
		expect(other.status).toBe(422);
		expect(other.text).toContain("This form was sent with another file.");
		const stale = await owner.post("/dashboard/interviews/bulk/send", { ...send, send_id: "" });
		expect(stale.status).toBe(422);
		expect(stale.text).toContain("This form is out of date.");
		expect(await total()).toBe(2);
		// Another account's user cannot see the outcome.
		const stranger = await signedIn((await dashboardAccount()).owner);
		expect((await stranger.get(outcomePage)).status).toBe(404);
	});

	it("gives the preview the upload form's id, so that a resubmitted preview sent again makes nothing more", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf();
		const uploadIdOf = (html: string) =>
			/action="\/dashboard\/interviews\/bulk" enctype="multipart\/form-data">[\s\S]*?name="form_id" value="([0-9A-Za-z]{24})"/.exec(
				html,
			)?.[1];
		const sendIdOf = (html: string) => /name="send_id" value="([0-9A-Za-z]{24})"/.exec(html)?.[1];
		const page = await owner.get("/dashboard/interviews/bulk");
		const uploadId = uploadIdOf(page.text) as string;
		expect(uploadId).toMatch(/^[0-9A-Za-z]{24}$/);
		// Each showing of the upload form has an id of its own.
		expect(uploadIdOf((await owner.get("/dashboard/interviews/bulk")).text)).not.toBe(uploadId);
		const csv = "candidate_email\nback1@example.com\nback2@example.com\n";
		const fields = { position: "Resubmitted", skills: "Go", form_id: uploadId };
		const preview = await previewBulk(owner, token, csv, fields);
		expect(preview.status).toBe(200);
		expect(sendIdOf(preview.text)).toBe(uploadId);
		// The preview page's own upload form, for another file, has a new id.
		expect(uploadIdOf(preview.text)).not.toBe(uploadId);
		const send = { _csrf: token, send_id: uploadId, csv, position: "Resubmitted", skills: "Go" };
		const sent = await owner.post("/dashboard/interviews/bulk/send", send);
		expect(sent.status).toBe(303);
		const total = async () =>
			(await call("GET", "/v1/interviews?position=Resubmitted", { key: a.live })).body.pagination
				?.total_count;
		expect(await total()).toBe(2);
		// Back from the outcome to the preview, whose post the browser sends again: the same send.
		const again = await previewBulk(owner, token, csv, fields);
		expect(sendIdOf(again.text)).toBe(uploadId);
		const resent = await owner.post("/dashboard/interviews/bulk/send", send);
		expect(resent.status).toBe(303);
		expect(resent.headers.get("Location")).toBe(sent.headers.get("Location"));
		expect(await total()).toBe(2);
		// A post without the id (a page from before it) still gets a send of its own.
		const { form_id: _, ...withoutId } = fields;
		const older = sendIdOf((await previewBulk(owner, token, csv, withoutId)).text);
		expect(older).toMatch(/^[0-9A-Za-z]{24}$/);
		expect(older).not.toBe(uploadId);
	});

	it("reloads the outcome's page by itself while its send is still running, and not once it is done", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf();
		const csv = "candidate_email\nwaiting@example.com\n";
		const preview = await previewBulk(owner, token, csv, { position: "Waiting", skills: "Go" });
		const sendId = /name="send_id" value="([0-9A-Za-z]{24})"/.exec(preview.text)?.[1] as string;
		const sent = await owner.post("/dashboard/interviews/bulk/send", {
			_csrf: token,
			send_id: sendId,
			csv,
			position: "Waiting",
			skills: "Go",
		});
		const outcomePage = sent.headers.get("Location") as string;
		const refresh = /<meta http-equiv="refresh" content="(\d+)"\/?>/;
		const done = await owner.get(outcomePage);
		expect(done.text).toContain("1 created, 0 refused");
		expect(done.text).not.toMatch(refresh);
		// The same send as another post still running sees it: its record without its outcome yet.
		const row = env.DB.prepare(
			"SELECT state, response_body AS body FROM idempotency_keys WHERE account_id = ? AND key = ?",
		).bind(a.id, `dashboard form:bulk-send:${sendId}`);
		const kept = (await row.first<{ state: string; body: string }>()) as { state: string; body: string };
		expect(kept.state).toBe("done");
		await env.DB.prepare(
			"UPDATE idempotency_keys SET state = 'in_flight', response_body = NULL WHERE account_id = ? AND key = ?",
		)
			.bind(a.id, `dashboard form:bulk-send:${sendId}`)
			.run();
		const running = await owner.get(outcomePage);
		expect(running.status).toBe(200);
		expect(running.text).toContain("These invitations are being sent.");
		expect(refresh.exec(running.text)?.[1]).toBe("2");
		await env.DB.prepare(
			"UPDATE idempotency_keys SET state = 'done', response_body = ? WHERE account_id = ? AND key = ?",
		)
			.bind(kept.body, a.id, `dashboard form:bulk-send:${sendId}`)
			.run();
		const after = await owner.get(outcomePage);
		expect(after.text).toContain("1 created, 0 refused");
		expect(after.text).not.toMatch(refresh);
	});

	it("shows a row with more cells than the header as that row's error, and sends the others", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf();
		const csv =
			"candidate_email,candidate_name,skills\nc1@example.com,One,Go\nc2@example.com,Two,Go,extra\nc3@example.com,Three,SQL\n";
		const preview = await previewBulk(owner, token, csv, { position: "Cells" }, "cells.csv");
		const html = preview.text;
		expect(preview.status).toBe(200);
		expect(html).toContain("2 of 3 rows are valid");
		expect(html).toContain("Has 4 cells; the header names 3.");
		const sendId = /name="send_id" value="([0-9A-Za-z]{24})"/.exec(html)?.[1] as string;
		const sent = await owner.post("/dashboard/interviews/bulk/send", {
			_csrf: token,
			send_id: sendId,
			csv,
			position: "Cells",
			skills: "",
		});
		expect(sent.status).toBe(303);
		const outcome = await owner.get(sent.headers.get("Location") as string);
		expect(outcome.text).toContain("2 created, 1 refused");
		expect(outcome.text).toContain("Has 4 cells; the header names 3.");
		// In the file's order: line 3 (the second row) is the refused one.
		const lines = [...outcome.text.matchAll(/<td>(\d+)<\/td>/g)].map((m) => Number(m[1]));
		expect(lines).toEqual([2, 3, 4]);
		const listed = await call("GET", "/v1/interviews?position=Cells", { key: a.live });
		expect(listed.body.data.map((i: { candidate_email: string }) => i.candidate_email).sort()).toEqual([
			"c1@example.com",
			"c3@example.com",
		]);
	});

	it("reads a CSV saved as UTF-8 or UTF-16, and says what is wrong with an empty or otherwise encoded file", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf();
		const check = (bytes: Uint8Array, name = "people.csv") =>
			previewBulk(owner, token, bytes, { position: "Encoded", skills: "Go" }, name);
		const csv = "candidate_email,candidate_name\nzoe@example.com,Zoë Ångström\n";
		const utf16le = (text: string, mark: boolean) => {
			const bytes = new Uint8Array((text.length + (mark ? 1 : 0)) * 2);
			const view = new DataView(bytes.buffer);
			if (mark) view.setUint16(0, 0xfeff, true);
			for (let i = 0; i < text.length; i++)
				view.setUint16((i + (mark ? 1 : 0)) * 2, text.charCodeAt(i), true);
			return bytes;
		};
		const utf16be = new Uint8Array([0xfe, 0xff, ...[...csv].flatMap((ch) => [0, ch.charCodeAt(0) & 0xff])]);
		for (const [label, bytes] of [
			["UTF-8", new TextEncoder().encode(csv)],
			["UTF-8 with its mark", new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(csv)])],
			["UTF-16LE with its mark", utf16le(csv, true)],
			["UTF-16BE with its mark", utf16be],
		] as const) {
			const res = await check(bytes);
			expect(res.status, label).toBe(200);
			expect(res.text, label).toContain("1 of 1 rows are valid");
			expect(res.text, label).toContain("zoe@example.com");
			expect(res.text, label).toContain("Zoë Ångström");
		}
		const notText = "The file is not UTF-8 text. In a spreadsheet, save it as &quot;CSV UTF-8&quot;";
		for (const [label, bytes] of [
			["UTF-16 without its mark", utf16le(csv, false)],
			[
				"Latin-1",
				new Uint8Array([
					...new TextEncoder().encode("candidate_email,candidate_name\nzoe@example.com,Zo"),
					0xeb,
				]),
			],
		] as const) {
			const res = await check(bytes);
			expect(res.status, label).toBe(422);
			expect(res.text, label).toContain(notText);
		}
		const empty = await check(new Uint8Array(0), "blank.csv");
		expect(empty.status).toBe(422);
		expect(empty.text).toContain("The file blank.csv is empty.");
	});

	it("changes only what the form changed: a time shown to the minute is no reschedule", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		// Seconds past the minute (as the API allows), and "now" with its milliseconds.
		const at = new Date(Date.now() + 3 * 86_400_000);
		at.setUTCSeconds(37, 0);
		const later = await call("POST", "/v1/interviews", {
			key: a.live,
			body: validInterview({ scheduled_at: at.toISOString() }),
		});
		const now = await call("POST", "/v1/interviews", { key: a.live, body: validInterview() });
		for (const created of [later, now]) {
			const id = created.body.data.id as string;
			const page = await owner.get(`/dashboard/interviews/${id}`);
			// The change form as the page fills it, with only the position changed.
			const form = changeFormOf(page.text);
			expect(form.scheduled_at).toBe((created.body.data.scheduled_at as string).slice(0, 16));
			const saved = await owner.post(`/dashboard/interviews/${id}/update`, {
				...form,
				_csrf: await owner.csrf(`/dashboard/interviews/${id}`),
				position: "Changed Position",
			});
			expect(saved.status, errorsOf(saved.text)).toBe(303);
			const fetched = (await call("GET", `/v1/interviews/${id}`, { key: a.live })).body.data;
			expect(fetched.position).toBe("Changed Position");
			expect(fetched.schedule.scheduled_at).toBe(created.body.data.scheduled_at);
			const events = await call("GET", `/v1/events?interview_id=${id}`, { key: a.live });
			const types = (events.body.data as { type: string }[]).map((e) => e.type);
			expect(types).toContain("interview.updated");
			expect(types).not.toContain("interview.rescheduled");
		}
		// Another minute is a reschedule.
		const id = later.body.data.id as string;
		const next = new Date(at.getTime() + 60 * 60_000).toISOString().slice(0, 16);
		const moved = await owner.post(`/dashboard/interviews/${id}/update`, {
			_csrf: await owner.csrf(`/dashboard/interviews/${id}`),
			scheduled_at: next,
		});
		expect(moved.status, errorsOf(moved.text)).toBe(303);
		expect((await call("GET", `/v1/interviews/${id}`, { key: a.live })).body.data.schedule.scheduled_at).toBe(
			`${next}:00.000Z`,
		);
	});

	it("creates with a company name, and changes difficulty, company and instructions, e-mailing only when asked", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf();
		const form = await owner.get("/dashboard/interviews/new");
		expect(form.text).toMatch(/name="company_name"[^>]*placeholder="Acme Testing"/);
		const create = async (extra: Record<string, string>) => {
			const made = await owner.post("/dashboard/interviews/new", {
				_csrf: token,
				form_id: await owner.formId("/dashboard/interviews/new"),
				candidate_email: "edith@example.com",
				position: "Data Engineer",
				skills: "SQL",
				send_invitation: "true",
				...extra,
			});
			expect(made.status, errorsOf(made.text)).toBe(303);
			return /interviews\/(int_[0-9A-Za-z]+)/.exec(made.headers.get("Location") ?? "")?.[1] as string;
		};
		const read = async (id: string) => (await call("GET", `/v1/interviews/${id}`, { key: a.live })).body.data;
		expect((await read(await create({}))).company_name).toBe("Acme Testing");
		const id = await create({
			company_name: "  Initech Labs ",
			instructions: "Ask about joins.\r\nThen indexes.",
		});
		const made = await read(id);
		expect(made.company_name).toBe("Initech Labs");
		expect(made.instructions).toBe("Ask about joins.\nThen indexes.");
		const emailsOf = async (of: string) =>
			(
				await env.DB.prepare(
					"SELECT template FROM candidate_emails WHERE interview_id = ? ORDER BY created_at",
				)
					.bind(of)
					.all<{ template: string }>()
			).results.map((r) => r.template);
		const emails = () => emailsOf(id);
		expect(await emails()).toEqual(["invitation"]);

		const page = await owner.get(`/dashboard/interviews/${id}`);
		expect(page.text).toMatch(/<select[^>]*name="difficulty"/);
		expect(page.text).toContain('name="send_notification" value="false"');
		const update = (body: Record<string, string | string[]>) =>
			owner.post(`/dashboard/interviews/${id}/update`, { _csrf: token, ...body });
		// The box unticked sends only its hidden "false": saved, and no e-mail.
		const quiet = await update({
			difficulty: "senior",
			instructions: "Ask about joins.\r\nThen indexes.\r\nThen locks.",
			company_name: "Initech Labs",
			send_notification: "false",
		});
		expect(quiet.status, errorsOf(quiet.text)).toBe(303);
		const changed = await read(id);
		expect(changed.difficulty).toBe("senior");
		expect(changed.instructions).toBe("Ask about joins.\nThen indexes.\nThen locks.");
		expect(await emails()).toEqual(["invitation"]);
		// The same text with the browser's CRLF, and an emptied company name, are no change.
		const same = await update({
			instructions: "Ask about joins.\r\nThen indexes.\r\nThen locks.",
			company_name: "",
			send_notification: ["false", "true"],
		});
		expect(same.status).toBe(422);
		expect(same.text).toContain("Nothing was changed.");
		// Ticked ("false" then "true"): the candidate is told.
		const told = await update({ company_name: "Globex", send_notification: ["false", "true"] });
		expect(told.status, errorsOf(told.text)).toBe(303);
		expect((await read(id)).company_name).toBe("Globex");
		expect(await emails()).toEqual(["invitation", "update"]);
		// Emptied instructions are removed.
		expect((await update({ instructions: "", send_notification: "false" })).status).toBe(303);
		expect((await read(id)).instructions).toBe("");
		// The cancel form's box works the same way.
		expect(page.text).toMatch(/<input id="c-notify" name="send_notification"/);
		const quietCancel = await owner.post(`/dashboard/interviews/${id}/cancel`, {
			_csrf: token,
			send_notification: "false",
		});
		expect(quietCancel.status, errorsOf(quietCancel.text)).toBe(303);
		expect((await read(id)).status).toBe("cancelled");
		expect(await emails()).toEqual(["invitation", "update"]);
		const other = await create({});
		const toldCancel = await owner.post(`/dashboard/interviews/${other}/cancel`, {
			_csrf: token,
			send_notification: ["false", "true"],
		});
		expect(toldCancel.status, errorsOf(toldCancel.text)).toBe(303);
		expect(await emailsOf(other)).toEqual(["invitation", "cancellation"]);
		// The page it leads to says what happened: cancelled, its live credit given back.
		const cancelled = await owner.get(toldCancel.headers.get("location") as string);
		expect(cancelled.text).toContain("Interview cancelled. 1 credit refunded.");
		expect(cancelled.text).not.toContain("Changes saved.");
	});

	it("changes only the company and the instructions of an interview in progress", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf();
		const { id } = await startInterview(a.test);
		const page = await owner.get(`/dashboard/interviews/${id}`);
		const form = /<form method="post" action="[^"]*\/update">([\s\S]*?)<\/form>/.exec(page.text)?.[1] ?? "";
		expect(form).toContain('name="company_name"');
		expect(form).toContain('name="instructions"');
		for (const name of ["scheduled_at", "position", "difficulty", "send_notification"])
			expect(form).not.toContain(`name="${name}"`);
		const saved = await owner.post(`/dashboard/interviews/${id}/update`, {
			_csrf: token,
			company_name: "Umbrella",
			instructions: "Keep it short.",
		});
		expect(saved.status, errorsOf(saved.text)).toBe(303);
		const data = (await call("GET", `/v1/interviews/${id}`, { key: a.test })).body.data;
		expect(data.company_name).toBe("Umbrella");
		expect(data.instructions).toBe("Keep it short.");
		// A field the page does not offer is refused as the API refuses it, and nothing changes.
		const refused = await owner.post(`/dashboard/interviews/${id}/update`, {
			_csrf: token,
			position: "Another",
			company_name: "Other Co",
		});
		expect(refused.status).toBe(422);
		const after = (await call("GET", `/v1/interviews/${id}`, { key: a.test })).body.data;
		expect(after.position).toBe(data.position);
		expect(after.company_name).toBe("Umbrella");
		// Instructions in progress can only grow, as the API says in words.
		const cut = await owner.post(`/dashboard/interviews/${id}/update`, {
			_csrf: token,
			instructions: "Other.",
		});
		expect(cut.status).toBe(422);
		expect(cut.text).toContain("instructions can only be extended");
	});

	it("sends the rows of parallel posts of one bulk form once", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf();
		const position = `Parallel ${Date.now()}`;
		const csv = "candidate_email\np1@example.com\np2@example.com\n";
		const send = { _csrf: token, send_id: "A".repeat(24), csv, position, skills: "Go" };
		const answers = await Promise.all(
			Array.from({ length: 5 }, () => owner.post("/dashboard/interviews/bulk/send", send)),
		);
		for (const answer of answers) expect(answer.status, errorsOf(answer.text)).toBe(303);
		const list = await call("GET", `/v1/interviews?position=${encodeURIComponent(position)}`, {
			key: a.live,
		});
		expect(list.body.pagination?.total_count).toBe(2);
		expect((await owner.get(`/dashboard/interviews/bulk/sent/${"A".repeat(24)}`)).text).toContain(
			"2 created, 0 refused",
		);
	});
});

describe("a refused form", () => {
	it("comes back as it was typed: an interview's change, an endpoint's edit, an invitation", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf();
		const created = await call("POST", "/v1/interviews", { key: a.live, body: validInterview() });
		const id = created.body.data.id as string;
		const change = await owner.post(`/dashboard/interviews/${id}/update`, {
			_csrf: token,
			position: "Typed Position",
			duration_minutes: "999",
			reschedule_reason: "typed reason",
		});
		expect(change.status).toBe(422);
		expect(change.text).toContain("Nothing was changed.");
		for (const value of ["Typed Position", "999", "typed reason"])
			expect(change.text).toContain(`value="${value}"`);
		expect((await call("GET", `/v1/interviews/${id}`, { key: a.live })).body.data.position).toBe(
			created.body.data.position,
		);
		const hook = await call("POST", "/v1/webhooks", {
			key: a.live,
			body: { url: "https://hooks.example.com/kept", events: ["*"] },
		});
		const edit = await owner.post(`/dashboard/settings/webhooks/${hook.body.data.id}/edit`, {
			_csrf: token,
			url: "https://hooks.example.com/typed",
			events: "bogus",
		});
		expect(edit.status).toBe(422);
		expect(edit.text).toContain('value="https://hooks.example.com/typed"');
		const invite = await owner.post("/dashboard/team", {
			_csrf: token,
			email: "typed@example.com",
			role: "boss",
		});
		expect(invite.status).toBe(422);
		expect(invite.text).toContain('value="typed@example.com"');
		// Errors name the form's own fields: a list's item is its field, a date bound its form name.
		const skill = await owner.post("/dashboard/interviews/new", {
			_csrf: token,
			form_id: await owner.formId("/dashboard/interviews/new"),
			candidate_email: "skills@example.com",
			position: "Skills",
			skills: "x".repeat(101),
		});
		expect(skill.status).toBe(422);
		expect(skill.text).toContain("<strong>skills</strong>");
		expect(skill.text).not.toContain("skills.0");
		for (const [query, name] of [
			["created_from=garbage", "created_from"],
			["created_from=2020-02-31", "created_from"],
			["scheduled_to=%ff", "scheduled_to"],
		]) {
			const list = await owner.get(`/dashboard/interviews?${query}`);
			expect(list.text, query).toContain("Some filters are not valid.");
			expect(list.text, query).toContain(`<strong>${name}</strong>`);
			expect(list.text, query).not.toMatch(/created_after|scheduled_before/);
		}
		// A rotation form without the secret's version is out of date, not "rotated since".
		const rotate = await owner.post("/dashboard/settings/webhooks/secret/rotate", { _csrf: token });
		expect(rotate.status).toBe(409);
		expect(rotate.text).toContain("This form is out of date: nothing was rotated.");
	});
});

describe("a form holding a control character", () => {
	it("is refused before anything is changed, naming the field, as the API refuses such text", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf();
		const count = async (position: string) =>
			(await call("GET", `/v1/interviews?position=${encodeURIComponent(position)}`, { key: a.live })).body
				.pagination?.total_count;
		const made = await owner.post("/dashboard/interviews/new", {
			_csrf: token,
			form_id: await owner.formId("/dashboard/interviews/new"),
			candidate_email: "nul@example.com",
			position: "Control\u0000Position",
			skills: "SQL",
			test_mode: "true",
		});
		expect(made.status).toBe(422);
		expect(made.text).toContain("The field &quot;position&quot; holds a control character");
		expect(made.text).not.toContain("\u0000");
		expect(await count("Control")).toBe(0);
		const key = await owner.post("/dashboard/settings/api-keys", {
			_csrf: token,
			form_id: await owner.formId("/dashboard/settings/api-keys"),
			name: "esc\u001b",
			environment: "test",
			scopes: "interviews:read",
		});
		expect(key.status).toBe(422);
		const keys = (await admin("GET", `/accounts/${a.id}`)).body.data.keys as { name: string }[];
		expect(keys.some((k) => k.name.startsWith("esc"))).toBe(false);
		// An existing interview's change and cancellation: nothing changed.
		const created = await call("POST", "/v1/interviews", { key: a.live, body: validInterview() });
		const id = created.body.data.id as string;
		for (const [path, form] of [
			[`/dashboard/interviews/${id}/update`, { position: "Up\u0001" }],
			[`/dashboard/interviews/${id}/cancel`, { reason: "a\u0000b" }],
		] as const) {
			const res = await owner.post(path, { _csrf: token, ...form });
			expect(res.status, path).toBe(422);
		}
		const after = (await call("GET", `/v1/interviews/${id}`, { key: a.live })).body.data;
		expect([after.status, after.position]).toEqual(["scheduled", created.body.data.position]);
		// The bulk file names its own problems, without echoing a header's control characters.
		const preview = await owner.post("/dashboard/interviews/bulk/send", {
			_csrf: token,
			send_id: "C".repeat(24),
			csv: "candidate_email,na\u0000me\nx@example.com,y\n",
			position: "Analyst",
			skills: "SQL",
		});
		expect(preview.text).toContain("Unknown columns: na\uFFFDme");
		expect(preview.text).not.toContain("\u0000");
		// Tab, line feed and carriage return are text.
		const fine = await owner.post(`/dashboard/interviews/${id}/cancel`, {
			_csrf: token,
			reason: "one\r\ntwo\tthree",
		});
		expect(fine.status).toBe(303);
	});
});

describe("the dev sandbox", () => {
	it("shows dev keys' interviews behind a switch of their own, and changes, creates and watches them as dev data", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf();
		const made = await call("POST", "/v1/interviews", {
			key: a.dev,
			body: validInterview({ position: "Sandbox Made" }),
		});
		expect(made.status).toBe(201);
		const id = made.body.data.id as string;
		const live = await call("POST", "/v1/interviews", {
			key: a.live,
			body: validInterview({ position: "Sandbox Live" }),
		});
		const liveId = live.body.data.id as string;
		// The link the API gives for a dev interview opens its page, labelled as the sandbox's.
		const fetched = await call("GET", `/v1/interviews/${id}`, { key: a.dev });
		const page = await owner.get(new URL(fetched.body.data.urls.dashboard_url).pathname);
		expect(page.status).toBe(200);
		expect(page.text).toContain('id="dev-banner"');
		expect(page.text).toContain('href="/dashboard/interviews?mode=dev"');
		// Labelled as the sandbox's, not as a test interview (its interviews are test-mode too).
		expect(page.text).toContain("<title>Dev sandbox interview with");
		expect(page.text).toContain("(dev sandbox)");
		expect(page.text).not.toContain("data-test-label");
		// Each view lists its own data only.
		const sandbox = await owner.get("/dashboard/interviews?mode=dev&position=sandbox");
		expect(sandbox.text).toContain("1 dev sandbox interview matches.");
		expect(sandbox.text).toContain(id);
		expect(sandbox.text).not.toContain(liveId);
		expect(sandbox.text).toContain('<input type="hidden" name="mode" value="dev"/>');
		expect(sandbox.text).toContain('href="/dashboard/interviews/new?mode=dev"');
		for (const path of [
			"/dashboard/interviews?position=sandbox",
			"/dashboard/interviews?mode=test&position=sandbox",
		]) {
			expect((await owner.get(path)).text).not.toContain(id);
		}
		expect((await owner.get("/dashboard/interviews?position=sandbox")).text).toContain(liveId);
		// A change is made in the dev data, as a dev key makes it.
		const saved = await owner.post(`/dashboard/interviews/${id}/update`, {
			_csrf: token,
			position: "Sandbox Changed",
		});
		expect(saved.status, errorsOf(saved.text)).toBe(303);
		expect((await call("GET", `/v1/interviews/${id}`, { key: a.dev })).body.data.position).toBe(
			"Sandbox Changed",
		);
		const events = await call("GET", `/v1/events?interview_id=${id}`, { key: a.dev });
		expect((events.body.data as { type: string }[]).map((e) => e.type)).toContain("interview.updated");
		// The sandbox's form creates in the sandbox.
		const created = await owner.post("/dashboard/interviews/new", {
			_csrf: token,
			form_id: await owner.formId("/dashboard/interviews/new?mode=dev", "/dashboard/interviews/new"),
			mode: "dev",
			candidate_email: "sandbox@example.com",
			position: "Sandbox Form",
			skills: "SQL",
		});
		expect(created.status, errorsOf(created.text)).toBe(303);
		const newId = /int_[0-9A-Za-z]{24}/.exec(created.headers.get("Location") ?? "")?.[0] as string;
		expect((await call("GET", `/v1/interviews/${newId}`, { key: a.dev })).status).toBe(200);
		expect((await call("GET", `/v1/interviews/${newId}`, { key: a.live })).status).toBe(404);
		// Watched live: the observer ticket carries the interview's environment.
		await call("POST", `/v1/interviews/${newId}/test/advance`, { key: a.dev, body: { to: "in_progress" } });
		const ticketed = await owner.post(`/dashboard/interviews/${newId}/live-ticket`, { _csrf: token });
		expect(ticketed.status).toBe(200);
		const ticket = new URL(JSON.parse(ticketed.text).url).searchParams.get("token") as string;
		const opened = await connect(newId, ticket);
		expect(opened.status).toBe(101);
		opened.room?.close();
		// Cancelled from its page, in the dev data.
		const cancelled = await owner.post(`/dashboard/interviews/${id}/cancel`, { _csrf: token });
		expect(cancelled.status, errorsOf(cancelled.text)).toBe(303);
		expect((await call("GET", `/v1/interviews/${id}`, { key: a.dev })).body.data.status).toBe("cancelled");
		// Another account's user sees none of it.
		const stranger = await signedIn((await dashboardAccount()).owner);
		expect((await stranger.get(`/dashboard/interviews/${id}`)).status).toBe(404);
		expect((await stranger.get("/dashboard/interviews?mode=dev")).text).not.toContain(id);
	});
});

describe("the settings pages' paging", () => {
	it("shows an account's keys and users 50 at a time, each once", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		for (let i = 0; i < 53; i++) {
			const made = await admin("POST", `/accounts/${a.id}/keys`, { name: `Paged ${i}`, environment: "test" });
			expect(made.status).toBe(201);
		}
		for (let i = 0; i < 50; i++) {
			const made = await admin("POST", `/accounts/${a.id}/users`, {
				email: `paged.${i}.${Date.now()}@example.com`,
				role: "member",
				invite: true,
			});
			expect(made.status).toBe(201);
		}
		const allKeys = ((await admin("GET", `/accounts/${a.id}`)).body.data.keys as { id: string }[]).map(
			(k) => k.id,
		);
		expect(allKeys.length).toBeGreaterThan(53);
		const readAll = async (first: string, ids: RegExp) => {
			const pages: string[][] = [];
			let path: string | undefined = first;
			for (let n = 0; path && n < 5; n++) {
				const page = await owner.get(path);
				expect(page.status).toBe(200);
				pages.push([...page.text.matchAll(ids)].map((m) => m[1] as string));
				expect(page.text.includes(">First page</a>")).toBe(n > 0);
				path = /href="([^"]*cursor=[^"]+)" rel="next"/.exec(page.text)?.[1]?.replaceAll("&amp;", "&");
			}
			return pages;
		};
		const keyPages = await readAll("/dashboard/settings/api-keys", /data-key-id="(key_[0-9A-Za-z]+)"/g);
		expect(keyPages.map((p) => p.length)).toEqual([50, allKeys.length - 50]);
		expect(keyPages.flat().sort()).toEqual([...allKeys].sort());
		// Newest first, as the admin API lists them.
		expect(keyPages.flat()).toEqual(allKeys);
		const userPages = await readAll("/dashboard/team", /aria-label="Remove ([^"]+)"/g);
		// The owner (signed in, no Remove button of their own) and the 50 invited.
		expect(userPages.map((p) => p.length)).toEqual([49, 1]);
		expect(new Set(userPages.flat()).size).toBe(50);
		// A cursor of another list, or none that can be read, is the first page.
		const next = /href="[^"]*cursor=([^"&]+)" rel="next"/.exec(
			(await owner.get("/dashboard/team")).text,
		)?.[1];
		const crossed = await owner.get(`/dashboard/settings/api-keys?cursor=${next}`);
		expect([...crossed.text.matchAll(/data-key-id="(key_[0-9A-Za-z]+)"/g)].map((m) => m[1])).toEqual(
			allKeys.slice(0, 50),
		);
		expect((await owner.get("/dashboard/team?cursor=%%%")).status).toBe(200);
	});
});

describe("a create form sent again", () => {
	const profile = async (key: string) => (await call("GET", "/v1/account/profile", { key })).body.data;

	it("creates one interview per form: parallel sends, a resend, other values, no id", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf();
		const position = `Once ${Date.now()}`;
		const count = async () =>
			(await call("GET", `/v1/interviews?position=${encodeURIComponent(position)}`, { key: a.live })).body
				.pagination?.total_count;
		const before = await profile(a.live);
		const form = {
			_csrf: token,
			form_id: await owner.formId("/dashboard/interviews/new"),
			candidate_email: "once@example.com",
			position,
			skills: "SQL",
			send_invitation: "true",
		};
		const answers = await Promise.all(
			Array.from({ length: 4 }, () => owner.post("/dashboard/interviews/new", form)),
		);
		const firsts = answers.filter((r) => r.headers.get("Location")?.endsWith("?created=1"));
		expect(firsts).toHaveLength(1);
		for (const r of answers) {
			if (r.status === 409) expect(r.text).toContain("This form is being sent.");
			else expect(r.status, errorsOf(r.text)).toBe(303);
		}
		expect(await count()).toBe(1);
		const id = /int_[0-9A-Za-z]{24}/.exec(firsts[0]?.headers.get("Location") ?? "")?.[0] as string;
		// A live interview: one credit and one month's interview, whatever the sends.
		const after = await profile(a.live);
		expect(before.credits_balance - after.credits_balance).toBe(1);
		expect(after.usage.monthly_interviews_used - before.usage.monthly_interviews_used).toBe(1);
		// Sent again later (a reload, the back button): led to what it created.
		const resent = await owner.post("/dashboard/interviews/new", form);
		expect(resent.status).toBe(303);
		expect(resent.headers.get("Location")).toBe(`/dashboard/interviews/${id}?created=again`);
		expect((await owner.get(resent.headers.get("Location") as string)).text).toContain(
			"This form was already sent: this is the interview it created.",
		);
		// Changed after going back: refused, with the values kept in a new form that sends them.
		const changed = await owner.post("/dashboard/interviews/new", {
			...form,
			candidate_email: "two@example.com",
		});
		expect(changed.status).toBe(409);
		expect(changed.text).toContain("This form was already sent with other values.");
		expect(changed.text).toContain('value="two@example.com"');
		const fresh = /name="form_id" value="([0-9A-Za-z]{24})"/.exec(changed.text)?.[1] as string;
		expect(fresh).not.toBe(form.form_id);
		expect(await count()).toBe(1);
		const other = await owner.post("/dashboard/interviews/new", {
			...form,
			form_id: fresh,
			candidate_email: "two@example.com",
		});
		expect(other.status, errorsOf(other.text)).toBe(303);
		expect(await count()).toBe(2);
		// An API caller cannot take a form's id: the store's place for it is no Idempotency-Key.
		const taken = await call("POST", "/v1/interviews", {
			key: a.live,
			body: validInterview(),
			headers: { "Idempotency-Key": `dashboard form:interview:${fresh}` },
		});
		expect(taken.status).toBe(400);
		// A form without an id (a page from before forms had one) sends nothing.
		const { form_id: _, ...stale } = form;
		const refused = await owner.post("/dashboard/interviews/new", stale);
		expect(refused.status).toBe(409);
		expect(refused.text).toContain("This form is out of date.");
		expect(await count()).toBe(2);
		// A form refused for its values is not taken: fixed, it sends with the same id.
		const idOfFix = await owner.formId("/dashboard/interviews/new");
		const bad = await owner.post("/dashboard/interviews/new", { ...form, form_id: idOfFix, skills: "" });
		expect(bad.status).toBe(422);
		expect(bad.text).toContain(`name="form_id" value="${idOfFix}"`);
		const fixed = await owner.post("/dashboard/interviews/new", { ...form, form_id: idOfFix });
		expect(fixed.headers.get("Location")).toMatch(/\?created=1$/);
		expect(await count()).toBe(3);
		// Another account's form id is its own: the same id there creates.
		const b = await dashboardAccount();
		const stranger = await signedIn(b.owner);
		const theirs = await stranger.post("/dashboard/interviews/new", {
			...form,
			_csrf: await stranger.csrf(),
		});
		expect(theirs.headers.get("Location")).toMatch(/\?created=1$/);
	});

	it("makes one key per form, whose value is never shown again", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf("/dashboard/settings/api-keys");
		const form = {
			_csrf: token,
			form_id: await owner.formId("/dashboard/settings/api-keys"),
			name: "Once",
			environment: "test",
			scopes: ["interviews:read"],
		};
		const made = await owner.post("/dashboard/settings/api-keys", form);
		expect(made.status).toBe(201);
		const value = /(svc_test_[0-9A-Za-z]{32})/.exec(made.text)?.[1] as string;
		expect(value).toBeDefined();
		// The page after it has a new form, with an id of its own.
		expect(made.text).not.toContain(`value="${form.form_id}"`);
		const again = await owner.post("/dashboard/settings/api-keys", form);
		expect(again.status).toBe(409);
		expect(again.text).toContain(
			"This form was already sent: it created the key &quot;Once&quot;, listed below.",
		);
		expect(again.text).not.toMatch(/svc_test_[0-9A-Za-z]{32}/);
		const names = async () =>
			((await admin("GET", `/accounts/${a.id}`)).body.data.keys as { name: string }[]).filter(
				(k) => k.name === "Once",
			).length;
		expect(await names()).toBe(1);
		const parallel = { ...form, form_id: await owner.formId("/dashboard/settings/api-keys"), name: "Twice" };
		const answers = await Promise.all(
			Array.from({ length: 4 }, () => owner.post("/dashboard/settings/api-keys", parallel)),
		);
		expect(
			answers.filter((r) => r.status === 201),
			answers.map((r) => `${r.status} ${errorsOf(r.text)}`).join("\n"),
		).toHaveLength(1);
		for (const r of answers) expect([201, 409]).toContain(r.status);
		const keys = (await admin("GET", `/accounts/${a.id}`)).body.data.keys as { name: string }[];
		expect(keys.filter((k) => k.name === "Twice")).toHaveLength(1);
		// No key's value is kept in the store that guards the form.
		const stored = await env.DB.prepare(
			"SELECT response_body FROM idempotency_keys WHERE key LIKE 'dashboard form:api-key:%'",
		).all();
		expect(JSON.stringify(stored.results)).not.toContain("svc_");
		// Other values under the same id: refused, kept in a new form.
		const changed = await owner.post("/dashboard/settings/api-keys", { ...form, name: "Changed" });
		expect(changed.status).toBe(409);
		expect(changed.text).toContain("This form was already sent with other values.");
		expect(changed.text).toContain('value="Changed"');
	});

	it("adds one webhook endpoint per form", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const form = {
			_csrf: await owner.csrf("/dashboard/settings/webhooks"),
			form_id: await owner.formId("/dashboard/settings/webhooks"),
			url: "https://hooks.example.com/once",
			events: ["interview.completed"],
		};
		const answers = await Promise.all(
			Array.from({ length: 3 }, () => owner.post("/dashboard/settings/webhooks", form)),
		);
		expect(answers.filter((r) => r.headers.get("Location")?.endsWith("?created=1"))).toHaveLength(1);
		for (const r of answers) expect([303, 409]).toContain(r.status);
		const again = await owner.post("/dashboard/settings/webhooks", form);
		expect(again.status).toBe(303);
		expect(again.headers.get("Location")).toMatch(
			/\/dashboard\/settings\/webhooks\/wh_[0-9A-Za-z]+\?created=again$/,
		);
		expect((await owner.get(again.headers.get("Location") as string)).text).toContain(
			"This form was already sent: this is the endpoint it added.",
		);
		const listed = await call("GET", "/v1/webhooks", { key: a.live });
		expect(listed.body.data).toHaveLength(1);
	});
});

describe("the live view's observer ticket", () => {
	it("opens the observer channel for its interview once, and no other", async () => {
		const a = await dashboardAccount();
		const created = await call("POST", "/v1/interviews", { key: a.test, body: validInterview() });
		const id = created.body.data.id as string;
		await call("POST", `/v1/interviews/${id}/test/advance`, { key: a.test, body: { to: "in_progress" } });
		const other = await call("POST", "/v1/interviews", { key: a.test, body: validInterview() });
		const owner = await signedIn(a.owner);
		const token = await owner.csrf();
		const issue = async (interview: string) => {
			const res = await owner.post(`/dashboard/interviews/${interview}/live-ticket`, { _csrf: token });
			expect(res.status).toBe(200);
			return new URL(JSON.parse(res.text).url).searchParams.get("token") as string;
		};
		const ticket = await issue(id);
		expect(ticket).toMatch(/^obt_/);
		const opened = await connect(id, ticket);
		expect(opened.status).toBe(101);
		opened.room?.close();
		const reused = await connect(id, ticket);
		expect(reused.status).toBe(401);
		const elsewhere = await connect(other.body.data.id, await issue(id));
		expect(elsewhere.status).toBe(401);
		const rows = await env.DB.prepare("SELECT * FROM observer_tickets").all();
		expect(JSON.stringify(rows.results)).not.toContain(ticket);
	});
});

describe("team", () => {
	it("invites a member whose link sets a password once", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf("/dashboard/team");
		const email = `member.${Date.now()}@example.com`;
		const made = await owner.post("/dashboard/team", { _csrf: token, email, role: "member" });
		expect(made.status).toBe(201);
		const link = /(http:\/\/service\.test\/dashboard\/invitation#[0-9A-Za-z]+)/.exec(
			made.text,
		)?.[1] as string;
		const { pathname: path, hash } = new URL(link);
		const invite = hash.slice(1);
		const { Browser } = await import("../support/dashboard-helpers");
		const invitee = new Browser();
		expect((await invitee.get(path)).status).toBe(200);
		const short = await invitee.post(path, { token: invite, password: "short", confirm: "short" });
		expect(short.status).toBe(422);
		const wrong = await invitee.post(path, {
			token: `${invite.slice(0, -1)}${invite.endsWith("x") ? "y" : "x"}`,
			password: "a long enough secret",
			confirm: "a long enough secret",
		});
		expect(wrong.status).toBe(404);
		const set = await invitee.post(path, {
			token: invite,
			password: "a long enough secret",
			confirm: "a long enough secret",
		});
		expect(set.status).toBe(303);
		expect((await invitee.get("/dashboard/settings/api-keys")).status).toBe(403);
		expect(
			(await new Browser().post(path, { token: invite, password: "x".repeat(12), confirm: "x".repeat(12) }))
				.status,
		).toBe(404);
		const member = await signedIn({ email, password: "a long enough secret" });
		expect((await member.get("/dashboard/interviews")).status).toBe(200);
	});
});

describe("team invitations", () => {
	it("names the role when it is not one of the roles", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf("/dashboard/team");
		const email = `member.${Date.now()}@example.com`;
		const refused = await owner.post("/dashboard/team", { _csrf: token, email, role: "admin" });
		expect(refused.status).toBe(422);
		expect(refused.text).toContain("<strong>role</strong>");
		expect(refused.text).toContain("Must be one of owner, member");
		expect(refused.text).not.toContain("Must be a valid e-mail address");
	});

	it("sets one password when one link is posted twice at once; the other post finds it used", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf("/dashboard/team");
		const email = `racer.${Date.now()}@example.com`;
		const made = await owner.post("/dashboard/team", { _csrf: token, email, role: "member" });
		const invite = /\/dashboard\/invitation#([0-9A-Za-z]+)/.exec(made.text)?.[1] as string;
		const { Browser } = await import("../support/dashboard-helpers");
		const passwords = ["the first long secret", "the second long secret"];
		const answers = await Promise.all(
			passwords.map((password) =>
				new Browser().post("/dashboard/invitation", { token: invite, password, confirm: password }),
			),
		);
		expect(answers.map((r) => r.status).sort()).toEqual([303, 404]);
		const winner = passwords[answers.findIndex((r) => r.status === 303)] as string;
		const loser = passwords.find((p) => p !== winner) as string;
		expect((await new Browser().signIn(email, winner)).status).toBe(303);
		expect((await new Browser().signIn(email, loser)).status).toBe(401);
	});
});

describe("webhooks pages", () => {
	it("labels an endpoint registered with a test key, which the owner may still change", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const made = await call("POST", "/v1/webhooks", {
			key: a.test,
			body: { url: "https://hooks.example.com/staging", events: ["*"] },
		});
		const live = await call("POST", "/v1/webhooks", {
			key: a.live,
			body: { url: "https://hooks.example.com/prod", events: ["*"] },
		});
		const list = await owner.get("/dashboard/settings/webhooks");
		const row = (url: string) =>
			new RegExp(`<tr>(?:(?!</tr>)[\\s\\S])*${url}(?:(?!</tr>)[\\s\\S])*</tr>`).exec(list.text)?.[0];
		expect(row("https://hooks.example.com/staging")).toContain("data-test-label");
		expect(row("https://hooks.example.com/prod")).not.toContain("data-test-label");
		const page = await owner.get(`/dashboard/settings/webhooks/${made.body.data.id}`);
		expect(page.text).toContain("Registered with a test key: it receives only test-mode events.");
		const livePage = await owner.get(`/dashboard/settings/webhooks/${live.body.data.id}`);
		expect(livePage.text).not.toContain("Registered with a test key");
		const toggled = await owner.post(`/dashboard/settings/webhooks/${made.body.data.id}/toggle`, {
			_csrf: await owner.csrf(),
			active: "false",
		});
		expect(toggled.status, errorsOf(toggled.text)).toBe(303);
		const after = await call("GET", `/v1/webhooks/${made.body.data.id}`, { key: a.live });
		expect(after.body.data).toMatchObject({ active: false, test_mode: true });
	});

	it("rotates the signing secret once per page shown: the same form sent twice keeps the overlap", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const secretOf = async () =>
			(
				await env.DB.prepare("SELECT webhook_secret AS s FROM accounts WHERE id = ?")
					.bind(a.id)
					.first<{ s: string }>()
			)?.s as string;
		const original = await secretOf();
		const page = await owner.get("/dashboard/settings/webhooks");
		const version = /name="secret_version" value="([0-9a-f]{24})"/.exec(page.text)?.[1] as string;
		expect(version).toBeDefined();
		expect(page.text).not.toContain(original);
		const form = { _csrf: await owner.csrf("/dashboard/settings/webhooks"), secret_version: version };
		const rotated = await owner.post("/dashboard/settings/webhooks/secret/rotate", form);
		expect(rotated.status).toBe(200);
		const current = await secretOf();
		expect(current).not.toBe(original);
		expect(rotated.text).toContain(current);
		// The same form again (a reload's resubmission): nothing is rotated, the original still signs.
		const again = await owner.post("/dashboard/settings/webhooks/secret/rotate", form);
		expect(again.status).toBe(409);
		expect(again.text).toContain("nothing was rotated now");
		expect(await secretOf()).toBe(current);
		const previous = await env.DB.prepare("SELECT secret FROM webhook_previous_secrets WHERE account_id = ?")
			.bind(a.id)
			.first<{ secret: string }>();
		expect(previous?.secret).toBe(original);
		// The page shown after the rotation rotates once more.
		const next = await owner.get("/dashboard/settings/webhooks");
		const nextVersion = /name="secret_version" value="([0-9a-f]{24})"/.exec(next.text)?.[1] as string;
		expect(nextVersion).not.toBe(version);
		const third = await owner.post("/dashboard/settings/webhooks/secret/rotate", {
			...form,
			secret_version: nextVersion,
		});
		expect(third.status).toBe(200);
		expect(await secretOf()).not.toBe(current);
	});

	it("adds an endpoint through the API's URL rules and sends a test event", async () => {
		// The test event is sent at once: to the suite's receiver on 127.0.0.1, which development's
		// URL rules take, so that nothing leaves the machine.
		const rx = receiver();
		const route = `dash-test-event-${crypto.randomUUID()}`;
		const url = await rx.route(route);
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf("/dashboard/settings/webhooks");
		const refused = await owner.post("/dashboard/settings/webhooks", {
			_csrf: token,
			form_id: await owner.formId("/dashboard/settings/webhooks"),
			url: "http://169.254.169.254/latest",
			events: "*",
		});
		expect(refused.status).toBe(422);
		expect(refused.text).toContain("<strong>url</strong>");
		const added = await owner.post("/dashboard/settings/webhooks", {
			_csrf: token,
			form_id: await owner.formId("/dashboard/settings/webhooks"),
			url,
			events: ["interview.completed", "results.analyzed"],
		});
		expect(added.status).toBe(303);
		const path = (added.headers.get("Location") as string).split("?")[0] as string;
		const listed = await call("GET", "/v1/webhooks", { key: a.live });
		expect(listed.body.data[0].events).toEqual(["interview.completed", "results.analyzed"]);
		const sent = await owner.post(`${path}/test`, { _csrf: token });
		expect(sent.status).toBe(303);
		const page = await owner.get(sent.headers.get("Location") as string);
		expect(page.text).toMatch(/Test event sent: \w+\./);
		expect(page.text).toContain("webhook.test");
		const received = await rx.requests(route);
		expect(received.map((r) => JSON.parse(r.body).event)).toEqual(["webhook.test"]);
		const off = await owner.post(`${path}/toggle`, { _csrf: token, active: "false" });
		expect(off.status).toBe(303);
		expect(
			(await call("GET", `/v1/webhooks/${listed.body.data[0].id}`, { key: a.live })).body.data.active,
		).toBe(false);
		expect((await owner.post(`${path}/delete`, { _csrf: token })).status).toBe(303);
		expect((await call("GET", `/v1/webhooks/${listed.body.data[0].id}`, { key: a.live })).status).toBe(404);
	});
});
