CREATE INDEX `webhook_deliveries_unenqueued_idx` ON `webhook_deliveries` (`created_at`) WHERE "webhook_deliveries"."enqueued_at" IS NULL;--> statement-breakpoint
-- Every event records its webhook deliveries in the statement that records the event: one per
-- endpoint of the event's account and environment that is active and subscribed (`*` or the
-- event's type) at that moment. An event inserted again (an outbox retry, ignored on its id) fires
-- nothing, so a later endpoint never receives an earlier event. Ids are `dlv_` and 24 random
-- hexadecimal characters; rows start pending, to be sent by the fan-out (src/webhooks/fan-out.ts).
CREATE TRIGGER `events_record_deliveries` AFTER INSERT ON `events`
BEGIN
	INSERT INTO `webhook_deliveries` (`id`, `account_id`, `endpoint_id`, `event_id`, `event_type`, `kind`, `outcome`, `attempt_count`, `created_at`, `updated_at`)
	SELECT 'dlv_' || hex(randomblob(12)), NEW.`account_id`, e.`id`, NEW.`id`, NEW.`type`, 'event', 'pending', 0, NEW.`created_at`, NEW.`created_at`
	FROM `webhook_endpoints` e
	WHERE e.`account_id` = NEW.`account_id` AND e.`environment` = NEW.`environment` AND e.`active` = 1
		AND EXISTS (SELECT 1 FROM json_each(e.`events`) WHERE json_each.`value` IN ('*', NEW.`type`));
END;
