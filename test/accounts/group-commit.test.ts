import { describe, expect, it } from "vitest";
import { GroupCommit } from "../../src/accounts/group-commit";

/** A write: its name, its size, and whether the batch it is in fails. */
interface Write {
	name: string;
	size?: number;
	bad?: boolean;
}

/** A group commit whose batches are held open until released, recording what each one held. */
function harness(maxSize = 10) {
	const batches: string[][] = [];
	const held: (() => void)[] = [];
	const commits = new GroupCommit<Write, string>({
		run: async (writes) => {
			batches.push(writes.map((w) => w.name));
			await new Promise<void>((resolve) => held.push(resolve));
			if (writes.some((w) => w.bad)) throw new Error(`batch of ${writes.length} refused`);
			return writes.map((w) => `${w.name} written`);
		},
		size: (w) => w.size ?? 1,
		maxSize,
	});
	/** Releases the batches in flight until every commit has an outcome (bounded). */
	const settle = async <T>(outcomes: Promise<T>[]): Promise<T[]> => {
		let done = false;
		const all = Promise.all(outcomes).then((result) => {
			done = true;
			return result;
		});
		for (let round = 0; round < 100 && !done; round++) {
			held.shift()?.();
			await new Promise((resolve) => setTimeout(resolve, 0));
		}
		return all;
	};
	return { commits, batches, settle };
}

describe("group commit", () => {
	it("commits a write at once when nothing is in flight", async () => {
		const { commits, batches, settle } = harness();
		const [outcome] = await settle([commits.commit({ name: "a" })]);
		expect(outcome).toEqual({ status: "committed", result: "a written" });
		expect(batches).toEqual([["a"]]);
	});

	it("commits the writes that arrive during a batch together in the next, each with its own result", async () => {
		const { commits, batches, settle } = harness();
		const outcomes = await settle(["a", "b", "c", "d"].map((name) => commits.commit({ name })));
		expect(batches).toEqual([["a"], ["b", "c", "d"]]);
		expect(outcomes.map((o) => (o.status === "committed" ? o.result : o.error))).toEqual([
			"a written",
			"b written",
			"c written",
			"d written",
		]);
		expect(commits.stats).toEqual({ batches: 2, writes: 4, largestGroup: 3 });
	});

	it("keeps each group within the size limit, in arrival order, and takes an oversized write alone", async () => {
		const { commits, batches, settle } = harness(5);
		const writes: Write[] = [
			{ name: "first" },
			{ name: "a", size: 2 },
			{ name: "b", size: 3 },
			{ name: "c", size: 1 },
			{ name: "huge", size: 9 },
			{ name: "d", size: 1 },
		];
		const outcomes = await settle(writes.map((w) => commits.commit(w)));
		expect(batches).toEqual([["first"], ["a", "b"], ["c"], ["huge"], ["d"]]);
		expect(outcomes.every((o) => o.status === "committed")).toBe(true);
	});

	it("tries each write of a failed group alone, so one bad write fails only itself", async () => {
		const { commits, batches, settle } = harness();
		const outcomes = await settle([
			commits.commit({ name: "a" }),
			commits.commit({ name: "b" }),
			commits.commit({ name: "bad", bad: true }),
			commits.commit({ name: "c" }),
		]);
		expect(batches).toEqual([["a"], ["b", "bad", "c"], ["b"], ["bad"], ["c"]]);
		expect(outcomes).toEqual([
			{ status: "committed", result: "a written" },
			{ status: "committed", result: "b written" },
			{ status: "failed", error: "batch of 1 refused" },
			{ status: "committed", result: "c written" },
		]);
	});

	it("reports a failed write alone without trying it again, and goes on with the next", async () => {
		const { commits, batches, settle } = harness();
		const first = await settle([commits.commit({ name: "bad", bad: true })]);
		expect(first).toEqual([{ status: "failed", error: "batch of 1 refused" }]);
		const next = await settle([commits.commit({ name: "a" })]);
		expect(next).toEqual([{ status: "committed", result: "a written" }]);
		expect(batches).toEqual([["bad"], ["a"]]);
	});

	it("fails a batch whose run does not answer for every write, rather than guess", async () => {
		const commits = new GroupCommit<Write, string>({
			run: async () => [],
			size: () => 1,
			maxSize: 10,
		});
		expect(await commits.commit({ name: "a" })).toEqual({
			status: "failed",
			error: "group commit: one result per write expected",
		});
	});
});
