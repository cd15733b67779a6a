ALTER TABLE `notifications` ADD `kind` text DEFAULT 'broadcast' NOT NULL;--> statement-breakpoint
ALTER TABLE `notifications` ADD `audience` text DEFAULT 'user' NOT NULL;--> statement-breakpoint
ALTER TABLE `profiles` ADD `agency_signup_token_id` text;--> statement-breakpoint
ALTER TABLE `profiles` ADD `last_sign_in_at` text;