CREATE INDEX `preregistrations_screenshot_idx` ON `preregistrations` (`screenshot_id`) WHERE screenshot_id is not null;--> statement-breakpoint
CREATE INDEX `preregistrations_created_by_idx` ON `preregistrations` (`created_by`) WHERE created_by is not null;--> statement-breakpoint
CREATE INDEX `registrations_created_by_idx` ON `registrations` (`created_by`,`created_at`);