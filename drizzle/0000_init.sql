CREATE TABLE `allocations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`branch_id` integer,
	`date` text NOT NULL,
	`amount` integer NOT NULL,
	`count` integer DEFAULT 1 NOT NULL,
	`probability` integer DEFAULT 0 NOT NULL,
	`paid` integer DEFAULT 0 NOT NULL,
	`created_by` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`branch_id`) REFERENCES `branches`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "allocations_count_range" CHECK("allocations"."count" between 1 and 5),
	CONSTRAINT "allocations_probability_range" CHECK("allocations"."probability" between 0 and 100),
	CONSTRAINT "allocations_paid_range" CHECK("allocations"."paid" between 0 and "allocations"."count")
);
--> statement-breakpoint
CREATE INDEX `allocations_pool_idx` ON `allocations` (`type`,`date`,`branch_id`);--> statement-breakpoint
CREATE TABLE `api_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`revoked_at` text,
	`last_used_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_tokens_token_hash_unique` ON `api_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `api_tokens_user_idx` ON `api_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `bike_models` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`thumbnail_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`thumbnail_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bike_models_slug_unique` ON `bike_models` (`slug`);--> statement-breakpoint
CREATE TABLE `branches` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`state` text NOT NULL,
	`district` text NOT NULL,
	`city` text NOT NULL,
	`location` text,
	`email` text,
	`phone` text,
	`mobile` text,
	`one_lakh_allocation_count` integer DEFAULT 0 NOT NULL,
	`ten_lakhs_allocation_count` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `branches_slug_unique` ON `branches` (`slug`);--> statement-breakpoint
CREATE INDEX `branches_place_idx` ON `branches` (`state`,`district`,`city`);--> statement-breakpoint
CREATE TABLE `draws` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`thrill` integer NOT NULL,
	`entry_type` text NOT NULL,
	`entry_id` integer NOT NULL,
	`pool_type` text NOT NULL,
	`branch_id` integer,
	`date` text NOT NULL,
	`allocation_id` integer,
	`amount` integer NOT NULL,
	`outcome` text NOT NULL,
	`pools` text NOT NULL,
	`rolls` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`branch_id`) REFERENCES `branches`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`allocation_id`) REFERENCES `allocations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `draws_entry_unique` ON `draws` (`entry_type`,`entry_id`);--> statement-breakpoint
CREATE INDEX `draws_date_idx` ON `draws` (`date`,`pool_type`);--> statement-breakpoint
CREATE INDEX `draws_allocation_idx` ON `draws` (`allocation_id`);--> statement-breakpoint
CREATE INDEX `draws_created_idx` ON `draws` (`created_at`);--> statement-breakpoint
CREATE TABLE `files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`filename` text NOT NULL,
	`path` text NOT NULL,
	`mime` text NOT NULL,
	`width` integer,
	`height` integer,
	`size` integer NOT NULL,
	`uploaded_by` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`uploaded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `files_path_unique` ON `files` (`path`);--> statement-breakpoint
CREATE INDEX `files_type_idx` ON `files` (`type`,`created_at`);--> statement-breakpoint
CREATE TABLE `one_time_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`purpose` text NOT NULL,
	`subject_id` integer NOT NULL,
	`phone` text NOT NULL,
	`code` text,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` text NOT NULL,
	`consumed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `one_time_codes_subject_idx` ON `one_time_codes` (`purpose`,`subject_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `one_time_codes_phone_idx` ON `one_time_codes` (`phone`,`created_at`);--> statement-breakpoint
CREATE TABLE `permissions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `permissions_name_unique` ON `permissions` (`name`);--> statement-breakpoint
CREATE TABLE `preregistrations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`campaign` text DEFAULT 'thrill' NOT NULL,
	`name` text NOT NULL,
	`address` text NOT NULL,
	`email` text,
	`phone` text NOT NULL,
	`citizenship_no` text NOT NULL,
	`shared` integer DEFAULT false NOT NULL,
	`screenshot_id` integer,
	`bike_model_id` integer,
	`source` text,
	`note` text,
	`send_sms` integer DEFAULT true NOT NULL,
	`is_verified` integer DEFAULT false NOT NULL,
	`verified_at` text,
	`purchased` integer DEFAULT false NOT NULL,
	`prize` integer,
	`status` text DEFAULT 'unverified' NOT NULL,
	`branch_id` integer,
	`nearest_branch_id` integer,
	`created_by` integer,
	`form_token` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`screenshot_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`bike_model_id`) REFERENCES `bike_models`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`branch_id`) REFERENCES `branches`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`nearest_branch_id`) REFERENCES `branches`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `preregistrations_slug_unique` ON `preregistrations` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `preregistrations_phone_unique` ON `preregistrations` (`campaign`,`phone`);--> statement-breakpoint
CREATE UNIQUE INDEX `preregistrations_form_token_unique` ON `preregistrations` (`form_token`);--> statement-breakpoint
CREATE INDEX `preregistrations_citizenship_idx` ON `preregistrations` (`citizenship_no`);--> statement-breakpoint
CREATE INDEX `preregistrations_branch_idx` ON `preregistrations` (`branch_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `preregistrations_nearest_branch_idx` ON `preregistrations` (`nearest_branch_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `preregistrations_created_idx` ON `preregistrations` (`created_at`);--> statement-breakpoint
CREATE INDEX `preregistrations_prize_idx` ON `preregistrations` (`prize`);--> statement-breakpoint
CREATE INDEX `preregistrations_bike_model_idx` ON `preregistrations` (`bike_model_id`);--> statement-breakpoint
CREATE INDEX `preregistrations_name_idx` ON `preregistrations` (`name`);--> statement-breakpoint
CREATE TABLE `registrations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`bill_no` text NOT NULL,
	`name` text NOT NULL,
	`address` text NOT NULL,
	`citizenship_no` text NOT NULL,
	`pan` text,
	`email` text,
	`phone` text NOT NULL,
	`bike_model_id` integer NOT NULL,
	`engine_no` text NOT NULL,
	`chasis_no` text NOT NULL,
	`registration_no` text NOT NULL,
	`payment_mode` text DEFAULT 'CASH' NOT NULL,
	`note` text,
	`send_sms` integer DEFAULT true NOT NULL,
	`branch_id` integer NOT NULL,
	`preregistration_id` integer NOT NULL,
	`registration_id` integer,
	`referred_by` text,
	`shared` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`confirmed_at` text,
	`purchase_date` text NOT NULL,
	`coupon_amount` integer,
	`coupon_code` text NOT NULL,
	`created_by` integer,
	`form_token` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`bike_model_id`) REFERENCES `bike_models`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`branch_id`) REFERENCES `branches`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`preregistration_id`) REFERENCES `preregistrations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `registrations_slug_unique` ON `registrations` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `registrations_coupon_code_unique` ON `registrations` (`coupon_code`);--> statement-breakpoint
CREATE UNIQUE INDEX `registrations_preregistration_unique` ON `registrations` (`preregistration_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `registrations_form_token_unique` ON `registrations` (`form_token`);--> statement-breakpoint
CREATE UNIQUE INDEX `registrations_engine_unique` ON `registrations` (`engine_no`) WHERE deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX `registrations_chasis_unique` ON `registrations` (`chasis_no`) WHERE deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX `registrations_registration_no_unique` ON `registrations` (`registration_no`) WHERE deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX `registrations_bill_unique` ON `registrations` (`branch_id`,`bill_no`) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX `registrations_branch_idx` ON `registrations` (`branch_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `registrations_created_idx` ON `registrations` (`created_at`);--> statement-breakpoint
CREATE INDEX `registrations_phone_idx` ON `registrations` (`phone`);--> statement-breakpoint
CREATE INDEX `registrations_citizenship_idx` ON `registrations` (`citizenship_no`);--> statement-breakpoint
CREATE INDEX `registrations_payment_mode_idx` ON `registrations` (`payment_mode`);--> statement-breakpoint
CREATE INDEX `registrations_bike_model_idx` ON `registrations` (`bike_model_id`);--> statement-breakpoint
CREATE INDEX `registrations_coupon_idx` ON `registrations` (`coupon_amount`);--> statement-breakpoint
CREATE INDEX `registrations_referrer_idx` ON `registrations` (`registration_id`);--> statement-breakpoint
CREATE INDEX `registrations_name_idx` ON `registrations` (`name`);--> statement-breakpoint
CREATE TABLE `role_permissions` (
	`role_id` integer NOT NULL,
	`permission_id` integer NOT NULL,
	PRIMARY KEY(`role_id`, `permission_id`),
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`permission_id`) REFERENCES `permissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `roles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `roles_slug_unique` ON `roles` (`slug`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer,
	`data` text DEFAULT '{}' NOT NULL,
	`remember` integer DEFAULT false NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expiry_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sms_broadcasts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text DEFAULT 'ALL' NOT NULL,
	`text` text NOT NULL,
	`branches` text DEFAULT '[]' NOT NULL,
	`registrants` text DEFAULT '[]' NOT NULL,
	`mobiles` text DEFAULT '[]' NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`sent` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`created_by` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `sms_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`to` text NOT NULL,
	`text` text NOT NULL,
	`purpose` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`provider` text NOT NULL,
	`provider_reply` text,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`broadcast_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`sent_at` text,
	FOREIGN KEY (`broadcast_id`) REFERENCES `sms_broadcasts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sms_messages_to_idx` ON `sms_messages` (`to`,`created_at`);--> statement-breakpoint
CREATE INDEX `sms_messages_status_idx` ON `sms_messages` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `sms_messages_broadcast_idx` ON `sms_messages` (`broadcast_id`);--> statement-breakpoint
CREATE TABLE `test_rides` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`type` text DEFAULT 'TESTRIDE' NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text DEFAULT '' NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`phone` text NOT NULL,
	`bike_model_id` integer NOT NULL,
	`branch_id` integer NOT NULL,
	`state` text NOT NULL,
	`district` text NOT NULL,
	`city` text NOT NULL,
	`utm_source` text,
	`referrer_id` integer,
	`form_token` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`bike_model_id`) REFERENCES `bike_models`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`branch_id`) REFERENCES `branches`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`referrer_id`) REFERENCES `registrations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `test_rides_slug_unique` ON `test_rides` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `test_rides_form_token_unique` ON `test_rides` (`form_token`);--> statement-breakpoint
CREATE INDEX `test_rides_branch_idx` ON `test_rides` (`branch_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `test_rides_created_idx` ON `test_rides` (`created_at`);--> statement-breakpoint
CREATE INDEX `test_rides_referrer_idx` ON `test_rides` (`referrer_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text DEFAULT '' NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text,
	`sex` text DEFAULT 'MALE' NOT NULL,
	`address` text,
	`branch_id` integer,
	`role_id` integer NOT NULL,
	`password_hash` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`branch_id`) REFERENCES `branches`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_slug_unique` ON `users` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (lower("email"));--> statement-breakpoint
CREATE INDEX `users_branch_idx` ON `users` (`branch_id`);--> statement-breakpoint
CREATE TABLE `videos` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`citizenship_no` text,
	`url` text NOT NULL,
	`amount` integer NOT NULL,
	`thumbnail_id` integer,
	`phone` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`thumbnail_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `videos_slug_unique` ON `videos` (`slug`);--> statement-breakpoint
CREATE INDEX `videos_amount_idx` ON `videos` (`amount`);