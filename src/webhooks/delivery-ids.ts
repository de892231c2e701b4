import { sha256Hex } from "../lib/crypto";
import { newId } from "../lib/random";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * The delivery of one event to one endpoint has one id, derived from both: publishing the same
 * event again (an outbox retry) finds the same row instead of making a second delivery.
 */
export async function eventDeliveryId(eventId: string, endpointId: string): Promise<string> {
	const hex = await sha256Hex(`delivery:${eventId}:${endpointId}`);
	let id = "";
	for (let i = 0; i < 24; i++) id += BASE62[Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16) % 62];
	return `dlv_${id}`;
}

/** Tests and redeliveries are new deliveries each time. */
export function newDeliveryId(): string {
	return newId("dlv");
}
