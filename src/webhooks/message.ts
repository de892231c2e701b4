/**
 * A webhook queue message: references only (a few hundred bytes), never the payload, which the
 * consumer reads from D1 at each attempt.
 */
export interface DeliveryMessage {
	v: 1;
	delivery_id: string;
	endpoint_id: string;
	event_id: string;
	/**
	 * Attempts already made when the message was sent (the resend sweep hands over deliveries
	 * that were attempted before): the consumer numbers this message's attempts after them, so
	 * they are not taken for duplicates of attempts already made. Absent: 0.
	 */
	base?: number;
}

export function deliveryMessage(d: {
	id: string;
	endpointId: string;
	eventId: string;
	attemptCount?: number;
}): DeliveryMessage {
	const message: DeliveryMessage = {
		v: 1,
		delivery_id: d.id,
		endpoint_id: d.endpointId,
		event_id: d.eventId,
	};
	if (d.attemptCount) message.base = d.attemptCount;
	return message;
}

export function parseDeliveryMessage(body: unknown): DeliveryMessage | null {
	if (typeof body !== "object" || body === null) return null;
	const b = body as Record<string, unknown>;
	if (b.v !== 1) return null;
	for (const key of ["delivery_id", "endpoint_id", "event_id"] as const) {
		if (typeof b[key] !== "string" || (b[key] as string).length > 64) return null;
	}
	if (
		b.base !== undefined &&
		!(Number.isInteger(b.base) && (b.base as number) >= 0 && (b.base as number) <= 100)
	)
		return null;
	return b as unknown as DeliveryMessage;
}
