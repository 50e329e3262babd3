CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`user_id` integer,
	`user_email` text,
	`address` text,
	`action` text NOT NULL,
	`entity_type` text NOT NULL,
	`entity_id` text,
	`changes` text DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`at`);--> statement-breakpoint
CREATE INDEX `audit_log_entity_idx` ON `audit_log` (`entity_type`,`entity_id`);--> statement-breakpoint
CREATE INDEX `audit_log_user_idx` ON `audit_log` (`user_id`,`at`);--> statement-breakpoint
CREATE INDEX `audit_log_action_idx` ON `audit_log` (`action`,`at`);--> statement-breakpoint
CREATE TABLE `rate_limit_counters` (
	`name` text NOT NULL,
	`key` text NOT NULL,
	`points` integer NOT NULL,
	`reset_at` integer NOT NULL,
	PRIMARY KEY(`name`, `key`)
);
--> statement-breakpoint
CREATE INDEX `rate_limit_counters_reset_idx` ON `rate_limit_counters` (`reset_at`);--> statement-breakpoint
ALTER TABLE `files` ADD `key` text NOT NULL DEFAULT '';--> statement-breakpoint
UPDATE `files` SET `key` = lower(hex(randomblob(12))) WHERE `key` = '';--> statement-breakpoint
CREATE UNIQUE INDEX `files_key_unique` ON `files` (`key`);--> statement-breakpoint
CREATE TRIGGER `audit_log_no_update` BEFORE UPDATE ON `audit_log` BEGIN SELECT RAISE(ABORT, 'the audit trail cannot be changed'); END;--> statement-breakpoint
CREATE TRIGGER `audit_log_no_delete` BEFORE DELETE ON `audit_log` BEGIN SELECT RAISE(ABORT, 'the audit trail cannot be changed'); END;--> statement-breakpoint
DROP TABLE IF EXISTS `rate_limits`;
