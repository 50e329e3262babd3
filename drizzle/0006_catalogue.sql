ALTER TABLE `bike_models` ADD `retired_at` text;--> statement-breakpoint
CREATE UNIQUE INDEX `bike_models_title_unique` ON `bike_models` (lower("title")) WHERE deleted_at is null;--> statement-breakpoint
ALTER TABLE `branches` ADD `closed_at` text;--> statement-breakpoint
CREATE UNIQUE INDEX `branches_title_unique` ON `branches` (lower("title")) WHERE deleted_at is null;