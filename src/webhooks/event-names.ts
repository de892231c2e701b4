import { EVENT_TYPES } from "../events/catalog";

/** Every event an endpoint can subscribe to; `*` subscribes to all of them, present and future. */
/** Every event an endpoint can subscribe to: the whole event catalog. */
export const WEBHOOK_EVENT_NAMES = EVENT_TYPES;

export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];

export const ALL_EVENTS = "*";

/** The event `POST /v1/webhooks/{id}/test` sends; it goes to the one endpoint whatever it subscribes to. */
export const TEST_EVENT = "webhook.test";

export const ENDPOINT_DISABLED_EVENT = "webhook.endpoint.disabled";

export function isKnownEventName(value: string): value is WebhookEventName {
	return (WEBHOOK_EVENT_NAMES as readonly string[]).includes(value);
}

export function subscribesTo(subscribed: readonly string[], eventType: string): boolean {
	return subscribed.includes(ALL_EVENTS) || subscribed.includes(eventType);
}
