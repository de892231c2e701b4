CREATE TABLE `interview_seeds` (
	`id` text PRIMARY KEY NOT NULL,
	`state` text NOT NULL,
	`outbox` text NOT NULL,
	`timers` text NOT NULL,
	`wake_at` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `interview_seeds_wake_idx` ON `interview_seeds` (`wake_at`);