-- The few deleted pre-registrations, so head office's full-text search leaves them out without
-- looking up each of its matches (app/models/preregistration-admin.server.ts).
CREATE INDEX `preregistrations_deleted_idx` ON `preregistrations` (`id`) WHERE deleted_at is not null;
