import { hmacSha256Base64, hmacSha256Hex } from "../platform/lib/crypto";

export const USER_AGENT = "Service-Webhooks/1.0";

export interface EnvelopeInput {
	event: string;
	data: Record<string, unknown>;
	endpointId: string;
	eventId: string;
	/** Epoch ms of this attempt. */
	timestamp: number;
	account: { id: string; name: string };
}

export interface SignedEnvelope {
	/** The exact bytes sent; every signature covers this text. */
	body: string;
	/** `sha256=<hex>` of `body` with the account's current secret (`X-Service-Signature`). */
	signature: string;
	/** The same with the previous secret, while a rotation is in its 24-hour overlap. */
	previousSignature: string | null;
}

export async function signature(secret: string, text: string): Promise<string> {
	return `sha256=${await hmacSha256Hex(secret, text)}`;
}

/**
 * Builds the envelope of decisions.md and signs it. `webhook.signature` is the HMAC of the body
 * as it would read with that field's value being the empty string; the header signs the final
 * body, so it covers the envelope signature and the timestamp too.
 */
export async function signEnvelope(
	input: EnvelopeInput,
	secret: string,
	previousSecret: string | null,
): Promise<SignedEnvelope> {
	const envelope = {
		event: input.event,
		data: input.data,
		webhook: {
			id: input.endpointId,
			event_id: input.eventId,
			timestamp: new Date(input.timestamp).toISOString(),
			signature: "",
		},
		account: { id: input.account.id, name: input.account.name },
	};
	envelope.webhook.signature = await signature(secret, JSON.stringify(envelope));
	const body = JSON.stringify(envelope);
	return {
		body,
		signature: await signature(secret, body),
		previousSignature: previousSecret === null ? null : await signature(previousSecret, body),
	};
}

/**
 * The Standard Webhooks signature (standardwebhooks.com): `v1,<base64>` of HMAC-SHA256 over
 * `{webhook-id}.{webhook-timestamp}.{body}`. The key is the same as for `sha256=`: the UTF-8
 * bytes of the account's secret text, `whsec_` prefix included. A Standard Webhooks library takes
 * it as `new Webhook(secret, { format: "raw" })` (or, equivalently, the secret's bytes in base64
 * behind `whsec_`): the secret's characters after `whsec_` are not base64 of the key.
 */
export async function standardSignature(
	secret: string,
	deliveryId: string,
	timestampSeconds: number,
	body: string,
): Promise<string> {
	return `v1,${await hmacSha256Base64(secret, `${deliveryId}.${timestampSeconds}.${body}`)}`;
}

/**
 * The `webhook-signature` header: the current secret's signature and, while a rotation is in its
 * 24-hour overlap, the previous secret's, space-separated as the specification allows.
 */
export async function standardSignatureHeader(
	secrets: { current: string; previous: string | null },
	deliveryId: string,
	timestampSeconds: number,
	body: string,
): Promise<string> {
	const signatures = [await standardSignature(secrets.current, deliveryId, timestampSeconds, body)];
	if (secrets.previous !== null) {
		signatures.push(await standardSignature(secrets.previous, deliveryId, timestampSeconds, body));
	}
	return signatures.join(" ");
}

export interface HeaderInput {
	event: string;
	eventId: string;
	deliveryId: string;
	/** Epoch ms of this attempt. */
	timestamp: number;
	signed: SignedEnvelope;
	/** `webhook-signature`, from standardSignatureHeader with `unixSeconds(timestamp)`. */
	standardSignature: string;
}

export function unixSeconds(timestamp: number): number {
	return Math.floor(timestamp / 1000);
}

export function deliveryHeaders(input: HeaderInput): Record<string, string> {
	const headers: Record<string, string> = {
		"Content-Type": "application/json",
		"User-Agent": USER_AGENT,
		"X-Service-Event": input.event,
		"X-Service-Event-Id": input.eventId,
		"X-Service-Delivery": input.deliveryId,
		"X-Service-Timestamp": String(unixSeconds(input.timestamp)),
		"X-Service-Signature": input.signed.signature,
		"webhook-id": input.deliveryId,
		"webhook-timestamp": String(unixSeconds(input.timestamp)),
		"webhook-signature": input.standardSignature,
	};
	if (input.signed.previousSignature !== null) {
		headers["X-Service-Signature-Previous"] = input.signed.previousSignature;
	}
	return headers;
}
