CREATE TABLE `agencies` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`contact_email` text NOT NULL,
	`description` text,
	`logo_url` text,
	`status` text DEFAULT 'active' NOT NULL,
	`approval_status` text DEFAULT 'pending' NOT NULL,
	`rejection_reason` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`created_by` text,
	`user_id` text,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "agencies_status_check" CHECK(status in ('active', 'inactive')),
	CONSTRAINT "agencies_approval_status_check" CHECK(approval_status in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agencies_slug_unique` ON `agencies` (`slug`);--> statement-breakpoint
CREATE INDEX `agencies_user_idx` ON `agencies` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `agencies_created_idx` ON `agencies` (`created_at`);--> statement-breakpoint
CREATE TABLE `agency_signup_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`agency_id` text NOT NULL,
	`token` text NOT NULL,
	`created_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`agency_id`) REFERENCES `agencies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agency_signup_tokens_token_unique` ON `agency_signup_tokens` (`token`);--> statement-breakpoint
CREATE INDEX `agency_signup_tokens_agency_idx` ON `agency_signup_tokens` (`agency_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `agency_users` (
	`id` text PRIMARY KEY NOT NULL,
	`agency_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text DEFAULT 'manager' NOT NULL,
	`created_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`agency_id`) REFERENCES `agencies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agency_users_agency_user_unique` ON `agency_users` (`agency_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `agency_users_user_idx` ON `agency_users` (`user_id`);--> statement-breakpoint
CREATE TABLE `app_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_by` text
);
--> statement-breakpoint
CREATE TABLE `channel_snapshots` (
	`id` text PRIMARY KEY NOT NULL,
	`channel_row_id` text NOT NULL,
	`day` text NOT NULL,
	`subscriber_count` integer NOT NULL,
	`view_count` integer NOT NULL,
	`video_count` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`channel_row_id`) REFERENCES `youtube_channels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `channel_snapshots_channel_day_unique` ON `channel_snapshots` (`channel_row_id`,`day`);--> statement-breakpoint
CREATE TABLE `clipper_links` (
	`id` text PRIMARY KEY NOT NULL,
	`creator_user_id` text NOT NULL,
	`clipper_user_id` text NOT NULL,
	`clipper_share_bps` integer DEFAULT 7000 NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`creator_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`clipper_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "clipper_links_status_check" CHECK(status in ('active', 'revoked')),
	CONSTRAINT "clipper_links_share_check" CHECK(clipper_share_bps between 0 and 10000)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `clipper_links_pair_unique` ON `clipper_links` (`creator_user_id`,`clipper_user_id`);--> statement-breakpoint
CREATE INDEX `clipper_links_clipper_idx` ON `clipper_links` (`clipper_user_id`);--> statement-breakpoint
CREATE TABLE `email_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`to_email` text NOT NULL,
	`subject` text NOT NULL,
	`body_text` text NOT NULL,
	`kind` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`sent_at` text
);
--> statement-breakpoint
CREATE INDEX `email_outbox_to_idx` ON `email_outbox` (`to_email`,`created_at`);--> statement-breakpoint
CREATE TABLE `manual_channel_submissions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`creator_id` text NOT NULL,
	`channel_name` text NOT NULL,
	`channel_url` text,
	`subscriber_count` integer DEFAULT 0 NOT NULL,
	`avg_monthly_views` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`verification_submitted_at` text,
	`rejection_reason` text,
	`reviewed_by` text,
	`reviewed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reviewed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "manual_channel_submissions_status_check" CHECK(status in ('pending', 'verification_submitted', 'verified', 'rejected'))
);
--> statement-breakpoint
CREATE INDEX `manual_channel_submissions_user_created_idx` ON `manual_channel_submissions` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `manual_channel_submissions_status_idx` ON `manual_channel_submissions` (`status`,`verification_submitted_at`);--> statement-breakpoint
CREATE TABLE `music_tracks` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`artist` text NOT NULL,
	`genre` text,
	`mood` text,
	`bpm` integer,
	`duration_seconds` integer NOT NULL,
	`audio_key` text NOT NULL,
	`audio_content_type` text DEFAULT 'audio/wav' NOT NULL,
	`cover_url` text,
	`status` text DEFAULT 'published' NOT NULL,
	`submitted_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`submitted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "music_tracks_status_check" CHECK(status in ('published', 'unpublished'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `music_tracks_audio_key_unique` ON `music_tracks` (`audio_key`);--> statement-breakpoint
CREATE INDEX `music_tracks_status_created_idx` ON `music_tracks` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`image_url` text,
	`video_url` text,
	`created_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `notifications_created_idx` ON `notifications` (`created_at`);--> statement-breakpoint
CREATE TABLE `oauth_accounts` (
	`provider` text NOT NULL,
	`provider_user_id` text NOT NULL,
	`user_id` text NOT NULL,
	`email` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`provider`, `provider_user_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `oauth_accounts_user_idx` ON `oauth_accounts` (`user_id`);--> statement-breakpoint
CREATE TABLE `one_time_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`purpose` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "one_time_tokens_purpose_check" CHECK(purpose in ('email_verification', 'password_reset'))
);
--> statement-breakpoint
CREATE INDEX `one_time_tokens_user_idx` ON `one_time_tokens` (`user_id`,`purpose`);--> statement-breakpoint
CREATE TABLE `profiles` (
	`user_id` text PRIMARY KEY NOT NULL,
	`creator_id` text NOT NULL,
	`full_name` text,
	`avatar_url` text,
	`approval_status` text DEFAULT 'pending' NOT NULL,
	`rejection_reason` text,
	`is_banned` integer DEFAULT false NOT NULL,
	`ban_reason` text,
	`is_music_partner` integer DEFAULT false NOT NULL,
	`artist_name` text,
	`catalogue_url` text,
	`referred_by` text,
	`agency_id` text,
	`term_started_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`referred_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`agency_id`) REFERENCES `agencies`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "profiles_approval_status_check" CHECK(approval_status in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `profiles_creator_id_unique` ON `profiles` (`creator_id`);--> statement-breakpoint
CREATE INDEX `profiles_approval_status_idx` ON `profiles` (`approval_status`,`created_at`);--> statement-breakpoint
CREATE INDEX `profiles_agency_idx` ON `profiles` (`agency_id`);--> statement-breakpoint
CREATE INDEX `profiles_referred_by_idx` ON `profiles` (`referred_by`);--> statement-breakpoint
CREATE TABLE `security_audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`event_type` text NOT NULL,
	`severity` text DEFAULT 'low' NOT NULL,
	`user_id` text,
	`target_user_id` text,
	`ip` text,
	`user_agent` text,
	`path` text,
	`details` text DEFAULT '{}' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	CONSTRAINT "security_audit_log_severity_check" CHECK(severity in ('low', 'medium', 'high', 'critical'))
);
--> statement-breakpoint
CREATE INDEX `security_audit_log_created_idx` ON `security_audit_log` (`created_at`);--> statement-breakpoint
CREATE INDEX `security_audit_log_type_idx` ON `security_audit_log` (`event_type`,`created_at`);--> statement-breakpoint
CREATE INDEX `security_audit_log_user_idx` ON `security_audit_log` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `security_audit_log_target_idx` ON `security_audit_log` (`target_user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`expires_at` text NOT NULL,
	`absolute_expires_at` text NOT NULL,
	`last_seen_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`user_agent` text,
	`ip` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `user_notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`notification_id` text NOT NULL,
	`is_read` integer DEFAULT false NOT NULL,
	`read_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`notification_id`) REFERENCES `notifications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_notifications_user_created_idx` ON `user_notifications` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `user_notifications_user_unread_idx` ON `user_notifications` (`user_id`,`is_read`);--> statement-breakpoint
CREATE TABLE `user_roles` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "user_roles_role_check" CHECK(role in ('admin'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_roles_user_role_unique` ON `user_roles` (`user_id`,`role`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`email_verified_at` text,
	`password_hash` text,
	`user_metadata` text DEFAULT '{}' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `youtube_channel_tokens` (
	`channel_row_id` text PRIMARY KEY NOT NULL,
	`access_token_enc` text NOT NULL,
	`refresh_token_enc` text,
	`access_token_expires_at` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`channel_row_id`) REFERENCES `youtube_channels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `youtube_channels` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`channel_id` text NOT NULL,
	`channel_title` text NOT NULL,
	`channel_handle` text,
	`subscriber_count` integer DEFAULT 0 NOT NULL,
	`view_count` integer DEFAULT 0 NOT NULL,
	`video_count` integer DEFAULT 0 NOT NULL,
	`thumbnail_url` text,
	`description` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_synced_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `youtube_channels_channel_unique` ON `youtube_channels` (`channel_id`);--> statement-breakpoint
CREATE INDEX `youtube_channels_user_created_idx` ON `youtube_channels` (`user_id`,`created_at`);