-- One attempt row per delivery and attempt number. A record batch that committed with its answer
-- lost could log an attempt twice before this; the first row of each is kept.
DELETE FROM `webhook_attempts` WHERE `seq` NOT IN (SELECT min(`seq`) FROM `webhook_attempts` GROUP BY `delivery_id`, `attempt`);--> statement-breakpoint
DROP INDEX `webhook_attempts_delivery_idx`;--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_attempts_delivery_attempt_idx` ON `webhook_attempts` (`delivery_id`,`attempt`);
