CREATE TABLE `user_emails` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`user_id` text NOT NULL,
	`template` text NOT NULL,
	`sender` text NOT NULL,
	`sender_name` text NOT NULL,
	`recipient` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text NOT NULL,
	`link_base` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`last_error` text,
	`lease_until` integer,
	`provider_message_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`sent_at` integer
);
--> statement-breakpoint
CREATE INDEX `user_emails_user_idx` ON `user_emails` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `user_emails_status_idx` ON `user_emails` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `user_emails_final_idx` ON `user_emails` (`updated_at`) WHERE "user_emails"."status" <> 'queued';