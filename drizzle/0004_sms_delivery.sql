ALTER TABLE `sms_messages` ADD `priority` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `sms_messages` ADD `subject_id` integer;--> statement-breakpoint
ALTER TABLE `sms_messages` ADD `due_at` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `sms_messages` ADD `claimed_by` text;--> statement-breakpoint
ALTER TABLE `sms_messages` ADD `sending_at` text;--> statement-breakpoint
ALTER TABLE `sms_messages` ADD `valid_until` text;--> statement-breakpoint
-- Existing rows: sending order by purpose, due since they were made.
UPDATE `sms_messages` SET `priority` = CASE WHEN `purpose` IN ('otp', 'purchase-code', 'password-reset') THEN 0 WHEN `purpose` = 'broadcast' THEN 2 ELSE 1 END;--> statement-breakpoint
UPDATE `sms_messages` SET `due_at` = `created_at`;--> statement-breakpoint
-- A queued row already counted as attempted was claimed by a sender that never finished it: its delivery is
-- unknown, so the worker fails it (never sends it twice) and a code's visitor is told to ask for a new one.
UPDATE `sms_messages` SET `claimed_by` = 'before-upgrade', `sending_at` = `created_at` WHERE `status` = 'queued' AND `attempts` > 0;--> statement-breakpoint
CREATE INDEX `sms_messages_claim_idx` ON `sms_messages` (`status`,`priority`,`due_at`);--> statement-breakpoint
CREATE INDEX `sms_messages_subject_idx` ON `sms_messages` (`purpose`,`subject_id`);--> statement-breakpoint
CREATE INDEX `sms_messages_claimed_by_idx` ON `sms_messages` (`claimed_by`) WHERE "sms_messages"."claimed_by" is not null;