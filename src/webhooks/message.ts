/**
 * A webhook queue message: references only (a few hundred bytes), never the payload, which the
 * consumer reads from D1 at each attempt.
 */
export interface DeliveryMessage {
	v: 1;
	delivery_id: string;
	endpoint_id: string;
	event_id: string;
}

export function deliveryMessage(d: { id: string; endpointId: string; eventId: string }): DeliveryMessage {
	return { v: 1, delivery_id: d.id, endpoint_id: d.endpointId, event_id: d.eventId };
}

export function parseDeliveryMessage(body: unknown): DeliveryMessage | null {
	if (typeof body !== "object" || body === null) return null;
	const b = body as Record<string, unknown>;
	if (b.v !== 1) return null;
	for (const key of ["delivery_id", "endpoint_id", "event_id"] as const) {
		if (typeof b[key] !== "string" || (b[key] as string).length > 64) return null;
	}
	return b as unknown as DeliveryMessage;
}
