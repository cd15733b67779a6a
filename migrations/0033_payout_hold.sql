ALTER TABLE `payouts` ADD `held_at` text;--> statement-breakpoint
ALTER TABLE `payouts` ADD `held_reason` text;