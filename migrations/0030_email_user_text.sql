ALTER TABLE `email_outbox` ADD `user_spans` text;--> statement-breakpoint
ALTER TABLE `email_outbox` ADD `action_url` text;