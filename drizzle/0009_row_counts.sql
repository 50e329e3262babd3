-- Live (not deleted) rows of preregistrations and registrations, kept by triggers in the writer's own
-- transaction: a head-office list reads its total here instead of counting every row.
CREATE TABLE `row_counts` (
	`key` text PRIMARY KEY NOT NULL,
	`n` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `row_counts` (`key`, `n`) SELECT 'preregistrations', count(*) FROM `preregistrations` WHERE `deleted_at` IS NULL;
--> statement-breakpoint
CREATE TRIGGER `preregistrations_count_insert` AFTER INSERT ON `preregistrations` WHEN new.`deleted_at` IS NULL BEGIN UPDATE `row_counts` SET `n` = `n` + 1 WHERE `key` = 'preregistrations'; END;
--> statement-breakpoint
CREATE TRIGGER `preregistrations_count_delete` AFTER DELETE ON `preregistrations` WHEN old.`deleted_at` IS NULL BEGIN UPDATE `row_counts` SET `n` = `n` - 1 WHERE `key` = 'preregistrations'; END;
--> statement-breakpoint
CREATE TRIGGER `preregistrations_count_soft_delete` AFTER UPDATE OF `deleted_at` ON `preregistrations` WHEN old.`deleted_at` IS NULL AND new.`deleted_at` IS NOT NULL BEGIN UPDATE `row_counts` SET `n` = `n` - 1 WHERE `key` = 'preregistrations'; END;
--> statement-breakpoint
CREATE TRIGGER `preregistrations_count_restore` AFTER UPDATE OF `deleted_at` ON `preregistrations` WHEN old.`deleted_at` IS NOT NULL AND new.`deleted_at` IS NULL BEGIN UPDATE `row_counts` SET `n` = `n` + 1 WHERE `key` = 'preregistrations'; END;
--> statement-breakpoint
INSERT INTO `row_counts` (`key`, `n`) SELECT 'registrations', count(*) FROM `registrations` WHERE `deleted_at` IS NULL;
--> statement-breakpoint
CREATE TRIGGER `registrations_count_insert` AFTER INSERT ON `registrations` WHEN new.`deleted_at` IS NULL BEGIN UPDATE `row_counts` SET `n` = `n` + 1 WHERE `key` = 'registrations'; END;
--> statement-breakpoint
CREATE TRIGGER `registrations_count_delete` AFTER DELETE ON `registrations` WHEN old.`deleted_at` IS NULL BEGIN UPDATE `row_counts` SET `n` = `n` - 1 WHERE `key` = 'registrations'; END;
--> statement-breakpoint
CREATE TRIGGER `registrations_count_soft_delete` AFTER UPDATE OF `deleted_at` ON `registrations` WHEN old.`deleted_at` IS NULL AND new.`deleted_at` IS NOT NULL BEGIN UPDATE `row_counts` SET `n` = `n` - 1 WHERE `key` = 'registrations'; END;
--> statement-breakpoint
CREATE TRIGGER `registrations_count_restore` AFTER UPDATE OF `deleted_at` ON `registrations` WHEN old.`deleted_at` IS NOT NULL AND new.`deleted_at` IS NULL BEGIN UPDATE `row_counts` SET `n` = `n` + 1 WHERE `key` = 'registrations'; END;
