// The bench-only seeding path for the 100,000-interview list case, as pure functions: the SQL
// that writes projection rows straight into the local D1 file, and the wrangler command that
// runs it. The command is always `--local` with an explicit `--persist-to` folder (the bench's
// own temporary state), so it can only ever touch a local database; nothing of this is part of
// the Worker. Seeded rows exist only in the D1 projection (lists and counts), not as interview
// objects: fetching one by id answers 404.

/** Seeded ids: `int_seed` + 20 digits, the shape of a real interview id (24 base62 characters). */
export function seedId(index) {
	return `int_seed${String(index).padStart(20, "0")}`;
}

const STATUS_MIX =
	"CASE i % 10 WHEN 0 THEN 'completed' WHEN 1 THEN 'cancelled' WHEN 2 THEN 'in_progress' ELSE 'scheduled' END";

/**
 * One INSERT ... SELECT over a recursive counter: `count` projection rows for the account's
 * production environment in test mode, numbered from `first`, older than `before` (one second
 * apart, so the newest real interviews stay on the first pages). 70% scheduled, 10% each other.
 */
export function seedSql({ accountId, count, first = 1, before }) {
	if (!/^acc_[0-9A-Za-z]{24}$/.test(accountId)) throw new Error(`not an account id: ${accountId}`);
	if (!Number.isInteger(count) || count < 1 || count > 1_000_000) throw new Error(`bad count: ${count}`);
	if (!Number.isInteger(first) || first < 1) throw new Error(`bad first index: ${first}`);
	if (!Number.isInteger(before) || before < count * 1000) throw new Error(`bad time: ${before}`);
	const last = first + count - 1;
	return `INSERT INTO interviews (id, account_id, environment, test_mode, status, candidate_email, candidate_email_lower, candidate_name, position, position_lower, skills, difficulty, duration_minutes, company_name, scheduled_at, started_at, completed_at, cancelled_at, created_at, updated_at, version)
WITH RECURSIVE n(i) AS (SELECT ${first} UNION ALL SELECT i + 1 FROM n WHERE i < ${last})
SELECT 'int_seed' || printf('%020d', i), '${accountId}', 'production', 1, ${STATUS_MIX},
  'seed' || i || '@example.com', 'seed' || i || '@example.com', NULL, 'Backend Engineer', 'backend engineer', '["SQL","TypeScript"]',
  'intermediate', 45, 'Bench Company', ${before} - i * 1000, NULL, NULL, NULL, ${before} - i * 1000, ${before} - i * 1000, 1
FROM n;
`;
}

/** Arguments for `wrangler`: local only, against the given state folder, never remote. */
export function seedCommandArgs({ persistTo, file }) {
	if (typeof persistTo !== "string" || persistTo.trim() === "") throw new Error("persistTo is required");
	if (typeof file !== "string" || file.trim() === "") throw new Error("file is required");
	return ["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--file", file, "--yes"];
}
