CREATE TABLE `candidate_emails` (
	`id` text PRIMARY KEY NOT NULL,
	`interview_id` text NOT NULL,
	`account_id` text NOT NULL,
	`environment` text NOT NULL,
	`template` text NOT NULL,
	`sender` text NOT NULL,
	`recipient` text NOT NULL,
	`recipient_name` text,
	`sender_name` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text NOT NULL,
	`ics` text NOT NULL,
	`sequence` integer NOT NULL,
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
CREATE INDEX `candidate_emails_interview_idx` ON `candidate_emails` (`interview_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `candidate_emails_status_idx` ON `candidate_emails` (`status`,`created_at`);