import { Hono } from "hono";
import type { DashBindings } from "./session";
import { webhookDeliveryPages } from "./webhook-deliveries";
import { webhookEndpointPages } from "./webhook-endpoints";

export const webhookPages = new Hono<DashBindings>();

// The endpoint list and form, then one endpoint with its delivery log.
webhookPages.route("/", webhookEndpointPages);
webhookPages.route("/", webhookDeliveryPages);
