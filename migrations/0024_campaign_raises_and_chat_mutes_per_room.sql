-- Issue 30: the reason a submission was raised when budget freed up (decision 0245), and chat mutes
-- per room (decision 0246). Two branches' migrations made one on merge; the snapshot is drizzle-kit's.

ALTER TABLE `campaign_submissions` ADD `raised_at` text;--> statement-breakpoint
ALTER TABLE `campaign_submissions` ADD `raised_from_cents` integer;--> statement-breakpoint
ALTER TABLE `campaign_submissions` ADD `raise_cause` text;--> statement-breakpoint
-- Mutes per room (decision 0246): room_id null is a mute in every room (what every existing mute
-- was). One open mute per user and room. The index is written by hand: drizzle-kit 0.31 splits an
-- expression column of an index at its comma.
DROP INDEX `chat_mutes_open_unique`;--> statement-breakpoint
ALTER TABLE `chat_mutes` ADD `room_id` text REFERENCES chat_rooms(id) ON DELETE cascade;--> statement-breakpoint
CREATE UNIQUE INDEX `chat_mutes_open_room_unique` ON `chat_mutes` (`user_id`, coalesce(`room_id`, '')) WHERE ended_at is null;
