import { newId } from "../platform/lib/random";

/**
 * Tests and redeliveries are new deliveries each time. (An event's deliveries get their ids from
 * the database, which records them with the event: migration 0008.)
 */
export function newDeliveryId(): string {
	return newId("dlv");
}
