ALTER TABLE `observer_tickets` ADD `session_hash` text;--> statement-breakpoint
ALTER TABLE `observer_tickets` ADD `used_at` integer;--> statement-breakpoint
CREATE INDEX `observer_tickets_session_idx` ON `observer_tickets` (`session_hash`);