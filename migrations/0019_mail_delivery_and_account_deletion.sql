CREATE TABLE `email_opt_outs` (
	`email` text NOT NULL,
	`category` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`email`, `category`),
	CONSTRAINT "email_opt_outs_category_check" CHECK(category in ('news'))
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_email_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`to_email` text NOT NULL,
	`subject` text NOT NULL,
	`body_text` text NOT NULL,
	`kind` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`sent_at` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`claim_id` text,
	`claimed_until` text,
	`message_id` text,
	`last_error` text,
	`body_purged_at` text,
	CONSTRAINT "email_outbox_status_check" CHECK(status in ('pending', 'sending', 'sent', 'failed')),
	CONSTRAINT "email_outbox_sent_check" CHECK(status <> 'sent' or sent_at is not null)
);
--> statement-breakpoint
INSERT INTO `__new_email_outbox`("id", "to_email", "subject", "body_text", "kind", "created_at", "sent_at", "status", "last_error") SELECT "id", "to_email", "subject", "body_text", "kind", "created_at", "sent_at", CASE WHEN "sent_at" IS NULL THEN 'failed' ELSE 'sent' END, CASE WHEN "sent_at" IS NULL THEN 'Written before e-mail delivery existed: not sent.' END FROM `email_outbox`;--> statement-breakpoint
DROP TABLE `email_outbox`;--> statement-breakpoint
ALTER TABLE `__new_email_outbox` RENAME TO `email_outbox`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `email_outbox_to_idx` ON `email_outbox` (`to_email`,`created_at`);--> statement-breakpoint
CREATE INDEX `email_outbox_due_idx` ON `email_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `email_outbox_kind_to_idx` ON `email_outbox` (`to_email`,`kind`,`created_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `deletion_requested_at` text;--> statement-breakpoint
ALTER TABLE `users` ADD `deletion_due_at` text;--> statement-breakpoint
ALTER TABLE `users` ADD `deleted_at` text;--> statement-breakpoint
CREATE INDEX `users_deletion_due_idx` ON `users` (`deletion_due_at`);