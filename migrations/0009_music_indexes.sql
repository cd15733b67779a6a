CREATE INDEX `music_tracks_library_newest_idx` ON `music_tracks` (`status`,`published_at`,`id`);--> statement-breakpoint
CREATE INDEX `music_tracks_library_used_idx` ON `music_tracks` (`status`,`licence_count`,`published_at`,`id`);--> statement-breakpoint
CREATE INDEX `music_tracks_library_title_idx` ON `music_tracks` (`status`,"title" COLLATE NOCASE,`id`);