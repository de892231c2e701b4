CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`company_name` text NOT NULL,
	`plan` text NOT NULL,
	`webhook_secret` text NOT NULL,
	`requests_per_minute_override` integer,
	`concurrent_interviews_override` integer,
	`monthly_interviews_override` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`environment` text NOT NULL,
	`key_hash` text NOT NULL,
	`key_prefix` text NOT NULL,
	`permissions` text NOT NULL,
	`expires_at` integer,
	`revoked_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_idx` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_account_idx` ON `api_keys` (`account_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `credit_ledger` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`interview_id` text,
	`kind` text NOT NULL,
	`amount` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `credit_ledger_account_idx` ON `credit_ledger` (`account_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `credit_ledger_interview_kind_idx` ON `credit_ledger` (`interview_id`,`kind`) WHERE interview_id IS NOT NULL;--> statement-breakpoint
CREATE TABLE `events` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`account_id` text NOT NULL,
	`environment` text NOT NULL,
	`type` text NOT NULL,
	`interview_id` text,
	`test_mode` integer NOT NULL,
	`data` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `events_id_idx` ON `events` (`id`);--> statement-breakpoint
CREATE INDEX `events_account_seq_idx` ON `events` (`account_id`,`environment`,`seq`);--> statement-breakpoint
CREATE INDEX `events_account_type_seq_idx` ON `events` (`account_id`,`environment`,`type`,`seq`);--> statement-breakpoint
CREATE INDEX `events_interview_seq_idx` ON `events` (`interview_id`,`seq`);--> statement-breakpoint
CREATE TABLE `interviews` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`environment` text NOT NULL,
	`test_mode` integer NOT NULL,
	`status` text NOT NULL,
	`candidate_email` text NOT NULL,
	`candidate_email_lower` text NOT NULL,
	`candidate_name` text,
	`position` text NOT NULL,
	`skills` text NOT NULL,
	`difficulty` text NOT NULL,
	`duration_minutes` integer NOT NULL,
	`company_name` text,
	`scheduled_at` integer NOT NULL,
	`started_at` integer,
	`completed_at` integer,
	`cancelled_at` integer,
	`overall_score` integer,
	`recommendation` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`version` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `interviews_account_created_idx` ON `interviews` (`account_id`,`environment`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `interviews_account_status_created_idx` ON `interviews` (`account_id`,`environment`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `interviews_account_email_created_idx` ON `interviews` (`account_id`,`environment`,`candidate_email_lower`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `interviews_account_scheduled_idx` ON `interviews` (`account_id`,`environment`,`scheduled_at`);