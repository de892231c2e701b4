ALTER TABLE `interview_seeds` ADD `claimed_at` integer;--> statement-breakpoint
CREATE INDEX `events_created_idx` ON `events` (`created_at`);--> statement-breakpoint
CREATE INDEX `candidate_emails_final_idx` ON `candidate_emails` (`updated_at`) WHERE "candidate_emails"."status" <> 'queued';--> statement-breakpoint
CREATE INDEX `webhook_deliveries_final_idx` ON `webhook_deliveries` (`completed_at`) WHERE "webhook_deliveries"."completed_at" IS NOT NULL;