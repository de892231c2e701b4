import { z } from "zod";
import { pageLimit, requiredOr } from "../platform/http/validation";
import { ALL_EVENTS, isKnownEventName, WEBHOOK_EVENT_NAMES } from "./event-names";
import { MAX_URL_LENGTH } from "./url-policy";

export const MAX_EVENTS_PER_ENDPOINT = 50;
export const DELIVERY_OUTCOMES = ["pending", "succeeded", "failed", "cancelled"] as const;

const url = z
	.string({ error: requiredOr("Must be a string") })
	.max(MAX_URL_LENGTH, { error: `Must be at most ${MAX_URL_LENGTH} characters` });

const eventList = z
	.array(z.string({ error: "Must be a string" }), { error: requiredOr("Must be an array of event names") })
	.min(1, { error: "Must name at least one event, or '*' for all" })
	.max(MAX_EVENTS_PER_ENDPOINT, { error: `At most ${MAX_EVENTS_PER_ENDPOINT} events` })
	.superRefine((names, ctx) => {
		names.forEach((name, i) => {
			if (name !== ALL_EVENTS && !isKnownEventName(name)) {
				ctx.addIssue({
					code: "custom",
					path: [i],
					message: `Unknown event '${name.slice(0, 100)}'; use '*' or one of ${WEBHOOK_EVENT_NAMES.join(", ")}`,
				});
			}
		});
		if (names.includes(ALL_EVENTS) && names.length > 1) {
			ctx.addIssue({ code: "custom", message: "'*' already means every event; send it alone" });
		}
	})
	.transform((names) => [...new Set(names)]);

const active = z.boolean({ error: "Must be a boolean" });

export const createWebhookBody = z.strictObject(
	{ url, events: eventList, active: active.default(true) },
	{ error: "Must be a JSON object" },
);

export const updateWebhookBody = z
	.strictObject(
		{ url: url.optional(), events: eventList.optional(), active: active.optional() },
		{
			error: "Must be a JSON object",
		},
	)
	.refine((b) => b.url !== undefined || b.events !== undefined || b.active !== undefined, {
		error: "Send at least one of url, events, active",
	});

export const emptyBody = z.strictObject({}, { error: "Must be a JSON object" });

export const listWebhooksQuery = z.strictObject({ cursor: z.string().optional(), limit: pageLimit });

export const listDeliveriesQuery = z.strictObject({
	cursor: z.string().optional(),
	limit: pageLimit,
	outcome: z.enum(DELIVERY_OUTCOMES, { error: `Must be one of ${DELIVERY_OUTCOMES.join(", ")}` }).optional(),
});
