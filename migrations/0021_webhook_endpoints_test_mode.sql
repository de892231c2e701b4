ALTER TABLE `webhook_endpoints` ADD `test_mode` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- As 0008's trigger, and an endpoint registered with a test key receives only test-mode events.
DROP TRIGGER `events_record_deliveries`;--> statement-breakpoint
CREATE TRIGGER `events_record_deliveries` AFTER INSERT ON `events`
BEGIN
	INSERT INTO `webhook_deliveries` (`id`, `account_id`, `endpoint_id`, `event_id`, `event_type`, `kind`, `outcome`, `attempt_count`, `created_at`, `updated_at`)
	SELECT 'dlv_' || hex(randomblob(12)), NEW.`account_id`, e.`id`, NEW.`id`, NEW.`type`, 'event', 'pending', 0, NEW.`created_at`, NEW.`created_at`
	FROM `webhook_endpoints` e
	WHERE e.`account_id` = NEW.`account_id` AND e.`environment` = NEW.`environment` AND e.`active` = 1
		AND (e.`test_mode` = 0 OR NEW.`test_mode` = 1)
		AND EXISTS (SELECT 1 FROM json_each(e.`events`) WHERE json_each.`value` IN ('*', NEW.`type`));
END;
