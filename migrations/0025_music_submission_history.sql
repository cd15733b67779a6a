CREATE TABLE `music_track_events` (
	`id` text PRIMARY KEY NOT NULL,
	`track_id` text NOT NULL,
	`kind` text NOT NULL,
	`note` text,
	`changes` text DEFAULT '[]' NOT NULL,
	`actor_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`track_id`) REFERENCES `music_tracks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "music_track_events_kind_check" CHECK(kind in ('rejected', 'resubmitted', 'approved', 'withdrawn'))
);
--> statement-breakpoint
CREATE INDEX `music_track_events_track_idx` ON `music_track_events` (`track_id`,`created_at`);--> statement-breakpoint
-- Decisions made before the history existed: the latest one of each decided track, from its row.
INSERT INTO `music_track_events` (`id`, `track_id`, `kind`, `note`, `actor_id`, `created_at`)
SELECT lower(hex(randomblob(16))), `id`, CASE `status` WHEN 'published' THEN 'approved' ELSE `status` END,
  CASE `status` WHEN 'withdrawn' THEN `withdraw_reason` ELSE `review_note` END, `reviewed_by`, `reviewed_at`
FROM `music_tracks` WHERE `status` IN ('rejected', 'published', 'withdrawn') AND `reviewed_at` IS NOT NULL;
