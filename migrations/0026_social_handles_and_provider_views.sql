CREATE TABLE `social_handles` (
	`user_id` text NOT NULL,
	`platform` text NOT NULL,
	`handle` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`user_id`, `platform`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "social_handles_platform_check" CHECK(platform in ('tiktok', 'instagram'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `social_handles_handle_unique` ON `social_handles` (`platform`,`handle`);--> statement-breakpoint
ALTER TABLE `campaign_submissions` ADD `provider_views` integer;--> statement-breakpoint
ALTER TABLE `campaign_submissions` ADD `views_checked_at` text;--> statement-breakpoint
ALTER TABLE `campaign_submissions` ADD `views_pinned_at` text;--> statement-breakpoint
ALTER TABLE `clips` ADD `views_pinned_at` text;