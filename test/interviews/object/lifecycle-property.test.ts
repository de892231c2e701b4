import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { projectionRow } from "../../../src/interviews/db/interviews-repo";
import { interviewStub } from "../../../src/interviews/stub";
import { getDb } from "../../../src/platform/db/client";
import { interviews as projections } from "../../../src/platform/db/schema";
import { call, newAccount } from "../../support/helpers";
import { ledgerOf } from "../../support/lifecycle-helpers";

type Step =
	| { kind: "create"; test: boolean }
	| { kind: "cancel"; pick: number; refund: boolean }
	| { kind: "update"; pick: number; position: string }
	| { kind: "start"; pick: number }
	| { kind: "finish"; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
	fc.record({ kind: fc.constant("create" as const), test: fc.boolean() }),
	fc.record({ kind: fc.constant("cancel" as const), pick: fc.nat(), refund: fc.boolean() }),
	fc.record({
		kind: fc.constant("update" as const),
		pick: fc.nat(),
		position: fc.constantFrom("A", "B", "C"),
	}),
	fc.record({ kind: fc.constant("start" as const), pick: fc.nat() }),
	fc.record({ kind: fc.constant("finish" as const), pick: fc.nat() }),
);

describe("random command sequences", () => {
	it("keep the ledger equal to creations minus refunds, never negative, and D1 equal to the object", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
				const credits = 4;
				const account = await newAccount({ credits });
				const interviews: { id: string; token: string }[] = [];
				let charged = 0;
				let refunded = 0;
				for (const s of steps) {
					const target = interviews.length
						? interviews[("pick" in s ? s.pick : 0) % interviews.length]
						: undefined;
					if (s.kind === "create") {
						const res = await call("POST", "/v1/interviews", {
							key: s.test ? account.test : account.live,
							body: { candidate_email: "p@example.com", position: "P", skills: ["SQL"] },
						});
						if (res.status === 201) {
							const url = new URL(res.body.data.interview_url);
							interviews.push({ id: res.body.data.id, token: url.searchParams.get("token") as string });
							if (!s.test) charged++;
						} else {
							expect(res.status).toBe(402);
							expect(s.test).toBe(false);
						}
					} else if (target && s.kind === "cancel") {
						const res = await call("DELETE", `/v1/interviews/${target.id}?refund_credits=${s.refund}`, {
							key: account.live,
						});
						if (res.status === 200) refunded += res.body.data.refund_details?.credits_refunded ?? 0;
					} else if (target && s.kind === "update") {
						await call("PATCH", `/v1/interviews/${target.id}`, {
							key: account.live,
							body: { position: s.position },
						});
					} else if (target && s.kind === "start") {
						await interviewStub(env, target.id).join(target.token, Date.now());
					} else if (target && s.kind === "finish") {
						await interviewStub(env, target.id).finish("candidate_ended", Date.now());
					}
					const ledger = await ledgerOf(account.id);
					const balance = ledger.reduce((sum, e) => sum + e.amount, 0);
					expect(balance).toBe(credits - charged + refunded);
					expect(balance).toBeGreaterThanOrEqual(0);
					for (const { id } of interviews) {
						const state = await interviewStub(env, id).get();
						const row = await getDb(env.DB).select().from(projections).where(eq(projections.id, id)).get();
						if (!state || !row) throw new Error(`${id}: object or projection missing`);
						// Every shown column equals the object's; the version is that of the last shown change.
						const { updatedAt: _u, version, ...shown } = projectionRow(state);
						expect(row).toMatchObject(shown);
						expect(row.version).toBeLessThanOrEqual(version);
					}
				}
			}),
			{ numRuns: 15, seed: 20261121 },
		);
	}, 20_000);
});
