CREATE TABLE `webhook_attempts` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`delivery_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`url` text NOT NULL,
	`attempted_at` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`outcome` text NOT NULL,
	`status_code` integer,
	`error_type` text,
	`error` text,
	`response_body` text,
	`next_attempt_at` integer
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery_idx` ON `webhook_attempts` (`delivery_id`,`seq`);--> statement-breakpoint
CREATE INDEX `webhook_attempts_endpoint_idx` ON `webhook_attempts` (`endpoint_id`,`seq`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`kind` text NOT NULL,
	`redelivery_of` text,
	`payload` text,
	`outcome` text NOT NULL,
	`attempt_count` integer DEFAULT 0 NOT NULL,
	`last_status_code` integer,
	`last_error` text,
	`next_attempt_at` integer,
	`enqueued_at` integer,
	`completed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_created_idx` ON `webhook_deliveries` (`endpoint_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_outcome_created_idx` ON `webhook_deliveries` (`endpoint_id`,`outcome`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event_idx` ON `webhook_deliveries` (`event_id`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`environment` text NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`active` integer NOT NULL,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`failing_since` integer,
	`failed_attempts` integer DEFAULT 0 NOT NULL,
	`succeeded_attempts` integer DEFAULT 0 NOT NULL,
	`last_attempt_at` integer,
	`last_attempt_outcome` text,
	`last_attempt_status_code` integer,
	`disabled_reason` text,
	`disabled_at` integer,
	`disabled_event_id` text,
	`disabled_event_published` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_account_created_idx` ON `webhook_endpoints` (`account_id`,`environment`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_endpoints_account_active_idx` ON `webhook_endpoints` (`account_id`,`environment`,`active`);--> statement-breakpoint
CREATE TABLE `webhook_previous_secrets` (
	`account_id` text PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`rotated_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
