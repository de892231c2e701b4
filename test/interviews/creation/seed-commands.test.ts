import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FINAL_SEED_WAKE_MS, NEVER, SEED_SETTLE_MS } from "../../../src/interviews/creation/seed-commands";
import { claimSeed, readSeed, seedChangeStatements } from "../../../src/interviews/db/seeds-repo";
import { interviewStub } from "../../../src/interviews/stub";
import { sweepOverdueSeeds } from "../../../src/interviews/sweeps";
import { getDb } from "../../../src/platform/db/client";
import { runBatch } from "../../../src/platform/db/templates";
import { countedCall } from "../../support/call-counts";
import { call, newAccount, withInsertsRefused } from "../../support/helpers";
import { createInterview, eventsOf, ledgerOf, projectionOf, stubOf } from "../../support/lifecycle-helpers";

const HOUR = 60 * 60_000;

/** Whether the interview's object holds a state (it adopted its seed). */
async function adopted(id: string): Promise<boolean> {
	return runInDurableObject(
		stubOf(id),
		async (_instance, state) =>
			// An object that holds no interview has no tables at all.
			state.storage.sql
				.exec<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'interview'")
				.one().n === 1 &&
			state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM interview").one().n === 1,
	);
}

async function seedRow(id: string) {
	return env.DB.prepare("SELECT wake_at, claimed_at FROM interview_seeds WHERE id = ?")
		.bind(id)
		.first<{ wake_at: number; claimed_at: number | null }>();
}

async function emailsOf(id: string) {
	const rows = await env.DB.prepare(
		"SELECT template, recipient, subject, text, sequence, status FROM candidate_emails WHERE interview_id = ? ORDER BY created_at",
	)
		.bind(id)
		.all<Record<string, unknown>>();
	return rows.results;
}

/** Ids, times and join tokens differ between two interviews; everything else must not. */
function comparable(value: unknown, id: string): unknown {
	return JSON.parse(
		JSON.stringify(value)
			.replaceAll(id, "<id>")
			.replace(/"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '"<time>"')
			.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "<time>")
			.replace(/\b\d{8}T\d{6}Z\b/g, "<time>")
			.replace(/token=[A-Za-z0-9]+/g, "token=<token>")
			.replace(/(int|evt|msg)_[A-Za-z0-9]{24}/g, "<$1>"),
	);
}

/** A cancel's whole footprint: response, events, refunds and e-mails. */
async function cancelFootprint(accountId: string, key: string, id: string, query: string) {
	const res = await call("DELETE", `/v1/interviews/${id}${query}`, { key });
	const refunds = (await ledgerOf(accountId)).filter((e) => e.interview_id === id);
	return comparable(
		{
			status: res.status,
			body: res.body.data ?? res.body.error,
			events: await eventsOf(id),
			refunds: refunds.map((e) => [e.kind, e.amount]),
			emails: await emailsOf(id),
			projection: await projectionOf(id),
		},
		id,
	);
}

describe("cancel and update of an interview whose object was never opened", () => {
	it("a cancel of a never-opened interview and of an opened one leave identical responses, events, refunds and e-mails", async () => {
		for (const query of ["?reason=Position%20filled", "?refund_credits=false&send_notification=false", ""]) {
			const account = await newAccount({ credits: 10 });
			const body = { scheduled_at: new Date(Date.now() + 48 * HOUR).toISOString() };
			const seeded = await createInterview(account.live, body);
			const opened = await createInterview(account.live, body);
			expect((await call("GET", `/v1/interviews/${opened.id}`, { key: account.live })).status).toBe(200);
			expect(await adopted(opened.id)).toBe(true);

			const fromSeed = await cancelFootprint(account.id, account.live, seeded.id, query);
			const fromObject = await cancelFootprint(account.id, account.live, opened.id, query);
			expect(fromSeed).toEqual(fromObject);
			expect((fromSeed as { status: number }).status).toBe(200);
			// The seed decided it: its object was never opened, and the seed holds the cancelled state.
			expect(await adopted(seeded.id)).toBe(false);
			expect((await readSeed(getDb(env.DB), seeded.id))?.state.status).toBe("cancelled");
			// Nothing is owed any more and no timer is left: the seed wakes an hour after the cancel,
			// for its object to adopt it (then its events and e-mails can age out, docs/retention.md).
			const wakeAt = (await seedRow(seeded.id))?.wake_at as number;
			expect(wakeAt).toBeGreaterThan(Date.now() + FINAL_SEED_WAKE_MS - 60_000);
			expect(wakeAt).toBeLessThanOrEqual(Date.now() + FINAL_SEED_WAKE_MS);

			// A later fetch adopts the cancelled seed and replays its outbox without doubling anything.
			const fetched = await call("GET", `/v1/interviews/${seeded.id}`, { key: account.live });
			expect(fetched.body.data.status).toBe("cancelled");
			expect(await adopted(seeded.id)).toBe(true);
			expect(
				comparable(
					{
						events: await eventsOf(seeded.id),
						refunds: (await ledgerOf(account.id))
							.filter((e) => e.interview_id === seeded.id)
							.map((e) => [e.kind, e.amount]),
						emails: await emailsOf(seeded.id),
						projection: await projectionOf(seeded.id),
					},
					seeded.id,
				),
			).toEqual({
				events: (fromSeed as { events: unknown }).events,
				refunds: (fromSeed as { refunds: unknown }).refunds,
				emails: (fromSeed as { emails: unknown }).emails,
				projection: (fromSeed as { projection: unknown }).projection,
			});
		}
	}, 30_000);

	it("a later change from this isolate decides against its copy of the seed; a stale or claimed copy decides again on a read", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.test);
		const other = await createInterview(account.test);
		const db = getDb(env.DB);
		// The key's first use (its lookup, its last use recorded) is not the changes'.
		await call("GET", "/v1/interviews?limit=1", { key: account.test });
		const patch = (body: unknown) => countedCall("PATCH", `/v1/interviews/${id}`, account.test, body);
		/** Another isolate's change: the row one version on, with `changes` applied. */
		const changeElsewhere = (changes: string) =>
			env.DB.prepare(
				`UPDATE interview_seeds SET state = json_set(state, ${changes}, '$.version', json_extract(state, '$.version') + 1) WHERE id = ?`,
			)
				.bind(id)
				.run();

		const first = await patch({ position: "First" });
		expect([first.status, first.roundTrips]).toEqual([200, 2]);
		// The copy this isolate wrote is the row: the change is the guarded batch alone.
		const second = await patch({ position: "Second" });
		expect([second.status, second.roundTrips]).toEqual([200, 1]);
		expect(second.body.data.position).toBe("Second");
		expect((await readSeed(db, id))?.state.position).toBe("Second");

		// Changed elsewhere: the copy's batch fails its guard, and the change is decided on a read,
		// keeping the other change.
		await changeElsewhere("'$.companyName', 'Elsewhere'");
		const third = await patch({ position: "Third" });
		expect([third.status, third.roundTrips]).toEqual([200, 3]);
		expect(third.body.data).toMatchObject({ position: "Third", company_name: "Elsewhere" });
		expect((await readSeed(db, id))?.state).toMatchObject({ position: "Third", companyName: "Elsewhere" });

		// Cancelled elsewhere while the copy says scheduled: the refusal comes from a read, as it
		// would for an interview this isolate never saw.
		await call("DELETE", `/v1/interviews/${other.id}`, { key: account.test });
		const refusedFresh = await call("PATCH", `/v1/interviews/${other.id}`, {
			key: account.test,
			body: { position: "Late" },
		});
		await changeElsewhere("'$.status', 'cancelled', '$.cancelledAt', 1");
		const refused = await patch({ position: "Late" });
		expect(refusedFresh.status).toBeGreaterThanOrEqual(400);
		expect([refused.status, refused.body.error?.code]).toEqual([
			refusedFresh.status,
			refusedFresh.body.error?.code,
		]);
		expect((await readSeed(db, id))?.state.position).toBe("Third");

		// And a copy that would refuse is not trusted either: cancelled here, then (artificially)
		// scheduled again elsewhere, the change is decided on the read and applies.
		const cancelledHere = await createInterview(account.test);
		expect((await call("DELETE", `/v1/interviews/${cancelledHere.id}`, { key: account.test })).status).toBe(
			200,
		);
		await env.DB.prepare(
			"UPDATE interview_seeds SET state = json_set(state, '$.status', 'scheduled', '$.cancelledAt', NULL, '$.version', json_extract(state, '$.version') + 1) WHERE id = ?",
		)
			.bind(cancelledHere.id)
			.run();
		const revived = await countedCall("PATCH", `/v1/interviews/${cancelledHere.id}`, account.test, {
			position: "Revived",
		});
		expect([revived.status, revived.body.data?.position, revived.roundTrips]).toEqual([200, "Revived", 2]);
		expect(await adopted(id)).toBe(false);
	});

	it("a copy of a seed its object has since claimed leaves the change to the object", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.test);
		const db = getDb(env.DB);
		expect(
			(await call("PATCH", `/v1/interviews/${id}`, { key: account.test, body: { position: "Copied" } }))
				.status,
		).toBe(200);
		// The object adopts the seed (here claimed first, as an adoption that did not commit leaves it).
		expect((await claimSeed(db, id, Date.now()))?.state.position).toBe("Copied");
		const res = await call("PATCH", `/v1/interviews/${id}`, {
			key: account.test,
			body: { position: "By the object" },
		});
		expect(res.status).toBe(200);
		expect(res.body.data.position).toBe("By the object");
		expect(await adopted(id)).toBe(true);
		expect((await interviewStub(env, id).get())?.position).toBe("By the object");
		expect((await projectionOf(id))?.position).toBe("By the object");
	});

	it("a PATCH of a never-opened interview answers as the object would, moves the seed's timer, and the object adopts the change", async () => {
		const account = await newAccount();
		const at = Date.now() + 48 * HOUR;
		const seeded = await createInterview(account.live, { scheduled_at: new Date(at).toISOString() });
		const opened = await createInterview(account.live, { scheduled_at: new Date(at).toISOString() });
		await call("GET", `/v1/interviews/${opened.id}`, { key: account.live });
		const later = new Date(at + 24 * HOUR).toISOString();
		const patch = { scheduled_at: later, position: "Staff Engineer", reschedule_reason: "Moved" };
		const a = await call("PATCH", `/v1/interviews/${seeded.id}`, { key: account.live, body: patch });
		const b = await call("PATCH", `/v1/interviews/${opened.id}`, { key: account.live, body: patch });
		expect(a.status).toBe(200);
		expect(comparable(a.body.data, seeded.id)).toEqual(comparable(b.body.data, opened.id));
		expect(comparable(await eventsOf(seeded.id), seeded.id)).toEqual(
			comparable(await eventsOf(opened.id), opened.id),
		);
		expect(comparable(await emailsOf(seeded.id), seeded.id)).toEqual(
			comparable(await emailsOf(opened.id), opened.id),
		);
		expect(await adopted(seeded.id)).toBe(false);
		const seed = await readSeed(getDb(env.DB), seeded.id);
		expect(seed?.state.position).toBe("Staff Engineer");
		// The no-show timer moved with the time, and the seed wakes for it.
		const noShow = seed?.timers.find((t) => t.name === "no_show")?.dueAt as number;
		expect(noShow).toBeGreaterThan(at + 24 * HOUR);
		expect((await seedRow(seeded.id))?.wake_at).toBe(noShow);

		const state = await interviewStub(env, seeded.id).get();
		expect(state).toMatchObject({ position: "Staff Engineer", scheduledAt: Date.parse(later) });
		expect((await projectionOf(seeded.id))?.version).toBe(state?.version);
		const alarm = await runInDurableObject(stubOf(seeded.id), (_i, s) => s.storage.getAlarm());
		expect(alarm).toBe(noShow);
	});

	it("a seed changed many times keeps only what may still owe beyond D1, and adopting it leaves what the object's path leaves", async () => {
		const account = await newAccount();
		const at = Date.now() + 48 * HOUR;
		const body = { scheduled_at: new Date(at).toISOString() };
		const [seeded, opened] = [
			await createInterview(account.live, body),
			await createInterview(account.live, body),
		];
		await call("GET", `/v1/interviews/${opened.id}`, { key: account.live });
		const changes = [
			...Array.from({ length: 6 }, (_, n) => ({ position: `Engineer ${n}` })),
			{ scheduled_at: new Date(at + 24 * HOUR).toISOString(), reschedule_reason: "Moved" },
			{ position: "Staff Engineer" },
		];
		for (const change of changes) {
			for (const id of [seeded.id, opened.id]) {
				expect(
					(await call("PATCH", `/v1/interviews/${id}`, { key: account.live, body: change })).status,
				).toBe(200);
			}
		}
		expect(await adopted(seeded.id)).toBe(false);
		// Of eight changes' items only the notices (sent ones) are left, and the last change's event.
		const seed = await readSeed(getDb(env.DB), seeded.id);
		const kinds = seed?.outbox.map((item) => item.kind);
		expect(kinds?.filter((kind) => kind === "event")).toHaveLength(1);
		expect(kinds?.filter((kind) => kind === "notify").length).toBeGreaterThanOrEqual(1);
		expect(kinds?.every((kind) => kind === "event" || kind === "notify")).toBe(true);
		const footprint = async (id: string) =>
			comparable(
				{ events: await eventsOf(id), emails: await emailsOf(id), projection: await projectionOf(id) },
				id,
			);
		const beforeAdoption = await footprint(seeded.id);
		expect(beforeAdoption).toEqual(await footprint(opened.id));
		expect((beforeAdoption as { events: unknown[] }).events.length).toBeGreaterThanOrEqual(changes.length);
		// The adoption replays what is left, idempotently: nothing is lost and nothing doubled.
		expect((await call("GET", `/v1/interviews/${seeded.id}`, { key: account.live })).body.data.position).toBe(
			"Staff Engineer",
		);
		expect(await adopted(seeded.id)).toBe(true);
		expect(await footprint(seeded.id)).toEqual(beforeAdoption);
	});

	it("20 parallel cancels of a never-opened interview: one success, one refund, one event, and still no object", async () => {
		const account = await newAccount({ credits: 3 });
		const { id } = await createInterview(account.live);
		const results = await Promise.all(
			Array.from({ length: 20 }, () => call("DELETE", `/v1/interviews/${id}`, { key: account.live })),
		);
		expect(results.filter((r) => r.status === 200)).toHaveLength(1);
		const refused = results.filter((r) => r.status === 409);
		expect(refused).toHaveLength(19);
		expect(refused.every((r) => r.body.error.code === "INTERVIEW_ALREADY_CANCELLED")).toBe(true);
		expect((await ledgerOf(account.id)).filter((e) => e.kind === "refund")).toHaveLength(1);
		expect((await eventsOf(id)).filter((e) => e.type === "interview.cancelled")).toHaveLength(1);
		expect(await emailsOf(id)).toHaveLength(2);
		expect(await adopted(id)).toBe(false);
	});

	it("parallel PATCHes of a never-opened interview each apply once, in some order, and D1 agrees with the object", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.live);
		const results = await Promise.all(
			Array.from({ length: 8 }, (_, i) =>
				call("PATCH", `/v1/interviews/${id}`, { key: account.live, body: { position: `Role ${i}` } }),
			),
		);
		expect(results.every((r) => r.status === 200)).toBe(true);
		const updated = (await eventsOf(id)).filter((e) => e.type === "interview.updated");
		expect(updated).toHaveLength(8);
		const state = await interviewStub(env, id).get();
		expect(state?.version).toBe(1 + 8);
		expect(await projectionOf(id)).toMatchObject({ version: state?.version, position: state?.position });
	});

	it("a cancel racing the object's adoption leaves exactly one outcome", async () => {
		const account = await newAccount({ credits: 20 });
		for (let round = 0; round < 6; round++) {
			const { id } = await createInterview(account.live);
			const [cancel] = await Promise.all([
				call("DELETE", `/v1/interviews/${id}`, { key: account.live }),
				interviewStub(env, id).wake(),
			]);
			expect(cancel.status).toBe(200);
			const state = await interviewStub(env, id).get();
			expect(state?.status).toBe("cancelled");
			expect(await projectionOf(id)).toMatchObject({ status: "cancelled", version: state?.version });
			expect((await eventsOf(id)).filter((e) => e.type === "interview.cancelled")).toHaveLength(1);
			expect(
				(await ledgerOf(account.id)).filter((e) => e.interview_id === id && e.kind === "refund"),
			).toHaveLength(1);
		}
	});

	it("a seed its object has claimed is never changed in D1: the cancel goes to the object", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.live);
		const db = getDb(env.DB);
		const seed = await readSeed(db, id);
		// The object took the seed (its adoption is under way): the guard refuses the seed's change.
		await claimSeed(db, id, Date.now());
		const cancelled = { ...(seed?.state as NonNullable<typeof seed>["state"]), status: "cancelled" as const };
		const stale = seedChangeStatements(db, { ...(seed as NonNullable<typeof seed>), state: cancelled }, 1);
		await expect(runBatch(db, stale)).rejects.toThrow(/malformed JSON/);
		expect((await readSeed(db, id))?.state.status).toBe("scheduled");

		const res = await call("DELETE", `/v1/interviews/${id}`, { key: account.live });
		expect(res.status).toBe(200);
		expect(await adopted(id)).toBe(true);
		expect(await seedRow(id)).toBeNull();
		expect((await projectionOf(id))?.status).toBe("cancelled");
	});

	it("a stale version writes nothing: the guard fails the whole batch", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.live);
		const db = getDb(env.DB);
		const seed = await readSeed(db, id);
		const next = { ...(seed?.state as NonNullable<typeof seed>["state"]), position: "Changed" };
		await expect(
			runBatch(db, seedChangeStatements(db, { ...(seed as NonNullable<typeof seed>), state: next }, 7)),
		).rejects.toThrow(/malformed JSON/);
		expect((await readSeed(db, id))?.state.position).toBe(seed?.state.position);
		await runBatch(db, seedChangeStatements(db, { ...(seed as NonNullable<typeof seed>), state: next }, 1));
		expect((await readSeed(db, id))?.state.position).toBe("Changed");
	});

	it("a notice that could not be queued leaves the seed due, and the sweep's adoption sends it", async () => {
		const account = await newAccount();
		const { id } = await createInterview(account.live);
		const before = Date.now();
		// The change's batch reads the e-mails (which notices are owed); recording one fails.
		const res = await withInsertsRefused("candidate_emails", () =>
			call("DELETE", `/v1/interviews/${id}?reason=Filled`, { key: account.live }),
		);
		expect(res.status).toBe(200);
		expect(res.body.data.notification_sent).toBe(true);
		const wakeAt = (await seedRow(id))?.wake_at as number;
		expect(wakeAt).toBeGreaterThanOrEqual(before + SEED_SETTLE_MS);
		expect(wakeAt).toBeLessThanOrEqual(Date.now() + SEED_SETTLE_MS);
		expect((await emailsOf(id)).map((e) => e.template)).not.toContain("cancellation");

		expect(await sweepOverdueSeeds(env, wakeAt)).toBeGreaterThanOrEqual(1);
		expect(await adopted(id)).toBe(true);
		expect((await emailsOf(id)).filter((e) => e.template === "cancellation")).toHaveLength(1);
		expect((await eventsOf(id)).filter((e) => e.type === "interview.cancelled")).toHaveLength(1);
	});

	it("a change to a seed whose creation never queued its invitation queues the invitation first, then its own notice", async () => {
		const account = await newAccount();
		const created = [await createInterview(account.live), await createInterview(account.live)];
		const ids = created.map((c) => c.id);
		// As if each creation's Worker had stopped after its batch: no e-mail recorded.
		for (const id of ids)
			await env.DB.prepare("DELETE FROM candidate_emails WHERE interview_id = ?").bind(id).run();
		const templates = async (id: string) =>
			(
				await env.DB.prepare("SELECT template FROM candidate_emails WHERE interview_id = ? ORDER BY rowid")
					.bind(id)
					.all<{ template: string }>()
			).results.map((row) => row.template);
		const later = new Date(Date.now() + 3 * 24 * HOUR).toISOString();
		// Together, so that the account's object may write both changes in one batch.
		const patched = await Promise.all(
			ids.map((id) =>
				call("PATCH", `/v1/interviews/${id}`, { key: account.live, body: { scheduled_at: later } }),
			),
		);
		expect(patched.map((res) => res.status)).toEqual([200, 200]);
		for (const id of ids) {
			expect(await templates(id)).toEqual(["invitation", "update"]);
			expect(await adopted(id)).toBe(false);
		}
		// A later change finds the invitation recorded: it queues its own notice and nothing twice.
		const cancelled = await call("DELETE", `/v1/interviews/${ids[0]}?reason=Filled`, { key: account.live });
		expect(cancelled.status).toBe(200);
		expect(await templates(ids[0] as string)).toEqual(["invitation", "update", "cancellation"]);
	});

	it("a change that owes nothing beyond D1 (a test-mode interview's notice is never sent) is the seed's read and one batch", async () => {
		const account = await newAccount();
		const [patched, cancelled, live] = [
			await createInterview(account.test),
			await createInterview(account.test),
			await createInterview(account.live),
		];
		const send = async (method: string, id: string, key: string, body?: unknown) => {
			const res = await countedCall(method, `/v1/interviews/${id}`, key, body);
			expect(res.status).toBe(200);
			return res.roundTrips;
		};
		// The keys' first use (their lookup, their last use recorded) is not the change's.
		for (const key of [account.test, account.live]) await call("GET", "/v1/interviews?limit=1", { key });
		const later = new Date(Date.now() + 3 * 24 * HOUR).toISOString();
		expect(await send("PATCH", patched.id, account.test, { scheduled_at: later })).toBe(2);
		expect(await send("DELETE", cancelled.id, account.test)).toBe(2);
		// A live cancel owes its notice: the e-mail is recorded, and the seed's wake put back after.
		expect(await send("DELETE", live.id, account.live)).toBeGreaterThan(2);
		expect((await seedRow(patched.id))?.wake_at).toBeLessThan(NEVER);
		// Both cancelled ones wake an hour later, for their objects to adopt them; no wake message.
		for (const id of [cancelled.id, live.id]) {
			expect((await seedRow(id))?.wake_at).toBeLessThanOrEqual(Date.now() + FINAL_SEED_WAKE_MS);
			expect((await seedRow(id))?.wake_at).toBeGreaterThan(Date.now() + FINAL_SEED_WAKE_MS - 60_000);
		}
		expect(await adopted(cancelled.id)).toBe(false);
	});
});
