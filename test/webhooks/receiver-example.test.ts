import { describe, expect, it } from "vitest";
import { verifyEnvelopeSignature, verifyWebhook } from "../../docs/examples/verify-webhook";
import { deliveryHeaders, signEnvelope } from "../../src/webhooks/signing";

const SECRET = "whsec_receiver_example";
const SENT = Date.UTC(2026, 5, 1, 12, 0, 0);

async function delivery(secret = SECRET, previous: string | null = null) {
	const signed = await signEnvelope(
		{
			event: "interview.completed",
			data: { id: "int_x", completed_at: "2026-06-01T11:59:00.000Z" },
			endpointId: "wh_x",
			eventId: "evt_x",
			timestamp: SENT,
			account: { id: "acc_x", name: "Example" },
		},
		secret,
		previous,
	);
	const headers = new Headers(
		deliveryHeaders({
			event: "interview.completed",
			eventId: "evt_x",
			deliveryId: "dlv_x",
			timestamp: SENT,
			signed,
			standardSignature: "v1,unused-here",
		}),
	);
	return { body: signed.body, headers };
}

describe("the documented receiver code", () => {
	it("accepts a genuine delivery and returns the envelope", async () => {
		const { body, headers } = await delivery();
		const result = await verifyWebhook(body, headers, [SECRET], { now: SENT + 1000 });
		expect(result).toMatchObject({
			ok: true,
			envelope: { event: "interview.completed", webhook: { id: "wh_x" } },
		});
		expect(await verifyEnvelopeSignature(body, SECRET)).toBe(true);
	});

	it("answers 401 for a tampered body or a wrong secret", async () => {
		const { body, headers } = await delivery();
		const tampered = body.replace("int_x", "int_y");
		expect(await verifyWebhook(tampered, headers, [SECRET], { now: SENT })).toMatchObject({
			ok: false,
			status: 401,
		});
		expect(await verifyWebhook(body, headers, ["whsec_wrong"], { now: SENT })).toMatchObject({
			ok: false,
			status: 401,
		});
		expect(await verifyEnvelopeSignature(tampered, SECRET)).toBe(false);
	});

	it("refuses a stale delivery even with a valid signature", async () => {
		const { body, headers } = await delivery();
		expect(await verifyWebhook(body, headers, [SECRET], { now: SENT + 301_000 })).toMatchObject({
			ok: false,
			reason: "stale or missing timestamp",
		});
		expect(await verifyWebhook(body, headers, [SECRET], { now: SENT - 301_000 })).toMatchObject({
			ok: false,
		});
	});

	it("accepts the previous secret during a rotation and the bare hex digest", async () => {
		const { body, headers } = await delivery("whsec_new", "whsec_old");
		expect(await verifyWebhook(body, headers, ["whsec_old"], { now: SENT })).toMatchObject({ ok: true });
		const bare = new Headers(headers);
		bare.set("X-Service-Signature", (headers.get("X-Service-Signature") ?? "").replace("sha256=", ""));
		bare.delete("X-Service-Signature-Previous");
		expect(await verifyWebhook(body, bare, ["whsec_new"], { now: SENT })).toMatchObject({ ok: true });
	});
});
