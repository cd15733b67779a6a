CREATE TABLE `campaign_participants` (
	`campaign_id` text NOT NULL,
	`user_id` text NOT NULL,
	`terms_accepted_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`campaign_id`, `user_id`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `campaign_participants_user_idx` ON `campaign_participants` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `campaign_submissions` (
	`id` text PRIMARY KEY NOT NULL,
	`campaign_id` text NOT NULL,
	`user_id` text NOT NULL,
	`url` text NOT NULL,
	`platform` text NOT NULL,
	`video_key` text NOT NULL,
	`channel_id` text,
	`rate_cents` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`amount_cents` integer DEFAULT 0 NOT NULL,
	`reason` text,
	`reviewed_by` text,
	`reviewed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reviewed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "campaign_submissions_status_check" CHECK(status in ('pending', 'approved', 'rejected')),
	CONSTRAINT "campaign_submissions_platform_check" CHECK(platform in ('youtube', 'tiktok', 'instagram')),
	CONSTRAINT "campaign_submissions_amounts_check" CHECK(views >= 0 and amount_cents >= 0 and rate_cents > 0),
	CONSTRAINT "campaign_submissions_approved_check" CHECK(status = 'approved' or amount_cents = 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `campaign_submissions_video_unique` ON `campaign_submissions` (`video_key`);--> statement-breakpoint
CREATE INDEX `campaign_submissions_campaign_idx` ON `campaign_submissions` (`campaign_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `campaign_submissions_user_idx` ON `campaign_submissions` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `campaigns` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`brand` text NOT NULL,
	`title` text NOT NULL,
	`brief` text NOT NULL,
	`rate_cents` integer NOT NULL,
	`budget_cents` integer NOT NULL,
	`spent_cents` integer DEFAULT 0 NOT NULL,
	`starts_at` text NOT NULL,
	`ends_at` text NOT NULL,
	`required_track_id` text,
	`min_subscribers` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`launched_at` text,
	`ended_at` text,
	`end_notified_at` text,
	`settled_at` text,
	`settled_by` text,
	`funds_received_at` text,
	`funds_received_by` text,
	`payable_on` text,
	`created_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`required_track_id`) REFERENCES `music_tracks`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`settled_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`funds_received_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "campaigns_status_check" CHECK(status in ('draft', 'launched', 'settled')),
	CONSTRAINT "campaigns_rate_check" CHECK(rate_cents > 0),
	CONSTRAINT "campaigns_budget_check" CHECK(budget_cents > 0 and spent_cents between 0 and budget_cents),
	CONSTRAINT "campaigns_dates_check" CHECK(ends_at > starts_at),
	CONSTRAINT "campaigns_min_subscribers_check" CHECK(min_subscribers >= 0),
	CONSTRAINT "campaigns_settled_check" CHECK(status <> 'settled' or settled_at is not null)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `campaigns_slug_unique` ON `campaigns` (`slug`);--> statement-breakpoint
CREATE INDEX `campaigns_status_ends_idx` ON `campaigns` (`status`,`ends_at`);