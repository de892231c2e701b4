/** Every event the service emits (interface.md's table plus the project's own, see docs/events.md). */
export const EVENT_TYPES = [
	"interview.scheduled",
	"interview.started",
	"interview.completed",
	"interview.cancelled",
	"interview.updated",
	"interview.rescheduled",
	"results.analyzed",
	"analysis.ready",
	"candidate.no_show",
	"candidate.joined",
	"candidate.notified",
	"credits.refunded",
	"webhook.endpoint.disabled",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
