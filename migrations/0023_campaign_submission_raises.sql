ALTER TABLE `campaign_submissions` ADD `raised_at` text;--> statement-breakpoint
ALTER TABLE `campaign_submissions` ADD `raised_from_cents` integer;--> statement-breakpoint
ALTER TABLE `campaign_submissions` ADD `raise_cause` text;