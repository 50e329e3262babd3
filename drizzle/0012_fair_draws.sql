CREATE TABLE `draw_days` (
	`date` text PRIMARY KEY NOT NULL,
	`seed` text NOT NULL,
	`commitment` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
ALTER TABLE `draws` ADD `ref` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `draws` ADD `base_table` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `draws` ADD `seq` integer;--> statement-breakpoint
ALTER TABLE `draws` ADD `prev_hash` text;--> statement-breakpoint
ALTER TABLE `draws` ADD `hash` text;--> statement-breakpoint
CREATE UNIQUE INDEX `draws_day_seq_unique` ON `draws` (`date`,`seq`);--> statement-breakpoint
CREATE TRIGGER `draw_days_no_update` BEFORE UPDATE ON `draw_days` BEGIN SELECT RAISE(ABORT, 'a day''s seed and commitment never change'); END;--> statement-breakpoint
CREATE TRIGGER `draw_days_no_delete` BEFORE DELETE ON `draw_days` BEGIN SELECT RAISE(ABORT, 'a day''s seed and commitment never change'); END;--> statement-breakpoint
CREATE TRIGGER `draws_no_update` BEFORE UPDATE ON `draws` BEGIN SELECT RAISE(ABORT, 'a draw record cannot be changed'); END;--> statement-breakpoint
CREATE TRIGGER `draws_no_delete` BEFORE DELETE ON `draws` BEGIN SELECT RAISE(ABORT, 'a draw record cannot be changed'); END;
