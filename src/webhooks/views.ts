import { iso, isoOrNull } from "../platform/lib/time";
import type { AttemptRow, DeliveryRow } from "./deliveries-repo";
import type { EndpointRow } from "./endpoints-repo";

/** The stored endpoint record as the API returns it (docs/webhooks.md describes each field). */
export function endpointView(row: EndpointRow) {
	return {
		id: row.id,
		url: row.url,
		events: row.events,
		active: row.active,
		environment: row.environment,
		test_mode: row.testMode,
		disabled_reason: row.disabledReason,
		disabled_at: isoOrNull(row.disabledAt),
		failure_counts: {
			consecutive: row.consecutiveFailures,
			failing_since: isoOrNull(row.failingSince),
			total_failed_attempts: row.failedAttempts,
			total_succeeded_attempts: row.succeededAttempts,
		},
		last_delivery:
			row.lastAttemptAt === null
				? null
				: {
						attempted_at: iso(row.lastAttemptAt),
						outcome: row.lastAttemptOutcome,
						status_code: row.lastAttemptStatusCode,
					},
		created_at: iso(row.createdAt),
		updated_at: iso(row.updatedAt),
	};
}

export function attemptView(row: AttemptRow) {
	return {
		attempt: row.attempt,
		attempted_at: iso(row.attemptedAt),
		duration_ms: row.durationMs,
		outcome: row.outcome,
		status_code: row.statusCode,
		error_type: row.errorType,
		error: row.error,
		response_body: row.responseBody,
		url: row.url,
		next_attempt_at: isoOrNull(row.nextAttemptAt),
	};
}

export function deliveryView(row: DeliveryRow, attempts: AttemptRow[]) {
	return {
		id: row.id,
		webhook_id: row.endpointId,
		event: row.eventType,
		event_id: row.eventId,
		kind: row.kind,
		redelivery_of: row.redeliveryOf,
		outcome: row.outcome,
		attempt_count: row.attemptCount,
		last_status_code: row.lastStatusCode,
		last_error: row.lastError,
		next_attempt_at: isoOrNull(row.nextAttemptAt),
		completed_at: isoOrNull(row.completedAt),
		created_at: iso(row.createdAt),
		updated_at: iso(row.updatedAt),
		attempts: attempts.filter((a) => a.deliveryId === row.id).map(attemptView),
	};
}
