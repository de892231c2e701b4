// The bench's accounts: on the enterprise plan, their limits lifted through the admin API, with a
// test key (test-mode interviews cost no credits). Used by the bench and the floors script.
import { call } from "../local-service.mjs";

/** A bench account named `name`; returns its id and its test key. */
export async function prepareAccount(service, name) {
	const admin = service.adminToken;
	const created = await call(service, "POST", "/admin/accounts", {
		key: admin,
		body: { company_name: name, plan: "enterprise" },
	});
	const id = created.data.id;
	await call(service, "PATCH", `/admin/accounts/${id}`, {
		key: admin,
		body: {
			limits: {
				requests_per_minute: 1_000_000,
				monthly_interviews: 1_000_000,
				concurrent_interviews: 1_000_000,
			},
			credits_delta: 1_000_000,
		},
	});
	const key = await call(service, "POST", `/admin/accounts/${id}/keys`, {
		key: admin,
		body: { name: "bench", environment: "test" },
	});
	return { id, testKey: key.data.key };
}
