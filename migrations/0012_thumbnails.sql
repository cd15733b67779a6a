CREATE TABLE `thumbnail_assets` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`storage_key` text NOT NULL,
	`content_type` text NOT NULL,
	`bytes` integer NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`created_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `thumbnail_projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `thumbnail_assets_project_idx` ON `thumbnail_assets` (`project_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `thumbnail_assets_key_unique` ON `thumbnail_assets` (`storage_key`);--> statement-breakpoint
CREATE TABLE `thumbnail_exports` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text,
	`name` text NOT NULL,
	`storage_key` text NOT NULL,
	`content_type` text NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`bytes` integer NOT NULL,
	`created_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`sent_to` text,
	`sent_at` text,
	FOREIGN KEY (`project_id`) REFERENCES `thumbnail_projects`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`sent_to`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "thumbnail_exports_type_check" CHECK(content_type in ('image/png', 'image/jpeg'))
);
--> statement-breakpoint
CREATE INDEX `thumbnail_exports_created_idx` ON `thumbnail_exports` (`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `thumbnail_exports_key_unique` ON `thumbnail_exports` (`storage_key`);--> statement-breakpoint
CREATE TABLE `thumbnail_projects` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`format` text NOT NULL,
	`document` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_by` text,
	`updated_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "thumbnail_projects_format_check" CHECK(format in ('landscape', 'portrait')),
	CONSTRAINT "thumbnail_projects_name_check" CHECK(length(name) between 1 and 120)
);
--> statement-breakpoint
CREATE INDEX `thumbnail_projects_updated_idx` ON `thumbnail_projects` (`updated_at`);