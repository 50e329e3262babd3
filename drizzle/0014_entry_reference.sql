ALTER TABLE `preregistrations` ADD `ref` text;--> statement-breakpoint
UPDATE `preregistrations` SET `ref` = entry_reference(`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `preregistrations_ref_unique` ON `preregistrations` (`ref`);--> statement-breakpoint
CREATE TRIGGER `preregistrations_ref` AFTER INSERT ON `preregistrations` WHEN NEW.`ref` IS NULL
BEGIN
  UPDATE `preregistrations` SET `ref` = entry_reference(NEW.`slug`) WHERE `id` = NEW.`id`;
END;
