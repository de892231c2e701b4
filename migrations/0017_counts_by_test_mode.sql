-- The counters gain test mode, so that the dashboard's live and test views (and any list
-- filtered by status alone) read their totals here instead of counting rows. Rebuilt from the
-- projection itself; the triggers are replaced to key by test mode too.
DROP TRIGGER IF EXISTS `interview_counts_insert`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `interview_counts_delete`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `interview_counts_update`;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_interview_counts` (
	`account_id` text NOT NULL,
	`environment` text NOT NULL,
	`test_mode` integer NOT NULL,
	`status` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`account_id`, `environment`, `test_mode`, `status`)
);
--> statement-breakpoint
INSERT INTO `__new_interview_counts`("account_id", "environment", "test_mode", "status", "count") SELECT "account_id", "environment", "test_mode", "status", count(*) FROM `interviews` GROUP BY "account_id", "environment", "test_mode", "status";--> statement-breakpoint
DROP TABLE `interview_counts`;--> statement-breakpoint
ALTER TABLE `__new_interview_counts` RENAME TO `interview_counts`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
-- No OR IGNORE inside the triggers: an outer upsert's conflict handling would override it.
CREATE TRIGGER `interview_counts_insert` AFTER INSERT ON `interviews`
BEGIN
	INSERT INTO `interview_counts` (`account_id`, `environment`, `test_mode`, `status`, `count`) SELECT NEW.`account_id`, NEW.`environment`, NEW.`test_mode`, NEW.`status`, 0 WHERE NOT EXISTS (SELECT 1 FROM `interview_counts` WHERE `account_id` = NEW.`account_id` AND `environment` = NEW.`environment` AND `test_mode` = NEW.`test_mode` AND `status` = NEW.`status`);
	UPDATE `interview_counts` SET `count` = `count` + 1 WHERE `account_id` = NEW.`account_id` AND `environment` = NEW.`environment` AND `test_mode` = NEW.`test_mode` AND `status` = NEW.`status`;
END;
--> statement-breakpoint
CREATE TRIGGER `interview_counts_delete` AFTER DELETE ON `interviews`
BEGIN
	UPDATE `interview_counts` SET `count` = `count` - 1 WHERE `account_id` = OLD.`account_id` AND `environment` = OLD.`environment` AND `test_mode` = OLD.`test_mode` AND `status` = OLD.`status`;
END;
--> statement-breakpoint
CREATE TRIGGER `interview_counts_update` AFTER UPDATE OF `status`, `account_id`, `environment`, `test_mode` ON `interviews`
WHEN OLD.`status` IS NOT NEW.`status` OR OLD.`account_id` IS NOT NEW.`account_id` OR OLD.`environment` IS NOT NEW.`environment` OR OLD.`test_mode` IS NOT NEW.`test_mode`
BEGIN
	UPDATE `interview_counts` SET `count` = `count` - 1 WHERE `account_id` = OLD.`account_id` AND `environment` = OLD.`environment` AND `test_mode` = OLD.`test_mode` AND `status` = OLD.`status`;
	INSERT INTO `interview_counts` (`account_id`, `environment`, `test_mode`, `status`, `count`) SELECT NEW.`account_id`, NEW.`environment`, NEW.`test_mode`, NEW.`status`, 0 WHERE NOT EXISTS (SELECT 1 FROM `interview_counts` WHERE `account_id` = NEW.`account_id` AND `environment` = NEW.`environment` AND `test_mode` = NEW.`test_mode` AND `status` = NEW.`status`);
	UPDATE `interview_counts` SET `count` = `count` + 1 WHERE `account_id` = NEW.`account_id` AND `environment` = NEW.`environment` AND `test_mode` = NEW.`test_mode` AND `status` = NEW.`status`;
END;
