DROP INDEX `preregistrations_phone_unique`;--> statement-breakpoint
CREATE INDEX `preregistrations_phone_idx` ON `preregistrations` (`campaign`,`phone`);--> statement-breakpoint
CREATE UNIQUE INDEX `preregistrations_phone_unique` ON `preregistrations` (`campaign`,`phone`) WHERE "preregistrations"."deleted_at" is null or "preregistrations"."is_verified" = 1;