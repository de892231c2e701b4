import { env } from "cloudflare:workers";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS } from "../../src/webhooks/backoff";

interface Consumer {
	queue: string;
	max_retries?: number;
	dead_letter_queue?: string;
}
interface Section {
	queues?: { consumers?: Consumer[]; producers?: { binding: string; queue: string }[] };
}

const config = parse(env.TEST_WRANGLER_TOML) as unknown as Section & { env: { production: Section } };

describe.each([
	["default", config],
	["production", config.env.production],
])("wrangler.toml (%s environment)", (_name, section) => {
	const consumers = section.queues?.consumers ?? [];

	it("retries webhook messages five times (six attempts) and then dead-letters them", () => {
		const webhooks = consumers.find((c) => c.queue === "interview-webhooks");
		expect(webhooks?.max_retries).toBe(5);
		expect(webhooks?.max_retries).toBe(MAX_ATTEMPTS - 1);
		expect(webhooks?.dead_letter_queue).toBe("interview-webhooks-dlq");
	});

	it("consumes the dead-letter queue so no delivery stays pending", () => {
		expect(consumers.some((c) => c.queue === "interview-webhooks-dlq")).toBe(true);
	});

	it("binds the webhook queue producer", () => {
		expect(section.queues?.producers).toContainEqual({
			binding: "WEBHOOK_QUEUE",
			queue: "interview-webhooks",
		});
	});
});
