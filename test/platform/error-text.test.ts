import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../src/platform/db/client";
import { errorReason, errorText } from "../../src/platform/lib/error-text";

describe("errorText", () => {
	it("keeps a failed query's SQL and the database's reason, never the values it was given", async () => {
		const db = getDb(env.DB);
		const token = "EG5gKDNAQpKy17c2YyNhceq5FCfJlmSo";
		const failure = await db
			.run(sql`INSERT INTO no_such_table (link) VALUES (${`https://service.test/join/x?token=${token}`})`)
			.then(
				() => null,
				(error: unknown) => error,
			);
		expect(String(failure)).toContain(token); // what a plain String(error) would have logged
		const text = errorText(failure);
		expect(text).not.toContain(token);
		expect(text).toContain("INSERT INTO no_such_table");
		expect(text).toContain("values not logged");
		expect(text).toMatch(/no such table/);
	});

	it("gives other errors and thrown values as they are", () => {
		expect(errorText(new TypeError("bad input"))).toBe("TypeError: bad input");
		expect(errorText("plain")).toBe("plain");
		const wrapped = new Error("outer", { cause: new RangeError("inner") });
		expect(errorText(wrapped)).toBe("Error: outer; cause: RangeError: inner");
		expect(errorReason(wrapped)).toBe("outer; cause: RangeError: inner");
		expect(errorReason(new Error("Failed query: select 1\nparams: secret"))).toBe(
			"Failed query: select 1 (values not logged)",
		);
	});
});
