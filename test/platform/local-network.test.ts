import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { staysLocal, takeRefused } from "../setup/local-network";
import { receiver } from "../support/receiver-client";

describe("the workers suite's network guard", () => {
	it("refuses a fetch beyond this machine, from a test and from a Durable Object, and names it", async () => {
		const fromTest = await fetch("https://example.com/hook", { method: "POST" }).then(
			() => "fetched",
			(error: Error) => error.message,
		);
		expect(fromTest).toBe("The test suite refused a fetch beyond this machine: https://example.com/hook");
		const stub = env.INTERVIEW.get(env.INTERVIEW.idFromName(`guard-${crypto.randomUUID()}`));
		const fromObject = await runInDurableObject(stub, () =>
			fetch(new Request("http://10.0.0.1:8080/")).then(
				() => "fetched",
				(error: Error) => error.message,
			),
		);
		expect(fromObject).toContain("beyond this machine: http://10.0.0.1:8080/");
		// Taken here, so this test does not fail for them.
		expect(takeRefused()).toEqual(["https://example.com/hook", "http://10.0.0.1:8080/"]);
	});

	it("lets this machine's addresses through", async () => {
		for (const url of ["http://127.0.0.1:9/", "http://localhost:9/x", "http://[::1]:9/"])
			expect(staysLocal(url), url).toBe(true);
		for (const url of ["http://127.0.0.2/", "http://localhost.example.com/", "https://hooks.example.com/"])
			expect(staysLocal(url), url).toBe(false);
		// The local webhook receiver, through the guarded fetch.
		const rx = receiver();
		const name = `guard-${crypto.randomUUID()}`;
		const hook = await rx.route(name);
		expect((await fetch(hook, { method: "POST", body: "{}" })).status).toBe(200);
		expect(await rx.requests(name)).toHaveLength(1);
	});
});
