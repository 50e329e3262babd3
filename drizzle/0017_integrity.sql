CREATE TABLE `entry_addresses` (
	`preregistration_id` integer PRIMARY KEY NOT NULL,
	`address` text NOT NULL,
	`range` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`preregistration_id`) REFERENCES `preregistrations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `entry_addresses_range_idx` ON `entry_addresses` (`range`,`created_at`);--> statement-breakpoint
CREATE TABLE `integrity_flag_entries` (
	`flag_id` integer NOT NULL,
	`preregistration_id` integer NOT NULL,
	PRIMARY KEY(`flag_id`, `preregistration_id`),
	FOREIGN KEY (`flag_id`) REFERENCES `integrity_flags`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`preregistration_id`) REFERENCES `preregistrations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `integrity_flag_entries_entry_idx` ON `integrity_flag_entries` (`preregistration_id`);--> statement-breakpoint
CREATE TABLE `integrity_flags` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`reason` text NOT NULL,
	`subject_type` text NOT NULL,
	`subject_key` text NOT NULL,
	`branch_id` integer,
	`user_id` integer,
	`strength` real NOT NULL,
	`evidence` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`raised_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`decided_at` text,
	`decided_by` integer,
	`note` text,
	FOREIGN KEY (`branch_id`) REFERENCES `branches`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `integrity_flags_subject_unique` ON `integrity_flags` (`reason`,`subject_type`,`subject_key`);--> statement-breakpoint
CREATE INDEX `integrity_flags_desk_idx` ON `integrity_flags` (`status`,`strength`,`raised_at`);--> statement-breakpoint
CREATE INDEX `integrity_flags_branch_idx` ON `integrity_flags` (`branch_id`,`status`);--> statement-breakpoint
CREATE INDEX `integrity_flags_user_idx` ON `integrity_flags` (`user_id`,`status`);--> statement-breakpoint
CREATE INDEX `integrity_flags_raised_idx` ON `integrity_flags` (`raised_at`);--> statement-breakpoint
CREATE TABLE `job_leases` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text,
	`expires_at` integer DEFAULT 0 NOT NULL,
	`last_started_at` text,
	`last_finished_at` text,
	`last_result` text
);
--> statement-breakpoint
CREATE TABLE `prize_voids` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`preregistration_id` integer NOT NULL,
	`registration_id` integer,
	`flag_id` integer NOT NULL,
	`reason` text NOT NULL,
	`voided_by` integer,
	`voided_at` text NOT NULL,
	FOREIGN KEY (`preregistration_id`) REFERENCES `preregistrations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`registration_id`) REFERENCES `registrations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`flag_id`) REFERENCES `integrity_flags`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`voided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `prize_voids_preregistration_id_unique` ON `prize_voids` (`preregistration_id`);--> statement-breakpoint
DROP INDEX `preregistrations_citizenship_idx`;--> statement-breakpoint
CREATE INDEX `preregistrations_citizenship_idx` ON `preregistrations` (`citizenship_no`,`phone`);--> statement-breakpoint
ALTER TABLE `files` ADD `dhash` text;--> statement-breakpoint
ALTER TABLE `files` ADD `dhash256` text;--> statement-breakpoint
CREATE INDEX `registrations_deleted_engine_idx` ON `registrations` (`engine_no`) WHERE deleted_at is not null;--> statement-breakpoint
CREATE INDEX `registrations_deleted_chasis_idx` ON `registrations` (`chasis_no`) WHERE deleted_at is not null;--> statement-breakpoint
CREATE INDEX `registrations_deleted_registration_no_idx` ON `registrations` (`registration_no`) WHERE deleted_at is not null;--> statement-breakpoint
CREATE INDEX `registrations_deleted_bill_idx` ON `registrations` (`branch_id`,`bill_no`) WHERE deleted_at is not null;--> statement-breakpoint
-- The integrity desk's permission (head office only: app/utils/permissions.ts), held by Super Admin.
INSERT INTO `permissions` (`name`) VALUES ('review-integrity');--> statement-breakpoint
INSERT INTO `role_permissions` (`role_id`, `permission_id`)
  SELECT r.`id`, p.`id` FROM `roles` r, `permissions` p WHERE r.`slug` = 'super-admin' AND p.`name` = 'review-integrity';--> statement-breakpoint
-- A voided prize is an event for good: no change, no removal.
CREATE TRIGGER `prize_voids_no_update` BEFORE UPDATE ON `prize_voids` BEGIN SELECT RAISE(ABORT, 'a voided prize cannot be changed'); END;--> statement-breakpoint
CREATE TRIGGER `prize_voids_no_delete` BEFORE DELETE ON `prize_voids` BEGIN SELECT RAISE(ABORT, 'a voided prize cannot be changed'); END;
