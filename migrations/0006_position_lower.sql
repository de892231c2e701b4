ALTER TABLE `interviews` ADD `position_lower` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Rows written before this column existed: SQLite folds ASCII letters only; every later write of a
-- projection row sets the column from JavaScript, which folds every script.
UPDATE `interviews` SET `position_lower` = lower(`position`);
