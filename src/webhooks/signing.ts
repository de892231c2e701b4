import { hmacSha256Hex } from "../platform/lib/crypto";

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

export interface HeaderInput {
	event: string;
	eventId: string;
	deliveryId: string;
	timestamp: number;
	signed: SignedEnvelope;
}

export function deliveryHeaders(input: HeaderInput): Record<string, string> {
	const headers: Record<string, string> = {
		"Content-Type": "application/json",
		"User-Agent": USER_AGENT,
		"X-Service-Event": input.event,
		"X-Service-Event-Id": input.eventId,
		"X-Service-Delivery": input.deliveryId,
		"X-Service-Timestamp": String(Math.floor(input.timestamp / 1000)),
		"X-Service-Signature": input.signed.signature,
	};
	if (input.signed.previousSignature !== null) {
		headers["X-Service-Signature-Previous"] = input.signed.previousSignature;
	}
	return headers;
}
