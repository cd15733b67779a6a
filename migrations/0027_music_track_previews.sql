ALTER TABLE `music_tracks` ADD `preview_key` text;--> statement-breakpoint
ALTER TABLE `music_tracks` ADD `preview_size` integer DEFAULT 0 NOT NULL;