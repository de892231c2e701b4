CREATE TABLE `idempotency_keys` (
	`account_id` text NOT NULL,
	`environment` text NOT NULL,
	`key` text NOT NULL,
	`fingerprint` text NOT NULL,
	`state` text NOT NULL,
	`lock_id` text NOT NULL,
	`locked_until` integer NOT NULL,
	`response_status` integer,
	`response_body` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `environment`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_expires_idx` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE TABLE `monthly_interview_usage` (
	`interview_id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`period` text NOT NULL,
	`created_at` integer NOT NULL,
	`released_at` integer
);
--> statement-breakpoint
CREATE INDEX `monthly_interview_usage_account_period_idx` ON `monthly_interview_usage` (`account_id`,`period`,`released_at`);--> statement-breakpoint
CREATE INDEX `interviews_environment_created_idx` ON `interviews` (`environment`,`created_at`);