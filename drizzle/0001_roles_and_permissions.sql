-- Roles and permissions every installation starts with (see app/utils/permissions.ts).
INSERT INTO permissions (name) VALUES ('read-user');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('create-user');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('update-user');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('read-branch');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('create-branch');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('update-branch');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('read-registration');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('create-registration');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('update-registration');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('delete-registration');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('create-preregistration');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('read-bike-model');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('create-bike-model');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('update-bike-model');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('read-video');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('create-video');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('update-video');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('send-sms');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('manage-allocation');
--> statement-breakpoint
INSERT INTO permissions (name) VALUES ('update-settings');
--> statement-breakpoint
INSERT INTO roles (slug, title) VALUES ('super-admin', 'Super Admin');
--> statement-breakpoint
INSERT INTO role_permissions (role_id, permission_id) SELECT r.id, p.id FROM roles r, permissions p WHERE r.slug = 'super-admin' AND p.name IN ('read-user', 'create-user', 'update-user', 'read-branch', 'create-branch', 'update-branch', 'read-registration', 'create-registration', 'update-registration', 'delete-registration', 'create-preregistration', 'read-bike-model', 'create-bike-model', 'update-bike-model', 'read-video', 'create-video', 'update-video', 'send-sms', 'manage-allocation', 'update-settings');
--> statement-breakpoint
INSERT INTO roles (slug, title) VALUES ('branch-manager', 'Branch Manager');
--> statement-breakpoint
INSERT INTO role_permissions (role_id, permission_id) SELECT r.id, p.id FROM roles r, permissions p WHERE r.slug = 'branch-manager' AND p.name IN ('create-preregistration', 'read-registration', 'create-registration', 'update-registration', 'delete-registration');
--> statement-breakpoint
INSERT INTO roles (slug, title) VALUES ('branch-staff', 'Branch Staff');
--> statement-breakpoint
INSERT INTO role_permissions (role_id, permission_id) SELECT r.id, p.id FROM roles r, permissions p WHERE r.slug = 'branch-staff' AND p.name IN ('create-preregistration', 'read-registration', 'create-registration', 'update-registration');
--> statement-breakpoint
INSERT INTO settings (key, value) VALUES ('registration_open', 'true');
