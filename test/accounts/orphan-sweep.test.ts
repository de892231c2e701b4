import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { orphanAdmissionAfterMs, sweepOrphanAdmissions } from "../../src/accounts/sweeps";
import { call, newAccount } from "../support/helpers";
import { createInterview } from "../support/lifecycle-helpers";
import { countRows } from "../support/limits-helpers";

// The orphan-admission sweep's period is a setting (`ADMISSION_ORPHAN_AFTER_S`), so that the fault
// suite can kill the service between a creation's admission and its write and see the admission
// given back within minutes (test/faults/kill.test.ts).

describe("ADMISSION_ORPHAN_AFTER_S", () => {
	it("is read as whole seconds from 10 to a day, else ten minutes", () => {
		expect(orphanAdmissionAfterMs({})).toBe(600_000);
		expect(orphanAdmissionAfterMs({ ADMISSION_ORPHAN_AFTER_S: "20" })).toBe(20_000);
		expect(orphanAdmissionAfterMs({ ADMISSION_ORPHAN_AFTER_S: " 86400 " })).toBe(86_400_000);
		expect(orphanAdmissionAfterMs({ ADMISSION_ORPHAN_AFTER_S: "9" })).toBe(600_000);
		expect(orphanAdmissionAfterMs({ ADMISSION_ORPHAN_AFTER_S: "0" })).toBe(600_000);
		expect(orphanAdmissionAfterMs({ ADMISSION_ORPHAN_AFTER_S: "1m" })).toBe(600_000);
		expect(orphanAdmissionAfterMs({ ADMISSION_ORPHAN_AFTER_S: "86401" })).toBe(600_000);
	});

	it("gives back an admission without its interview once it is older than the setting, and a younger one later", async () => {
		const account = await newAccount({ credits: 5 });
		const old = await createInterview(account.live);
		const young = await createInterview(account.live);
		const kept = await createInterview(account.live);
		const now = Date.now();
		// As a creation killed between admitting and writing leaves it: the admission, no interview.
		await env.DB.batch([
			env.DB.prepare("DELETE FROM interviews WHERE id IN (?, ?)").bind(old.id, young.id),
			env.DB.prepare("DELETE FROM interview_seeds WHERE id IN (?, ?)").bind(old.id, young.id),
			env.DB.prepare(
				"UPDATE monthly_interview_usage SET created_at = CASE interview_id WHEN ?1 THEN ?3 ELSE ?4 END WHERE interview_id IN (?1, ?2, ?5)",
			).bind(old.id, young.id, now - 30_000, now - 5_000, kept.id),
			env.DB.prepare("DELETE FROM sweep_marks"),
		]);
		const settings = { ...env, ADMISSION_ORPHAN_AFTER_S: "20" } as Env;
		const used = (id: string) =>
			countRows("SELECT count(*) AS n FROM monthly_interview_usage WHERE interview_id = ?", id);

		// The default (ten minutes) leaves both alone; twenty seconds gives back the older one only.
		expect(await sweepOrphanAdmissions(env, now)).toBe(0);
		expect(await sweepOrphanAdmissions(settings, now)).toBe(1);
		expect([await used(old.id), await used(young.id), await used(kept.id)]).toEqual([0, 1, 1]);
		const profile = (await call("GET", "/v1/account/profile", { key: account.live })).body.data;
		expect([profile.credits_balance, profile.usage.monthly_interviews_used]).toEqual([3, 2]);

		// Twenty seconds on, the younger one is old enough; the kept interview's admission stays.
		expect(await sweepOrphanAdmissions(settings, now + 20_000)).toBe(1);
		expect([await used(young.id), await used(kept.id)]).toEqual([0, 1]);
		const later = (await call("GET", "/v1/account/profile", { key: account.live })).body.data;
		expect([later.credits_balance, later.usage.monthly_interviews_used]).toEqual([4, 1]);
	});
});
