CREATE TABLE `music_licence_channels` (
	`licence_id` text NOT NULL,
	`channel_kind` text NOT NULL,
	`channel_ref` text NOT NULL,
	`title` text NOT NULL,
	`url` text,
	PRIMARY KEY(`licence_id`, `channel_kind`, `channel_ref`),
	FOREIGN KEY (`licence_id`) REFERENCES `music_licences`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "music_licence_channels_kind_check" CHECK(channel_kind in ('youtube', 'manual'))
);
--> statement-breakpoint
CREATE TABLE `music_licences` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`track_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`track_id`) REFERENCES `music_tracks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `music_licences_code_unique` ON `music_licences` (`code`);--> statement-breakpoint
CREATE UNIQUE INDEX `music_licences_track_user_unique` ON `music_licences` (`track_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `music_licences_user_idx` ON `music_licences` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `music_licences_track_idx` ON `music_licences` (`track_id`,`created_at`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_music_tracks` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`artist` text NOT NULL,
	`genre` text,
	`mood` text,
	`bpm` integer,
	`duration_seconds` integer NOT NULL,
	`audio_key` text NOT NULL,
	`audio_content_type` text DEFAULT 'audio/wav' NOT NULL,
	`audio_size` integer DEFAULT 0 NOT NULL,
	`cover_key` text,
	`cover_url` text,
	`tags` text DEFAULT '' NOT NULL,
	`peaks` text DEFAULT '[]' NOT NULL,
	`status` text DEFAULT 'in_review' NOT NULL,
	`submitted_by` text,
	`review_note` text,
	`reviewed_by` text,
	`reviewed_at` text,
	`published_at` text,
	`withdrawn_at` text,
	`withdraw_reason` text,
	`licence_count` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`submitted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`reviewed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "music_tracks_status_check" CHECK(status in ('in_review', 'published', 'rejected', 'withdrawn')),
	CONSTRAINT "music_tracks_bpm_check" CHECK(bpm is null or bpm between 40 and 250)
);
--> statement-breakpoint
-- Existing rows keep their data; the old 'unpublished' state is 'withdrawn' now, and a published
-- track's publication date is its creation date.
INSERT INTO `__new_music_tracks`("id", "title", "artist", "genre", "mood", "bpm", "duration_seconds", "audio_key", "audio_content_type", "cover_url", "status", "submitted_by", "published_at", "withdrawn_at", "created_at", "updated_at") SELECT "id", "title", "artist", "genre", "mood", CASE WHEN "bpm" BETWEEN 40 AND 250 THEN "bpm" ELSE NULL END, "duration_seconds", "audio_key", "audio_content_type", "cover_url", CASE "status" WHEN 'unpublished' THEN 'withdrawn' ELSE 'published' END, "submitted_by", CASE "status" WHEN 'published' THEN "created_at" ELSE NULL END, CASE "status" WHEN 'unpublished' THEN "created_at" ELSE NULL END, "created_at", "created_at" FROM `music_tracks`;--> statement-breakpoint
DROP TABLE `music_tracks`;--> statement-breakpoint
ALTER TABLE `__new_music_tracks` RENAME TO `music_tracks`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `music_tracks_audio_key_unique` ON `music_tracks` (`audio_key`);--> statement-breakpoint
CREATE INDEX `music_tracks_status_created_idx` ON `music_tracks` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `music_tracks_status_used_idx` ON `music_tracks` (`status`,`licence_count`);--> statement-breakpoint
CREATE INDEX `music_tracks_status_title_idx` ON `music_tracks` (`status`,`title`);--> statement-breakpoint
CREATE INDEX `music_tracks_status_genre_idx` ON `music_tracks` (`status`,`genre`);--> statement-breakpoint
CREATE INDEX `music_tracks_status_mood_idx` ON `music_tracks` (`status`,`mood`);--> statement-breakpoint
CREATE INDEX `music_tracks_status_bpm_idx` ON `music_tracks` (`status`,`bpm`);--> statement-breakpoint
CREATE INDEX `music_tracks_status_duration_idx` ON `music_tracks` (`status`,`duration_seconds`);--> statement-breakpoint
CREATE INDEX `music_tracks_submitter_idx` ON `music_tracks` (`submitted_by`,`created_at`);--> statement-breakpoint
-- Full-text search over title, artist and tags (drizzle cannot declare virtual tables): an
-- external-content FTS5 index kept in step with music_tracks by triggers; prefix indexes make
-- "sun"* fast. Ranked with bm25() by the library's search query.
CREATE VIRTUAL TABLE `music_tracks_fts` USING fts5(title, artist, tags, content='music_tracks', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2', prefix='2 3');--> statement-breakpoint
CREATE TRIGGER `music_tracks_fts_ai` AFTER INSERT ON `music_tracks` BEGIN
  INSERT INTO music_tracks_fts(rowid, title, artist, tags) VALUES (new.rowid, new.title, new.artist, new.tags);
END;--> statement-breakpoint
CREATE TRIGGER `music_tracks_fts_ad` AFTER DELETE ON `music_tracks` BEGIN
  INSERT INTO music_tracks_fts(music_tracks_fts, rowid, title, artist, tags) VALUES ('delete', old.rowid, old.title, old.artist, old.tags);
END;--> statement-breakpoint
CREATE TRIGGER `music_tracks_fts_au` AFTER UPDATE OF title, artist, tags ON `music_tracks` BEGIN
  INSERT INTO music_tracks_fts(music_tracks_fts, rowid, title, artist, tags) VALUES ('delete', old.rowid, old.title, old.artist, old.tags);
  INSERT INTO music_tracks_fts(rowid, title, artist, tags) VALUES (new.rowid, new.title, new.artist, new.tags);
END;--> statement-breakpoint
INSERT INTO music_tracks_fts(music_tracks_fts) VALUES ('rebuild');
