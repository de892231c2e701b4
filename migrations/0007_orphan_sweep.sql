CREATE TABLE `sweep_marks` (
	`name` text PRIMARY KEY NOT NULL,
	`until` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `monthly_interview_usage_created_idx` ON `monthly_interview_usage` (`created_at`);