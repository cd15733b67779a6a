CREATE TABLE `clip_source_parts` (
	`source_id` text NOT NULL,
	`part_number` integer NOT NULL,
	`etag` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`source_id`, `part_number`),
	FOREIGN KEY (`source_id`) REFERENCES `clip_sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `clip_sources` (
	`id` text PRIMARY KEY NOT NULL,
	`creator_user_id` text NOT NULL,
	`name` text NOT NULL,
	`object_key` text NOT NULL,
	`content_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`part_bytes` integer NOT NULL,
	`part_count` integer NOT NULL,
	`status` text DEFAULT 'uploading' NOT NULL,
	`upload_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`completed_at` text,
	FOREIGN KEY (`creator_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "clip_sources_status_check" CHECK(status in ('uploading', 'ready')),
	CONSTRAINT "clip_sources_size_check" CHECK(size_bytes > 0 and part_bytes > 0 and part_count between 1 and 10000)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `clip_sources_object_key_unique` ON `clip_sources` (`object_key`);--> statement-breakpoint
CREATE INDEX `clip_sources_creator_idx` ON `clip_sources` (`creator_user_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `clip_sources_status_idx` ON `clip_sources` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `clip_split_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`link_id` text NOT NULL,
	`from_bps` integer NOT NULL,
	`share_bps` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`decided_at` text,
	`decided_by` text,
	FOREIGN KEY (`link_id`) REFERENCES `clipper_links`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "clip_split_requests_status_check" CHECK(status in ('pending', 'approved', 'declined')),
	CONSTRAINT "clip_split_requests_share_check" CHECK(share_bps between 0 and 10000 and from_bps between 0 and 10000),
	CONSTRAINT "clip_split_requests_decided_check" CHECK(status = 'pending' or decided_at is not null)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `clip_split_requests_pending_unique` ON `clip_split_requests` (`link_id`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `clip_split_requests_link_idx` ON `clip_split_requests` (`link_id`,`status`,`decided_at`);--> statement-breakpoint
CREATE TABLE `clips` (
	`id` text PRIMARY KEY NOT NULL,
	`creator_user_id` text NOT NULL,
	`clipper_user_id` text NOT NULL,
	`source_id` text,
	`source_name` text DEFAULT '' NOT NULL,
	`platform` text NOT NULL,
	`url` text NOT NULL,
	`video_id` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`views_updated_at` text,
	`approved_at` text,
	`reviewed_at` text,
	`removal_requested_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`creator_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`clipper_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`source_id`) REFERENCES `clip_sources`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "clips_status_check" CHECK(status in ('pending', 'approved', 'rejected', 'removal_requested', 'removed')),
	CONSTRAINT "clips_platform_check" CHECK(platform in ('youtube_shorts', 'tiktok', 'instagram_reels')),
	CONSTRAINT "clips_views_check" CHECK(views >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `clips_platform_video_unique` ON `clips` (`platform`,`video_id`);--> statement-breakpoint
CREATE INDEX `clips_video_idx` ON `clips` (`video_id`);--> statement-breakpoint
CREATE INDEX `clips_creator_idx` ON `clips` (`creator_user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `clips_clipper_idx` ON `clips` (`clipper_user_id`,`created_at`);