CREATE TABLE `social_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`platform` text NOT NULL,
	`external_user_id` text NOT NULL,
	`username` text,
	`access_token_enc` text NOT NULL,
	`access_token_expires_at` text,
	`refresh_token_enc` text,
	`refresh_token_expires_at` text,
	`scope` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "social_accounts_platform_check" CHECK(platform in ('tiktok', 'instagram'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `social_accounts_user_platform_unique` ON `social_accounts` (`user_id`,`platform`);--> statement-breakpoint
CREATE UNIQUE INDEX `social_accounts_external_unique` ON `social_accounts` (`platform`,`external_user_id`);--> statement-breakpoint
ALTER TABLE `campaign_submissions` ADD `ownership_review` text;