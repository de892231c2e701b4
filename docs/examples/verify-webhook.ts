// Receiver-side verification of the service's webhooks. Standard Web APIs only (Node 20+,
// Cloudflare Workers, Deno, Bun). Pass the raw body exactly as received, before any JSON parsing.

export interface WebhookEnvelope {
	event: string;
	data: Record<string, unknown>;
	webhook: { id: string; event_id: string; timestamp: string; signature: string };
	account: { id: string; name: string };
}

export type Verification =
	| { ok: true; envelope: WebhookEnvelope }
	| { ok: false; status: 400 | 401; reason: string };

const encoder = new TextEncoder();

async function hmacHex(secret: string, text: string): Promise<string> {
	const key = await crypto.subtle.importKey(
		"raw",
		encoder.encode(secret),
		{ name: "HMAC", hash: "SHA-256" },
		false,
		["sign"],
	);
	const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(text)));
	return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Compares in time that depends only on the length, never on where the texts differ. */
function constantTimeEqual(a: string, b: string): boolean {
	const x = encoder.encode(a);
	const y = encoder.encode(b);
	let diff = x.length ^ y.length;
	for (let i = 0; i < x.length; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
	return diff === 0;
}

/** Accepts `sha256=<hex>` and, as some setup examples send it, the bare hex digest. */
function digestOf(header: string | null): string | null {
	if (!header) return null;
	const hex = header.startsWith("sha256=") ? header.slice("sha256=".length) : header;
	return /^[0-9a-f]{64}$/.test(hex) ? hex : null;
}

/**
 * Verifies the signature of the raw body against each secret you hold (during a rotation: the
 * new one and the old one; the service signs with the new secret in `X-Service-Signature` and,
 * for 24 hours, with the old one in `X-Service-Signature-Previous`), then refuses deliveries
 * whose signed `webhook.timestamp` is further than `toleranceSeconds` from now.
 */
export async function verifyWebhook(
	rawBody: string,
	headers: Headers,
	secrets: string[],
	options: { toleranceSeconds?: number; now?: number } = {},
): Promise<Verification> {
	const candidates = [headers.get("X-Service-Signature"), headers.get("X-Service-Signature-Previous")]
		.map(digestOf)
		.filter((d): d is string => d !== null);
	let valid = false;
	for (const secret of secrets) {
		const expected = await hmacHex(secret, rawBody);
		for (const candidate of candidates) {
			if (constantTimeEqual(expected, candidate)) valid = true;
		}
	}
	if (!valid) return { ok: false, status: 401, reason: "signature mismatch" };

	let envelope: WebhookEnvelope;
	try {
		envelope = JSON.parse(rawBody) as WebhookEnvelope;
	} catch {
		return { ok: false, status: 400, reason: "body is not JSON" };
	}
	// The body's timestamp is covered by the signature; the X-Service-Timestamp header is not.
	const sentAt = Date.parse(envelope.webhook?.timestamp ?? "");
	const tolerance = (options.toleranceSeconds ?? 300) * 1000;
	if (Number.isNaN(sentAt) || Math.abs((options.now ?? Date.now()) - sentAt) > tolerance) {
		return { ok: false, status: 401, reason: "stale or missing timestamp" };
	}
	return { ok: true, envelope };
}

/** The envelope's own `webhook.signature`: the HMAC of the body with that value emptied. */
export async function verifyEnvelopeSignature(rawBody: string, secret: string): Promise<boolean> {
	const signature = (JSON.parse(rawBody) as WebhookEnvelope).webhook.signature;
	const emptied = rawBody.replace(`"signature":"${signature}"`, '"signature":""');
	const digest = digestOf(signature);
	return digest !== null && emptied !== rawBody && constantTimeEqual(await hmacHex(secret, emptied), digest);
}
