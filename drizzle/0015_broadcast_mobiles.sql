CREATE TABLE `sms_broadcast_mobiles` (
	`broadcast_id` integer PRIMARY KEY NOT NULL,
	`mobiles` text NOT NULL,
	`count` integer NOT NULL,
	FOREIGN KEY (`broadcast_id`) REFERENCES `sms_broadcasts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `sms_broadcast_mobiles` (`broadcast_id`, `mobiles`, `count`)
  SELECT `id`, `mobiles`, json_array_length(`mobiles`) FROM `sms_broadcasts` WHERE `type` = 'MOBILE';--> statement-breakpoint
ALTER TABLE `sms_broadcasts` DROP COLUMN `mobiles`;