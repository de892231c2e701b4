import { describe, expect, it } from "vitest";
import { type FormSend, firstSend } from "../../src/dashboard/form-once";
import { OutcomeUnknownError } from "../../src/platform/http/errors";

/** A first send that records what became of its id. */
function recorder() {
	const record: { kept: string[]; released: number } = { kept: [], released: 0 };
	const send: Extract<FormSend, { status: "first" }> = {
		status: "first",
		done: async (result) => {
			record.kept.push(result);
		},
		failed: async () => {
			record.released++;
		},
	};
	return { send, record };
}

describe("a guarded form's first send", () => {
	it("keeps what it made", async () => {
		const { send, record } = recorder();
		const made = await firstSend(
			send,
			async () => ({ id: "int_1" }),
			(m) => m.id,
		);
		expect(made.id).toBe("int_1");
		expect(record).toEqual({ kept: ["int_1"], released: 0 });
	});

	it("lets go of its id when the failure made nothing, and rethrows", async () => {
		const { send, record } = recorder();
		const failure = new Error("refused");
		await expect(
			firstSend(
				send,
				async () => {
					throw failure;
				},
				() => "never",
				(error) => (error instanceof OutcomeUnknownError ? "int_2" : null),
			),
		).rejects.toBe(failure);
		expect(record).toEqual({ kept: [], released: 1 });
	});

	it("keeps what a failure may have made (D1 did not confirm it), so a resend leads to it", async () => {
		const { send, record } = recorder();
		const failure = new OutcomeUnknownError("may exist", { interview_ids: ["int_3"] });
		await expect(
			firstSend(
				send,
				async () => {
					throw failure;
				},
				() => "never",
				(error) => (error instanceof OutcomeUnknownError ? "int_3" : null),
			),
		).rejects.toBe(failure);
		expect(record).toEqual({ kept: ["int_3"], released: 0 });
	});
});
