CREATE TABLE `cache_versions` (
	`key` text PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);--> statement-breakpoint
INSERT INTO `cache_versions` (`key`, `version`) VALUES ('public', 0);--> statement-breakpoint
CREATE TRIGGER `settings_public_insert` AFTER INSERT ON `settings` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `key` = 'public'; END;--> statement-breakpoint
CREATE TRIGGER `settings_public_update` AFTER UPDATE ON `settings` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `key` = 'public'; END;--> statement-breakpoint
CREATE TRIGGER `settings_public_delete` AFTER DELETE ON `settings` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `key` = 'public'; END;--> statement-breakpoint
CREATE TRIGGER `branches_public_insert` AFTER INSERT ON `branches` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `key` = 'public'; END;--> statement-breakpoint
CREATE TRIGGER `branches_public_update` AFTER UPDATE ON `branches` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `key` = 'public'; END;--> statement-breakpoint
CREATE TRIGGER `branches_public_delete` AFTER DELETE ON `branches` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `key` = 'public'; END;--> statement-breakpoint
CREATE TRIGGER `bike_models_public_insert` AFTER INSERT ON `bike_models` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `key` = 'public'; END;--> statement-breakpoint
CREATE TRIGGER `bike_models_public_update` AFTER UPDATE ON `bike_models` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `key` = 'public'; END;--> statement-breakpoint
CREATE TRIGGER `bike_models_public_delete` AFTER DELETE ON `bike_models` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `key` = 'public'; END;--> statement-breakpoint
CREATE TRIGGER `videos_public_insert` AFTER INSERT ON `videos` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `key` = 'public'; END;--> statement-breakpoint
CREATE TRIGGER `videos_public_update` AFTER UPDATE ON `videos` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `key` = 'public'; END;--> statement-breakpoint
CREATE TRIGGER `videos_public_delete` AFTER DELETE ON `videos` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `key` = 'public'; END;--> statement-breakpoint
CREATE TRIGGER `allocations_public_insert` AFTER INSERT ON `allocations` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `key` = 'public'; END;--> statement-breakpoint
CREATE TRIGGER `allocations_public_delete` AFTER DELETE ON `allocations` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `key` = 'public'; END;--> statement-breakpoint
CREATE TRIGGER `allocations_public_update` AFTER UPDATE OF `type`, `date`, `amount`, `count`, `branch_id` ON `allocations` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `key` = 'public'; END;
