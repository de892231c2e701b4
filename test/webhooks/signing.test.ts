import { verify } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { deliveryMessage, parseDeliveryMessage } from "../../src/webhooks/message";
import {
	deliveryHeaders,
	signEnvelope,
	standardSignature,
	standardSignatureHeader,
} from "../../src/webhooks/signing";

const SECRET = "whsec_unit_test_secret";
const input = {
	event: "interview.scheduled",
	data: { id: "int_1", note: 'quotes " and \\ and "signature":"x"' },
	endpointId: "wh_abc",
	eventId: "evt_abc",
	timestamp: Date.UTC(2026, 0, 2, 3, 4, 5, 678),
	account: { id: "acc_abc", name: "Acme" },
};

describe("webhook signatures", () => {
	it("signs the exact body as sha256=<hex> that an independent verifier accepts", async () => {
		const signed = await signEnvelope(input, SECRET, null);
		expect(signed.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
		expect(await verify(SECRET, signed.body, signed.signature)).toBe(true);
		expect(await verify("whsec_other", signed.body, signed.signature)).toBe(false);
		expect(await verify(SECRET, `${signed.body} `, signed.signature)).toBe(false);
	});

	it("builds the envelope of event, data, webhook and account", async () => {
		const signed = await signEnvelope(input, SECRET, null);
		const body = JSON.parse(signed.body);
		expect(Object.keys(body)).toEqual(["event", "data", "webhook", "account"]);
		expect(body.event).toBe("interview.scheduled");
		expect(body.data).toEqual(input.data);
		expect(body.webhook).toEqual({
			id: "wh_abc",
			event_id: "evt_abc",
			timestamp: "2026-01-02T03:04:05.678Z",
			signature: expect.stringMatching(/^sha256=[0-9a-f]{64}$/),
		});
		expect(body.account).toEqual({ id: "acc_abc", name: "Acme" });
	});

	it("puts in webhook.signature the HMAC of the body with that value emptied", async () => {
		const signed = await signEnvelope(input, SECRET, null);
		const inner: string = JSON.parse(signed.body).webhook.signature;
		const emptied = signed.body.replace(`"signature":"${inner}"`, '"signature":""');
		expect(emptied).not.toBe(signed.body);
		expect(await verify(SECRET, emptied, inner)).toBe(true);
		expect(inner).not.toBe(signed.signature);
	});

	it("signs with the previous secret too while a rotation overlaps", async () => {
		const signed = await signEnvelope(input, SECRET, "whsec_previous");
		expect(await verify("whsec_previous", signed.body, signed.previousSignature as string)).toBe(true);
		const headers = deliveryHeaders({
			event: input.event,
			eventId: input.eventId,
			deliveryId: "dlv_1",
			timestamp: input.timestamp,
			signed,
			standardSignature: "v1,x",
		});
		expect(headers["X-Service-Signature-Previous"]).toBe(signed.previousSignature);
	});

	it("sends every header of the contract", async () => {
		const signed = await signEnvelope(input, SECRET, null);
		const headers = deliveryHeaders({
			event: input.event,
			eventId: input.eventId,
			deliveryId: "dlv_1",
			timestamp: input.timestamp,
			signed,
			standardSignature: "v1,x",
		});
		expect(headers).toEqual({
			"Content-Type": "application/json",
			"User-Agent": "Service-Webhooks/1.0",
			"X-Service-Event": "interview.scheduled",
			"X-Service-Event-Id": "evt_abc",
			"X-Service-Delivery": "dlv_1",
			"X-Service-Timestamp": String(Math.floor(input.timestamp / 1000)),
			"X-Service-Signature": signed.signature,
			"webhook-id": "dlv_1",
			"webhook-timestamp": String(Math.floor(input.timestamp / 1000)),
			"webhook-signature": "v1,x",
		});
	});
});

describe("Standard Webhooks signatures", () => {
	const now = Date.now();
	const seconds = Math.floor(now / 1000);

	async function standardHeaders(secret: string, previous: string | null) {
		const signed = await signEnvelope({ ...input, timestamp: now }, secret, previous);
		const headers = deliveryHeaders({
			event: input.event,
			eventId: input.eventId,
			deliveryId: "dlv_std",
			timestamp: now,
			signed,
			standardSignature: await standardSignatureHeader(
				{ current: secret, previous },
				"dlv_std",
				seconds,
				signed.body,
			),
		});
		return { body: signed.body, headers };
	}

	it("is accepted by the standardwebhooks library given the account's secret in raw form", async () => {
		const { body, headers } = await standardHeaders(SECRET, null);
		expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
		const payload = new Webhook(SECRET, { format: "raw" }).verify(body, headers);
		expect(payload).toEqual(JSON.parse(body));
		// The documented equivalent: the secret's bytes in base64 behind whsec_.
		const encoded = `whsec_${btoa(SECRET)}`;
		expect(new Webhook(encoded).verify(body, headers)).toEqual(JSON.parse(body));
	});

	it("is refused for another secret, a changed body, id or timestamp", async () => {
		const { body, headers } = await standardHeaders(SECRET, null);
		expect(() => new Webhook("whsec_other", { format: "raw" }).verify(body, headers)).toThrow();
		// The secret text read as base64 is a different key: that form does not verify.
		expect(() => new Webhook(SECRET).verify(body, headers)).toThrow();
		const wh = new Webhook(SECRET, { format: "raw" });
		expect(() => wh.verify(`${body} `, headers)).toThrow();
		expect(() => wh.verify(body, { ...headers, "webhook-id": "dlv_other" })).toThrow();
		expect(() => wh.verify(body, { ...headers, "webhook-timestamp": String(seconds + 1) })).toThrow();
	});

	it("is refused outside the library's five-minute window", async () => {
		const old = Date.now() - 6 * 60 * 1000;
		const signed = await signEnvelope({ ...input, timestamp: old }, SECRET, null);
		const oldSeconds = Math.floor(old / 1000);
		const headers = {
			"webhook-id": "dlv_old",
			"webhook-timestamp": String(oldSeconds),
			"webhook-signature": await standardSignature(SECRET, "dlv_old", oldSeconds, signed.body),
		};
		expect(() => new Webhook(SECRET, { format: "raw" }).verify(signed.body, headers)).toThrow(/too old/);
	});

	it("carries both secrets' signatures during a rotation, each verifying alone", async () => {
		const { body, headers } = await standardHeaders("whsec_new", "whsec_old");
		expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
		expect(new Webhook("whsec_new", { format: "raw" }).verify(body, headers)).toBeTruthy();
		expect(new Webhook("whsec_old", { format: "raw" }).verify(body, headers)).toBeTruthy();
		expect(() => new Webhook("whsec_none", { format: "raw" }).verify(body, headers)).toThrow();
	});
});

describe("webhook delivery messages", () => {
	it("carries references only, far under the queue's message size limit", () => {
		const message = deliveryMessage({
			id: `dlv_${"a".repeat(24)}`,
			endpointId: `wh_${"b".repeat(24)}`,
			eventId: `evt_${"c".repeat(24)}`,
		});
		expect(JSON.stringify(message).length).toBeLessThan(200);
		expect(parseDeliveryMessage(message)).toEqual(message);
		expect(parseDeliveryMessage({ v: 2, delivery_id: "x", endpoint_id: "y", event_id: "z" })).toBeNull();
		expect(parseDeliveryMessage({ v: 1, delivery_id: 1, endpoint_id: "y", event_id: "z" })).toBeNull();
		expect(parseDeliveryMessage("dlv_x")).toBeNull();
	});
});
