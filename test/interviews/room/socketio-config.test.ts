import { env } from "cloudflare:workers";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";

interface Section {
	durable_objects?: { bindings?: { name: string; class_name: string }[] };
}

const config = parse(env.TEST_WRANGLER_TOML) as unknown as Section & {
	env: { production: Section };
	migrations: { tag: string; new_sqlite_classes?: string[] }[];
};

describe("wrangler.toml binds the Socket.IO session object", () => {
	it.each([
		["default", config],
		["production", config.env.production],
	])("in the %s environment", (_name, section) => {
		expect(section.durable_objects?.bindings).toContainEqual({
			name: "SOCKET_IO",
			class_name: "SocketIoSession",
		});
	});

	it("creates its class in a migration of its own, after the first", () => {
		const tags = config.migrations.map((m) => m.tag);
		expect(new Set(tags).size).toBe(tags.length);
		const created = config.migrations.filter((m) => m.new_sqlite_classes?.includes("SocketIoSession"));
		expect(created.map((m) => m.tag)).toEqual(["v2"]);
	});
});
