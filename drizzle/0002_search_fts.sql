-- Search that scales: full-text indexes (FTS5, trigram tokenizer, so any
-- substring of 3 or more characters is found through the index) over the
-- columns the back-office lists search, kept in sync by triggers. The tables
-- are external-content: the text stays in preregistrations / registrations.
CREATE VIRTUAL TABLE `preregistrations_fts` USING fts5(
  `name`, `phone`, `citizenship_no`,
  content='preregistrations', content_rowid='id', tokenize='trigram'
);
--> statement-breakpoint
CREATE TRIGGER `preregistrations_fts_ai` AFTER INSERT ON `preregistrations` BEGIN
  INSERT INTO `preregistrations_fts`(rowid, `name`, `phone`, `citizenship_no`)
  VALUES (new.`id`, new.`name`, new.`phone`, new.`citizenship_no`);
END;
--> statement-breakpoint
CREATE TRIGGER `preregistrations_fts_ad` AFTER DELETE ON `preregistrations` BEGIN
  INSERT INTO `preregistrations_fts`(`preregistrations_fts`, rowid, `name`, `phone`, `citizenship_no`)
  VALUES ('delete', old.`id`, old.`name`, old.`phone`, old.`citizenship_no`);
END;
--> statement-breakpoint
CREATE TRIGGER `preregistrations_fts_au` AFTER UPDATE OF `name`, `phone`, `citizenship_no` ON `preregistrations` BEGIN
  INSERT INTO `preregistrations_fts`(`preregistrations_fts`, rowid, `name`, `phone`, `citizenship_no`)
  VALUES ('delete', old.`id`, old.`name`, old.`phone`, old.`citizenship_no`);
  INSERT INTO `preregistrations_fts`(rowid, `name`, `phone`, `citizenship_no`)
  VALUES (new.`id`, new.`name`, new.`phone`, new.`citizenship_no`);
END;
--> statement-breakpoint
INSERT INTO `preregistrations_fts`(`preregistrations_fts`) VALUES ('rebuild');
--> statement-breakpoint
CREATE VIRTUAL TABLE `registrations_fts` USING fts5(
  `name`, `phone`, `citizenship_no`, `pan`, `bill_no`, `engine_no`, `chasis_no`, `registration_no`,
  content='registrations', content_rowid='id', tokenize='trigram'
);
--> statement-breakpoint
CREATE TRIGGER `registrations_fts_ai` AFTER INSERT ON `registrations` BEGIN
  INSERT INTO `registrations_fts`(rowid, `name`, `phone`, `citizenship_no`, `pan`, `bill_no`, `engine_no`, `chasis_no`, `registration_no`)
  VALUES (new.`id`, new.`name`, new.`phone`, new.`citizenship_no`, new.`pan`, new.`bill_no`, new.`engine_no`, new.`chasis_no`, new.`registration_no`);
END;
--> statement-breakpoint
CREATE TRIGGER `registrations_fts_ad` AFTER DELETE ON `registrations` BEGIN
  INSERT INTO `registrations_fts`(`registrations_fts`, rowid, `name`, `phone`, `citizenship_no`, `pan`, `bill_no`, `engine_no`, `chasis_no`, `registration_no`)
  VALUES ('delete', old.`id`, old.`name`, old.`phone`, old.`citizenship_no`, old.`pan`, old.`bill_no`, old.`engine_no`, old.`chasis_no`, old.`registration_no`);
END;
--> statement-breakpoint
CREATE TRIGGER `registrations_fts_au` AFTER UPDATE OF `name`, `phone`, `citizenship_no`, `pan`, `bill_no`, `engine_no`, `chasis_no`, `registration_no` ON `registrations` BEGIN
  INSERT INTO `registrations_fts`(`registrations_fts`, rowid, `name`, `phone`, `citizenship_no`, `pan`, `bill_no`, `engine_no`, `chasis_no`, `registration_no`)
  VALUES ('delete', old.`id`, old.`name`, old.`phone`, old.`citizenship_no`, old.`pan`, old.`bill_no`, old.`engine_no`, old.`chasis_no`, old.`registration_no`);
  INSERT INTO `registrations_fts`(rowid, `name`, `phone`, `citizenship_no`, `pan`, `bill_no`, `engine_no`, `chasis_no`, `registration_no`)
  VALUES (new.`id`, new.`name`, new.`phone`, new.`citizenship_no`, new.`pan`, new.`bill_no`, new.`engine_no`, new.`chasis_no`, new.`registration_no`);
END;
--> statement-breakpoint
INSERT INTO `registrations_fts`(`registrations_fts`) VALUES ('rebuild');
--> statement-breakpoint
-- Counting the active rows of a list ("of z entries") reads these small
-- partial indexes instead of the whole table.
CREATE INDEX `preregistrations_active_idx` ON `preregistrations` (`branch_id`, `nearest_branch_id`) WHERE `deleted_at` IS NULL;
--> statement-breakpoint
CREATE INDEX `registrations_active_idx` ON `registrations` (`branch_id`, `created_at`) WHERE `deleted_at` IS NULL;
--> statement-breakpoint
CREATE INDEX `registrations_deleted_idx` ON `registrations` (`deleted_at`) WHERE `deleted_at` IS NOT NULL;
