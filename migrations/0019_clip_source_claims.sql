ALTER TABLE `clip_sources` ADD `claim_id` text;--> statement-breakpoint
ALTER TABLE `clip_sources` ADD `claimed_at` text;