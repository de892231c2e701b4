CREATE TABLE `interview_counts` (
	`account_id` text NOT NULL,
	`environment` text NOT NULL,
	`status` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`account_id`, `environment`, `status`)
);
--> statement-breakpoint
INSERT INTO `interview_counts` (`account_id`, `environment`, `status`, `count`)
SELECT `account_id`, `environment`, `status`, count(*) FROM `interviews` GROUP BY `account_id`, `environment`, `status`;
--> statement-breakpoint
-- No OR IGNORE inside the triggers: an outer upsert's conflict handling would override it.
CREATE TRIGGER `interview_counts_insert` AFTER INSERT ON `interviews`
BEGIN
	INSERT INTO `interview_counts` (`account_id`, `environment`, `status`, `count`) SELECT NEW.`account_id`, NEW.`environment`, NEW.`status`, 0 WHERE NOT EXISTS (SELECT 1 FROM `interview_counts` WHERE `account_id` = NEW.`account_id` AND `environment` = NEW.`environment` AND `status` = NEW.`status`);
	UPDATE `interview_counts` SET `count` = `count` + 1 WHERE `account_id` = NEW.`account_id` AND `environment` = NEW.`environment` AND `status` = NEW.`status`;
END;
--> statement-breakpoint
CREATE TRIGGER `interview_counts_delete` AFTER DELETE ON `interviews`
BEGIN
	UPDATE `interview_counts` SET `count` = `count` - 1 WHERE `account_id` = OLD.`account_id` AND `environment` = OLD.`environment` AND `status` = OLD.`status`;
END;
--> statement-breakpoint
CREATE TRIGGER `interview_counts_update` AFTER UPDATE OF `status`, `account_id`, `environment` ON `interviews`
WHEN OLD.`status` IS NOT NEW.`status` OR OLD.`account_id` IS NOT NEW.`account_id` OR OLD.`environment` IS NOT NEW.`environment`
BEGIN
	UPDATE `interview_counts` SET `count` = `count` - 1 WHERE `account_id` = OLD.`account_id` AND `environment` = OLD.`environment` AND `status` = OLD.`status`;
	INSERT INTO `interview_counts` (`account_id`, `environment`, `status`, `count`) SELECT NEW.`account_id`, NEW.`environment`, NEW.`status`, 0 WHERE NOT EXISTS (SELECT 1 FROM `interview_counts` WHERE `account_id` = NEW.`account_id` AND `environment` = NEW.`environment` AND `status` = NEW.`status`);
	UPDATE `interview_counts` SET `count` = `count` + 1 WHERE `account_id` = NEW.`account_id` AND `environment` = NEW.`environment` AND `status` = NEW.`status`;
END;
