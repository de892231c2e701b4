import { env } from "cloudflare:workers";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { DEFAULT_TIMEOUT_MS, MAX_ATTEMPTS } from "../../src/webhooks/backoff";
import { ATTEMPTS_IN_FLIGHT } from "../../src/webhooks/consumer";
import { DEFAULT_RESEND_AFTER_S } from "../../src/webhooks/resend";

interface Consumer {
	queue: string;
	max_batch_size?: number;
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

	it("takes webhook batches no larger than their claimed attempts can all be made before housekeeping resends them", () => {
		const size = consumers.find((c) => c.queue === "interview-webhooks")?.max_batch_size ?? 10;
		// Cloudflare's largest batch.
		expect(size).toBeLessThanOrEqual(100);
		// A batch claims all its attempts first, then makes them ATTEMPTS_IN_FLIGHT at a time, each
		// up to the timeout: the last must end, and be recorded, before a claimed row counts as
		// untouched (`DELIVERY_RESEND_AFTER_S`).
		const longestMs = Math.ceil(size / ATTEMPTS_IN_FLIGHT) * DEFAULT_TIMEOUT_MS;
		expect(longestMs).toBeLessThan(DEFAULT_RESEND_AFTER_S * 1000);
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
