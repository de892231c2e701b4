import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { InterviewState } from "../../../src/interviews/core/model";
import { type Command, transition } from "../../../src/interviews/core/state-machine";
import {
	loadState,
	MESSAGES_KEPT,
	messagesAfter,
	migrateInterviewStorage,
	recordingsUncounted,
	SEQ_BLOCK,
	SeqCounter,
	saveMessages,
	saveState,
} from "../../../src/interviews/object/storage";
import { newId } from "../../../src/platform/lib/random";

const T0 = Date.UTC(2026, 10, 21, 12);

function step(state: InterviewState | null, command: Command, now: number): InterviewState {
	const t = transition(state, command, now);
	if (!t.ok) throw new Error(JSON.stringify(t.error));
	return t.state;
}

const question = (n: number) => ({
	id: `q${n}`,
	text: `Question ${n}`,
	skill: "SQL",
	difficulty: "senior" as const,
	index: n,
	total: 3,
});
const answer = (n: number): Command => ({
	type: "answer",
	questionId: `q${n}`,
	sentAt: null,
	response: `Answer ${n}`,
	score: 60 + n,
	assessment: null,
});

/** An in-progress interview with two questions asked and the first one answered. */
function midInterview(id: string): InterviewState {
	let s = step(
		null,
		{
			type: "create",
			id,
			accountId: "acc_storage",
			environment: "production",
			testMode: true,
			candidateEmail: "ada@example.com",
			candidateName: null,
			position: "Engineer",
			skills: ["SQL"],
			difficulty: "senior",
			durationMinutes: 15,
			companyName: null,
			instructions: null,
			scheduledAt: T0,
			joinToken: "tok",
			appUrl: "https://app.example",
			sendInvitation: false,
			creditsCharged: 0,
		},
		T0,
	);
	s = step(s, { type: "join" }, T0 + 1_000);
	s = step(s, { type: "start" }, T0 + 1_000);
	s = step(s, { type: "ask", question: question(0), planned: null }, T0 + 2_000);
	s = step(s, answer(0), T0 + 3_000);
	return step(s, { type: "ask", question: question(1), planned: null }, T0 + 4_000);
}

function storageOf(id: string) {
	return env.INTERVIEW.get(env.INTERVIEW.idFromName(id));
}

describe("the interview object's storage", () => {
	it("keeps the transcript a row per entry and writes only the entries a commit changed", async () => {
		const id = newId("int");
		const before = midInterview(id);
		await runInDurableObject(storageOf(id), (_instance, state) => {
			const sql = state.storage.sql;
			// An object makes its tables when it first holds an interview; these tests write directly.
			migrateInterviewStorage(sql);
			saveState(sql, null, before);
			expect(loadState(sql)).toEqual(before);
			const stored = sql.exec<{ state: string }>("SELECT state FROM interview").one().state;
			expect(JSON.parse(stored)).not.toHaveProperty("transcript");

			// Entry 0 is the same object in the next state, so it must not be written again: a marker
			// put in its row survives, while entry 1 (answered now) is rewritten.
			sql.exec("UPDATE transcript SET entry = ? WHERE idx = 0", JSON.stringify({ marker: true }));
			const after = step(before, answer(1), T0 + 5_000);
			saveState(sql, before, after);
			const rows = sql
				.exec<{ idx: number; entry: string }>("SELECT idx, entry FROM transcript ORDER BY idx")
				.toArray()
				.map((r) => JSON.parse(r.entry));
			expect(rows).toEqual([{ marker: true }, after.transcript[1]]);

			// Saved with no known predecessor, everything is written and nothing stale is left.
			saveState(sql, null, before);
			expect(loadState(sql)).toEqual(before);
		});
	});

	it("writes a long transcript in statements within 100 bound parameters, and messages in one", async () => {
		const id = newId("int");
		const base = midInterview(id);
		const entry = base.transcript[0] as InterviewState["transcript"][number];
		const long: InterviewState = {
			...base,
			transcript: Array.from({ length: 120 }, (_, i) => ({ ...entry, asked_at: i, answer: `A ${i}` })),
		};
		await runInDurableObject(storageOf(id), (_instance, state) => {
			const sql = state.storage.sql;
			// An object makes its tables when it first holds an interview; these tests write directly.
			migrateInterviewStorage(sql);
			saveState(sql, null, long);
			expect(loadState(sql)).toEqual(long);
			const shorter = { ...long, transcript: long.transcript.slice(0, 70) };
			saveState(sql, null, shorter);
			expect(loadState(sql)).toEqual(shorter);

			const messages = Array.from({ length: 120 }, (_, i) => ({ seq: 1_000 + i, payload: `{"n":${i}}` }));
			saveMessages(sql, messages);
			expect(messagesAfter(sql, 999)).toEqual(messages.map((m) => m.payload));
			expect(messagesAfter(sql, 1_100)).toEqual(messages.slice(101).map((m) => m.payload));
		});
	});

	it("keeps only the latest messages' worth of sequence numbers, deleting older ones once a block", async () => {
		const id = newId("int");
		await runInDurableObject(storageOf(id), (_instance, state) => {
			const sql = state.storage.sql;
			// An object makes its tables when it first holds an interview; these tests write directly.
			migrateInterviewStorage(sql);
			const seq = new SeqCounter(sql);
			const total = MESSAGES_KEPT + 3 * SEQ_BLOCK;
			for (let i = 0; i < total; i++) saveMessages(sql, [{ seq: seq.take(), payload: `{"n":${i}}` }]);
			const kept = messagesAfter(sql, 0, total);
			// The last block began at total - SEQ_BLOCK + 1; everything from MESSAGES_KEPT before it stays.
			expect(kept.length).toBe(MESSAGES_KEPT + SEQ_BLOCK - 1);
			expect(kept.at(-1)).toBe(`{"n":${total - 1}}`);
			expect(kept[0]).toBe(`{"n":${total - MESSAGES_KEPT - SEQ_BLOCK + 1}}`);
		});
	});

	it("moves a transcript kept inside the state (version 2) into its rows, losing nothing", async () => {
		const id = newId("int");
		const legacy = midInterview(id);
		await runInDurableObject(storageOf(id), (_instance, state) => {
			const sql = state.storage.sql;
			// An object makes its tables when it first holds an interview; these tests write directly.
			migrateInterviewStorage(sql);
			sql.exec("DROP TABLE transcript");
			sql.exec("DELETE FROM interview");
			sql.exec("UPDATE schema_version SET version = 2");
			sql.exec("INSERT INTO interview (singleton, state) VALUES (1, ?)", JSON.stringify(legacy));
			migrateInterviewStorage(sql);
			expect(loadState(sql)).toEqual(legacy);
			expect(sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM transcript").one().n).toBe(2);
			// Running it again changes nothing.
			migrateInterviewStorage(sql);
			expect(loadState(sql)).toEqual(legacy);
		});
	});

	it("marks an object made before recordings were counted (version 3), and no new one", async () => {
		const made = newId("int");
		const older = newId("int");
		await runInDurableObject(storageOf(made), (_instance, state) => {
			migrateInterviewStorage(state.storage.sql);
			expect(recordingsUncounted(state.storage.sql)).toBe(false);
			migrateInterviewStorage(state.storage.sql);
			expect(recordingsUncounted(state.storage.sql)).toBe(false);
		});
		await runInDurableObject(storageOf(older), (_instance, state) => {
			const sql = state.storage.sql;
			migrateInterviewStorage(sql);
			sql.exec("UPDATE schema_version SET version = 3");
			sql.exec("INSERT INTO interview (singleton, state) VALUES (1, ?)", JSON.stringify(midInterview(older)));
			migrateInterviewStorage(sql);
			expect(recordingsUncounted(sql)).toBe(true);
			expect(sql.exec<{ version: number }>("SELECT version FROM schema_version").one().version).toBe(4);
			// Brought up to date once: the mark stays, the state is untouched.
			migrateInterviewStorage(sql);
			expect(recordingsUncounted(sql)).toBe(true);
			expect(loadState(sql)).toEqual(midInterview(older));
		});
	});
});
