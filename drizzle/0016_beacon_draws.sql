DROP TABLE `draw_days`;--> statement-breakpoint
DROP INDEX `draws_day_seq_unique`;--> statement-breakpoint
ALTER TABLE `draws` DROP COLUMN `seq`;--> statement-breakpoint
ALTER TABLE `draws` DROP COLUMN `prev_hash`;--> statement-breakpoint
ALTER TABLE `draws` DROP COLUMN `hash`;--> statement-breakpoint
CREATE TABLE `draw_queue` (
	`entry_seq` integer PRIMARY KEY NOT NULL,
	`entry_hash` text NOT NULL,
	`entry_type` text NOT NULL,
	`entry_id` integer NOT NULL,
	`thrill` integer NOT NULL,
	`ref` text NOT NULL,
	`date` text NOT NULL,
	`pool_type` text NOT NULL,
	`branch_id` integer,
	`beacon_round` integer,
	`time` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `draw_queue_entry_unique` ON `draw_queue` (`entry_type`,`entry_id`);--> statement-breakpoint
CREATE TABLE `draw_records` (
	`seq` integer PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`date` text NOT NULL,
	`time` text NOT NULL,
	`ref` text NOT NULL,
	`text` text NOT NULL,
	`hash` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `draw_records_hash_unique` ON `draw_records` (`hash`);--> statement-breakpoint
CREATE INDEX `draw_records_date_idx` ON `draw_records` (`date`,`seq`);--> statement-breakpoint
CREATE INDEX `draw_records_ref_idx` ON `draw_records` (`ref`);--> statement-breakpoint
CREATE TABLE `fair_announcements` (
	`date` text PRIMARY KEY NOT NULL,
	`head` text NOT NULL,
	`next_terms_hash` text,
	`phones` integer NOT NULL,
	`text` text NOT NULL,
	`sent_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `fair_days` (
	`date` text PRIMARY KEY NOT NULL,
	`terms` text NOT NULL,
	`terms_hash` text NOT NULL,
	`house_commitment` text NOT NULL,
	`house_sealed` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
ALTER TABLE `draws` ADD `record_seq` integer;
--> statement-breakpoint
CREATE TRIGGER `fair_days_no_update` BEFORE UPDATE ON `fair_days` BEGIN SELECT RAISE(ABORT, 'a day''s commitments never change'); END;--> statement-breakpoint
CREATE TRIGGER `fair_days_no_delete` BEFORE DELETE ON `fair_days` BEGIN SELECT RAISE(ABORT, 'a day''s commitments never change'); END;--> statement-breakpoint
CREATE TRIGGER `fair_days_no_replace` BEFORE INSERT ON `fair_days` WHEN EXISTS (SELECT 1 FROM `fair_days` WHERE `date` = NEW.`date`) BEGIN SELECT RAISE(ABORT, 'a day''s commitments never change'); END;--> statement-breakpoint
CREATE TRIGGER `draw_records_no_update` BEFORE UPDATE ON `draw_records` BEGIN SELECT RAISE(ABORT, 'a draw record cannot be changed'); END;--> statement-breakpoint
CREATE TRIGGER `draw_records_no_delete` BEFORE DELETE ON `draw_records` BEGIN SELECT RAISE(ABORT, 'a draw record cannot be changed'); END;--> statement-breakpoint
CREATE TRIGGER `draw_records_no_replace` BEFORE INSERT ON `draw_records` WHEN EXISTS (SELECT 1 FROM `draw_records` WHERE `seq` = NEW.`seq` OR `hash` = NEW.`hash`) BEGIN SELECT RAISE(ABORT, 'a draw record cannot be changed'); END;--> statement-breakpoint
CREATE TRIGGER `draws_no_replace` BEFORE INSERT ON `draws` WHEN EXISTS (SELECT 1 FROM `draws` WHERE `entry_type` = NEW.`entry_type` AND `entry_id` = NEW.`entry_id`) BEGIN SELECT RAISE(ABORT, 'a draw record cannot be changed'); END;--> statement-breakpoint
CREATE TRIGGER `fair_announcements_no_update` BEFORE UPDATE ON `fair_announcements` BEGIN SELECT RAISE(ABORT, 'a sent announcement cannot be changed'); END;--> statement-breakpoint
CREATE TRIGGER `fair_announcements_no_delete` BEFORE DELETE ON `fair_announcements` BEGIN SELECT RAISE(ABORT, 'a sent announcement cannot be changed'); END;--> statement-breakpoint
CREATE TRIGGER `allocations_committed_insert` BEFORE INSERT ON `allocations` WHEN EXISTS (SELECT 1 FROM `fair_days` WHERE `date` = NEW.`date`) BEGIN SELECT RAISE(ABORT, 'the pools of a committed day cannot change'); END;--> statement-breakpoint
CREATE TRIGGER `allocations_committed_delete` BEFORE DELETE ON `allocations` WHEN EXISTS (SELECT 1 FROM `fair_days` WHERE `date` = OLD.`date`) BEGIN SELECT RAISE(ABORT, 'the pools of a committed day cannot change'); END;--> statement-breakpoint
CREATE TRIGGER `allocations_committed_update` BEFORE UPDATE ON `allocations` WHEN EXISTS (SELECT 1 FROM `fair_days` WHERE `date` IN (OLD.`date`, NEW.`date`)) AND (NEW.`type` IS NOT OLD.`type` OR NEW.`branch_id` IS NOT OLD.`branch_id` OR NEW.`date` IS NOT OLD.`date` OR NEW.`amount` IS NOT OLD.`amount` OR NEW.`count` IS NOT OLD.`count` OR NEW.`probability` IS NOT OLD.`probability` OR NEW.`id` IS NOT OLD.`id`) BEGIN SELECT RAISE(ABORT, 'the pools of a committed day cannot change'); END;
