-- SMS broadcasts that store their messages in chunks and carry on after a restart (one message per number
-- and broadcast, by a unique index); the referrers' share links (a code per registration) and the referrer of a
-- pre-registration made through one.
DROP INDEX `sms_messages_broadcast_idx`;--> statement-breakpoint
CREATE UNIQUE INDEX `sms_messages_broadcast_to_unique` ON `sms_messages` (`broadcast_id`,`to`) WHERE "sms_messages"."broadcast_id" is not null;--> statement-breakpoint
CREATE INDEX `sms_messages_broadcast_status_idx` ON `sms_messages` (`broadcast_id`,`status`,`id`);--> statement-breakpoint
ALTER TABLE `preregistrations` ADD `referrer_id` integer;--> statement-breakpoint
ALTER TABLE `preregistrations` ADD `utm_source` text;--> statement-breakpoint
CREATE INDEX `preregistrations_referrer_idx` ON `preregistrations` (`referrer_id`);--> statement-breakpoint
ALTER TABLE `registrations` ADD `share_code` text;--> statement-breakpoint
-- Every customer's share link code: 80 random bits (20 hex digits), never their id or phone.
UPDATE `registrations` SET `share_code` = lower(hex(randomblob(10))) WHERE `share_code` IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `registrations_share_code_unique` ON `registrations` (`share_code`);--> statement-breakpoint
ALTER TABLE `sms_broadcasts` ADD `stored` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sms_broadcasts` ADD `skipped` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sms_broadcasts` ADD `duplicates` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sms_broadcasts` ADD `parts` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `sms_broadcasts` ADD `encoding` text DEFAULT 'GSM-7' NOT NULL;--> statement-breakpoint
ALTER TABLE `sms_broadcasts` ADD `scope_branch_id` integer;--> statement-breakpoint
ALTER TABLE `sms_broadcasts` ADD `cursor` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `sms_broadcasts` ADD `prepared_at` text;--> statement-breakpoint
CREATE INDEX `sms_broadcasts_created_idx` ON `sms_broadcasts` (`created_at`);--> statement-breakpoint
CREATE INDEX `sms_broadcasts_preparing_idx` ON `sms_broadcasts` (`id`) WHERE "sms_broadcasts"."prepared_at" is null;--> statement-breakpoint
-- Broadcasts from before this migration stored their messages at once: nothing to carry on.
UPDATE `sms_broadcasts` SET `prepared_at` = `created_at`, `stored` = `total`;--> statement-breakpoint
-- A registration made by any path (the counter, the API, a seed, an import) gets its share code.
CREATE TRIGGER `registrations_share_code_ai` AFTER INSERT ON `registrations` WHEN new.`share_code` IS NULL BEGIN
  UPDATE `registrations` SET `share_code` = lower(hex(randomblob(10))) WHERE `id` = new.`id`;
END;