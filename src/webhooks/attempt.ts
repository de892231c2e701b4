import { type Classification, classifyAttempt } from "./classify";
import type { SigningSecrets } from "./secrets";
import { sendWebhook } from "./send";
import { deliveryHeaders, signEnvelope, standardSignatureHeader, unixSeconds } from "./signing";
import { checkWebhookUrl } from "./url-policy";

export interface AttemptTarget {
	url: string;
	endpointId: string;
	deliveryId: string;
	eventId: string;
	eventType: string;
	data: Record<string, unknown>;
	account: { id: string; name: string };
	secrets: SigningSecrets;
}

export interface AttemptSettings {
	environment: string;
	timeoutMs: number;
	clock: () => number;
}

export interface AttemptReport {
	attemptedAt: number;
	durationMs: number;
	classification: Classification;
	responseBody: string | null;
}

/**
 * One signed POST to one endpoint. The URL is checked again first (the rules may have changed
 * since registration, e.g. a development URL in production); a refused URL is a failed attempt.
 */
export async function attemptDelivery(
	target: AttemptTarget,
	settings: AttemptSettings,
): Promise<AttemptReport> {
	const attemptedAt = settings.clock();
	const verdict = checkWebhookUrl(target.url, settings.environment);
	if (!verdict.ok) {
		return {
			attemptedAt,
			durationMs: 0,
			classification: classifyAttempt({ kind: "refused", reason: `URL refused: ${verdict.reason}` }),
			responseBody: null,
		};
	}
	const signed = await signEnvelope(
		{
			event: target.eventType,
			data: target.data,
			endpointId: target.endpointId,
			eventId: target.eventId,
			timestamp: attemptedAt,
			account: target.account,
		},
		target.secrets.current,
		target.secrets.previous,
	);
	const headers = deliveryHeaders({
		event: target.eventType,
		eventId: target.eventId,
		deliveryId: target.deliveryId,
		timestamp: attemptedAt,
		signed,
		standardSignature: await standardSignatureHeader(
			target.secrets,
			target.deliveryId,
			unixSeconds(attemptedAt),
			signed.body,
		),
	});
	const sent = await sendWebhook(
		{ url: verdict.url, headers, body: signed.body, timeoutMs: settings.timeoutMs },
		settings.clock,
	);
	return {
		attemptedAt,
		durationMs: Math.max(0, sent.durationMs),
		classification: classifyAttempt(sent.result),
		responseBody: sent.responseBody,
	};
}
